/**
 * `torch.sparse`: sums over dims (`torch.sparse.sum`) and products of a sparse COO matrix and a
 * dense one whose gradient for the sparse operand is sparse (`torch.sparse.mm`,
 * `torch.sparse.addmm`; core's Note [torch.sparse.mm's sparse gradient]). Sparse tensors
 * themselves are `torch.sparseCooTensor`.
 */
// The front ends declared in core with the `sparse` namespace (Note [Front ends are declared once])
export * from './generated/sparse-front-ops';

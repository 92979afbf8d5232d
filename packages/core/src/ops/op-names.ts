import { BINARY_TABLE_KERNEL_OP_NAMES, UNARY_TABLE_KERNEL_OP_NAMES } from './generated/table-names';

/**
 * Note [Ops that need a derivative]
 * Every operator with kernels of its own (not a composite, not an out= variant, which
 * autograd refuses) is named here once (the op table's rows through their generated list,
 * Note [The op table]), so that the autograd package's derivative table can
 * be checked by the compiler (`satisfies { [K in KernelOpName]: ... }`): an op added here
 * without a derivative entry does not compile. test/op-names.test.ts keeps this list equal
 * to what the dispatcher actually registers.
 */
const OTHER_KERNEL_OP_NAMES = [
  'copy_', 'fill_.Scalar', '_to_copy', 'clone',
  'view', 'as_strided', 'permute', 'transpose.int', 'select.int', 'slice.Tensor', 'unsqueeze', 'squeeze.dims',
  'expand', 'unfold', 'diagonal', 'detach', 'alias',
  'mm', 'bmm', 'mv', 'dot',
  'add', 'add_', 'sub', 'sub_', 'mul', 'mul_', 'div', 'div_', 'pow', 'pow_', 'remainder', 'remainder_',
  'maximum', 'minimum',
    'clamp', 'clamp_', 'clamp_min', 'clamp_min_', 'clamp_max', 'clamp_max_', 'lerp', 'lerp_',
  'addcmul', 'addcmul_', 'addcdiv', 'addcdiv_',
  'nan_to_num', 'nan_to_num_',
  'round', 'round_',
  'where',
  'leaky_relu', 'leaky_relu_', 'elu', 'elu_', 'hardtanh', 'hardtanh_', 'gelu', 'silu', 'silu_', 'mish', 'mish_', 'softplus',
  'hardsigmoid', 'hardsigmoid_', 'hardswish', 'hardswish_', 'logit', 'logit_',
  'sum.dim_IntList', 'mean.dim', 'prod.dim_int', 'amax', 'amin', 'max.dim', 'min.dim', 'argmax', 'argmin',
  'cat', 'stack', 'repeat', 'flip', 'roll', 'triu', 'triu_', 'tril', 'tril_',
  'sort.stable', 'topk', 'searchsorted.Tensor', 'bucketize.Tensor', '_unique2', 'unique_dim',
  'addmm', 'baddbmm',
  'var.correction', 'std.correction', 'var_mean.correction', 'std_mean.correction', 'logsumexp', 'linalg_vector_norm',
  'all.dims', 'any.dims', 'median', 'median.dim', 'mode', 'cumsum', 'cumsum_', 'cumprod', 'cumprod_', 'cummax', 'cummin',
  'index.packed', 'index_put_.packed', 'gather', 'scatter_.src', 'scatter_.value', 'scatter_.reduce', 'scatter_.value_reduce',
  'scatter_add_', 'scatter_reduce_.two', 'index_select', 'index_add_', 'take', 'nonzero',
  'masked_fill_.Scalar', 'masked_fill_.Tensor', 'masked_scatter_', 'masked_select', 'index_fill_.int_Scalar', 'index_fill_.int_Tensor',
  'convolution', 'convolution_backward', 'max_pool2d_with_indices', 'max_pool2d_with_indices_backward',
  'avg_pool2d', 'avg_pool2d_backward', '_adaptive_avg_pool2d', '_adaptive_avg_pool2d_backward', 'constant_pad_nd',
  'reflection_pad1d', 'reflection_pad1d_backward', 'reflection_pad2d', 'reflection_pad2d_backward',
  'replication_pad1d', 'replication_pad1d_backward', 'replication_pad2d', 'replication_pad2d_backward',
  '_pad_circular1d', '_pad_circular1d_backward', '_pad_circular2d', '_pad_circular2d_backward',
  'upsample_nearest2d', 'upsample_nearest2d_backward', 'upsample_bilinear2d', 'upsample_bilinear2d_backward',
  '_softmax', '_log_softmax', '_softmax_backward_data', '_log_softmax_backward_data',
  'nll_loss_forward', 'nll_loss2d_forward', 'nll_loss_backward', 'native_batch_norm', 'native_batch_norm_backward',
  'native_layer_norm', 'native_layer_norm_backward', 'embedding', 'embedding_dense_backward',
  'mse_loss', 'smooth_l1_loss', 'binary_cross_entropy', 'binary_cross_entropy_with_logits', 'native_group_norm',
] as const;

export type KernelOpName = (typeof OTHER_KERNEL_OP_NAMES)[number] | (typeof UNARY_TABLE_KERNEL_OP_NAMES)[number] | (typeof BINARY_TABLE_KERNEL_OP_NAMES)[number];

/** Every kernel op: the op table's (Note [The op table]) and the ones not in the table yet. */
export const KERNEL_OP_NAMES: readonly KernelOpName[] = [...UNARY_TABLE_KERNEL_OP_NAMES, ...BINARY_TABLE_KERNEL_OP_NAMES, ...OTHER_KERNEL_OP_NAMES];

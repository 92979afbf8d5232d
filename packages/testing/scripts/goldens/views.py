"""Goldens for view ops: sizes, strides and storage offsets as PyTorch computes them.

Each case is self-describing, in torch-ts spelling (docs/api.md):
  base:  {"shape": [...], "steps": [{"op": ..., "args": [...]}, ...]}
         the input is a contiguous tensor of `shape` (offset 0, storage of numel(shape)
         elements) put through the setup `steps`, so views of non-contiguous inputs appear.
  op, args: the torch-ts method and its positional arguments (sizes as one array;
         `index` items are numbers, ':'-style strings, null, '...', booleans,
         {"slice": [start, end, step]} for torch.slice(...) and
         {"tensor": nested list, "dtype": name} for index tensors).
  then either
  expected: {"sizes", "strides", "offset", "contiguous", "aliases"} (a list of them for
         split, chunk and unbind); "aliases" says whether the result shares the input's
         storage (false: PyTorch copied, e.g. a reshape that cannot be a view, or advanced
         indexing, whose output strides follow TensorIterator's layout rules);
  or error: {"type": the torch-ts error class, "match": a substring of PyTorch's message
         that torch-ts's message must contain too, "torch": PyTorch's full message}.
"""
import torch

CASES = []


def base(shape, *steps):
    return {"shape": list(shape), "steps": [{"op": op, "args": list(args)} for op, *args in steps]}


def case(name, b, op, args, error=None, note=None):
    c = {"name": name, "base": b, "op": op, "args": list(args)}
    if error is not None:
        c["error"] = {"type": error[0], "match": error[1]}
    if note is not None:
        c["note"] = note
    CASES.append(c)


# ---- how a torch-ts call maps onto PyTorch ----------------------------------------------

def index_item(x):
    if x is None:
        return None
    if isinstance(x, bool) or isinstance(x, int):
        return x
    if isinstance(x, str):
        if x == "...":
            return Ellipsis
        parts = [p.strip() for p in x.split(":")]
        nums = [int(p) if p else None for p in parts]
        return slice(*nums)
    if isinstance(x, dict) and "slice" in x:
        return slice(*x["slice"])
    if isinstance(x, dict) and "tensor" in x:
        return torch.tensor(x["tensor"], dtype=getattr(torch, x["dtype"]))
    raise ValueError(f"bad index item {x!r}")


def squeeze_dims(t, dims):
    # PyTorch 2.x's squeeze(list of dims), emulated on 1.13 by squeezing one dim at a time
    # from the last: the same result, since only size-1 dims among them are dropped.
    nd = max(t.dim(), 1)
    norm = sorted({d % nd for d in dims}, reverse=True)
    for d in norm:
        t = t.squeeze(d)
    return t


def call(t, op, args):
    a = args
    if op == "view":
        return t.view(a[0])
    if op == "reshape":
        return t.reshape(a[0])
    if op == "asStrided":
        return t.as_strided(*a)
    if op == "permute":
        return t.permute(a[0])
    if op == "transpose":
        return t.transpose(*a)
    if op == "t":
        return t.t()
    if op == "mT":
        return t.mT
    if op == "narrow":
        return t.narrow(*a)
    if op == "select":
        return t.select(*a)
    if op == "slice":
        return torch.ops.aten.slice(t, *a)
    if op == "unsqueeze":
        return t.unsqueeze(*a)
    if op == "squeeze":
        if a and isinstance(a[0], list):
            return squeeze_dims(t, a[0])
        return t.squeeze(*a)
    if op == "expand":
        return t.expand(a[0])
    if op == "flatten":
        return t.flatten(*a)
    if op == "unflatten":
        return t.unflatten(a[0], tuple(a[1]))
    if op == "unfold":
        return t.unfold(*a)
    if op == "diagonal":
        return t.diagonal(*a)
    if op == "movedim":
        return t.movedim(*[tuple(x) if isinstance(x, list) else x for x in a])
    if op == "split":
        return t.split(*a)
    if op == "chunk":
        return t.chunk(*a)
    if op == "unbind":
        return t.unbind(*a)
    if op == "index":
        items = tuple(index_item(x) for x in a)
        return t[items[0]] if len(items) == 1 else t[items]
    if op == "contiguous":
        return t.contiguous()
    if op == "detach":
        return t.detach()
    raise ValueError(f"unknown op {op}")


def build(b):
    t = torch.arange(max(1, _numel(b["shape"])), dtype=torch.float32)[: _numel(b["shape"])].view(b["shape"])
    for s in b["steps"]:
        t = call(t, s["op"], s["args"])
    return t


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _storage(x):
    return x.untyped_storage() if hasattr(x, "untyped_storage") else x.storage()


def shares(r, t):
    if _storage(t).nbytes() > 0:
        return _storage(r).data_ptr() == _storage(t).data_ptr()
    # Empty storages may all sit at address 0: fall back to PyTorch's view bookkeeping.
    root = t._base if t._base is not None else t
    if r is t or r is root:
        return True
    if r._base is not None and (r._base is root or r._base is t):
        return True
    return False


def describe(r, t):
    return {
        "sizes": list(r.shape),
        "strides": list(r.stride()),
        "offset": r.storage_offset(),
        "contiguous": r.is_contiguous(),
        "aliases": shares(r, t),
    }


# ---- the cases --------------------------------------------------------------------------

T = ("transpose", 0, 1)

# view
case("view contiguous", base([2, 3, 4]), "view", [[6, 4]])
case("view infer -1", base([2, 3, 4]), "view", [[-1, 2]])
case("view to 0-dim", base([1, 1]), "view", [[]])
case("view 0-dim to [1, 1]", base([]), "view", [[1, 1]])
case("view 0-dim to [-1]", base([]), "view", [[-1]])
case("view transposed, merge impossible", base([2, 3], T), "view", [[6]], ("ShapeError", "view size is not compatible with input tensor's size and stride"))
case("view transposed, split dims", base([4, 6], T), "view", [[3, 2, 4]])
case("view permuted, merge compatible dims", base([2, 3, 4], ("permute", [1, 0, 2])), "view", [[3, 2, 2, 2]])
case("view permuted, merge incompatible dims", base([2, 3, 4], ("permute", [1, 0, 2])), "view", [[3, 8]], ("ShapeError", "Use .reshape(...) instead"))
case("view column slice, split outer", base([4, 4], ("index", ":", ":2")), "view", [[2, 2, 2]])
case("view column slice, merge impossible", base([4, 4], ("index", ":", ":2")), "view", [[8]], ("ShapeError", "spans across two contiguous subspaces"))
case("view strided slice with size-1 dims", base([4, 4], ("index", "::2", "::2")), "view", [[2, 1, 2]])
case("view through size-1 transposed dim", base([2, 1, 4], ("transpose", 0, 1)), "view", [[8]])
case("view expanded, keep stride 0", base([4], ("expand", [3, 4])), "view", [[3, 2, 2]])
case("view expanded, merge impossible", base([4], ("expand", [3, 4])), "view", [[12]], ("ShapeError", "view size is not compatible"))
case("view two -1", base([2, 3]), "view", [[-1, -1]], ("ShapeError", "only one dimension can be inferred"))
case("view wrong numel", base([2, 3]), "view", [[2, 5]], ("ShapeError", "shape '[2, 5]' is invalid for input of size 6"))
case("view negative size", base([2, 3]), "view", [[-2, 3]], ("ShapeError", "invalid shape dimension -2"))
case("view empty, keep same shape strides", base([2, 0, 3], ("index", ":", ":", "::2")), "view", [[2, 0, 2]])
case("view empty to new shape", base([2, 0, 3]), "view", [[6, 0]])
case("view empty, ambiguous -1", base([2, 0, 3]), "view", [[0, -1]], ("ShapeError", "can be any value and is ambiguous"))
case("view empty with -1 and nonzero", base([0]), "view", [[2, -1]])
case("view with offset keeps offset", base([3, 4], ("index", "1:")), "view", [[4, 2]])

# reshape
case("reshape contiguous is a view", base([2, 3, 4]), "reshape", [[4, -1]])
case("reshape transposed copies", base([2, 3], T), "reshape", [[6]])
case("reshape transposed splits as view", base([4, 6], T), "reshape", [[3, 2, 4]])
case("reshape sliced copies", base([4, 4], ("index", ":", ":2")), "reshape", [[8]])
case("reshape expanded copies", base([4], ("expand", [3, 4])), "reshape", [[12]])
case("reshape expanded view", base([4], ("expand", [3, 4])), "reshape", [[3, 2, 2]])
case("reshape wrong numel", base([2, 3], T), "reshape", [[4, 2]], ("ShapeError", "shape '[4, 2]' is invalid for input of size 6"))

# permute, transpose, t, mT, movedim
case("permute 3-d", base([2, 3, 4]), "permute", [[2, 0, 1]])
case("permute negative dims", base([2, 3, 4]), "permute", [[-1, 0, 1]])
case("permute of sliced", base([4, 3, 4], ("index", "1:3", ":", "::2")), "permute", [[1, 2, 0]])
case("permute duplicate", base([2, 3, 4]), "permute", [[0, 1, 1]], ("TorchError", "duplicate dims are not allowed"))
case("permute wrong length", base([2, 3, 4]), "permute", [[0, 1]], ("ShapeError", "input.dim() = 3 is not equal to len(dims) = 2"))
case("permute out of range", base([2, 3, 4]), "permute", [[3, 0, 1]], ("IndexError", "Dimension out of range (expected to be in range of [-3, 2], but got 3)"))
case("transpose negative", base([2, 3, 4]), "transpose", [-1, 0])
case("transpose 0-dim", base([]), "transpose", [0, -1])
case("transpose 0-dim out of range", base([]), "transpose", [0, 1], ("IndexError", "expected to be in range of [-1, 0], but got 1"))
case("transpose out of range", base([2, 3]), "transpose", [0, 2], ("IndexError", "Dimension out of range (expected to be in range of [-2, 1], but got 2)"))
case("t 2-d", base([2, 3]), "t", [])
case("t 1-d", base([3]), "t", [])
case("t 0-dim", base([]), "t", [])
case("t 3-d", base([3, 4, 5]), "t", [], ("ShapeError", "t() expects a tensor with <= 2 dimensions, but self is 3D"))
case("mT 3-d", base([2, 3, 4]), "mT", [])
case("mT 1-d", base([3]), "mT", [], ("ShapeError", "only supported on matrices or batches of matrices. Got 1-D tensor."))
case("movedim single", base([2, 3, 4]), "movedim", [0, 2])
case("movedim negative", base([2, 3, 4]), "movedim", [-1, 0])
case("movedim lists", base([2, 3, 4, 5]), "movedim", [[3, 0], [1, 3]])
case("movedim length mismatch", base([2, 3, 4]), "movedim", [[0, 1], [2]], ("ShapeError", "should contain the same number of dims as destination"))
case("movedim repeated source", base([2, 3, 4]), "movedim", [[0, -3], [1, 2]], ("TorchError", "repeated dim in `source` ([0, -3])"))
case("movedim repeated destination", base([2, 3, 4]), "movedim", [[0, 1], [2, 2]], ("TorchError", "repeated dim in `destination` ([2, 2])"))

# narrow, select, slice
case("narrow", base([3, 4]), "narrow", [1, 1, 2])
case("narrow negative start", base([2, 3]), "narrow", [1, -2, 2])
case("narrow empty at end", base([2, 3]), "narrow", [1, 3, 0])
case("narrow of transposed", base([3, 4], T), "narrow", [0, 1, 2])
case("narrow too long", base([2, 3]), "narrow", [1, 2, 2], ("IndexError", "start (2) + length (2) exceeds dimension size (3)."))
case("narrow start out of range", base([2, 3]), "narrow", [1, -4, 2], ("IndexError", "out of range (expected to be in range of [-3, "))
case("select", base([2, 3, 4]), "select", [1, 2])
case("select negative", base([2, 3, 4]), "select", [-1, -1])
case("select of sliced", base([4, 6], ("index", "1:", "::2")), "select", [1, 1])
case("select out of range", base([3]), "select", [0, 5], ("IndexError", "index 5 out of range for tensor of size [3] at dimension 0"))
case("select negative out of range", base([2, 3]), "select", [1, -4], ("IndexError", "index -4 out of range for tensor of size [2, 3] at dimension 1"))
case("select 0-dim", base([]), "select", [0, 0], ("IndexError", "select() cannot be applied to a 0-dim tensor."))
case("slice op with step", base([4, 6]), "slice", [1, 1, 6, 2])
case("slice op clamps", base([4, 6]), "slice", [0, -100, 100, 1])
case("slice op end before start", base([4, 6]), "slice", [1, 4, 2, 1])
case("slice op zero step", base([4, 6]), "slice", [1, 0, 3, 0], ("TorchError", "slice step must be positive"))

# unsqueeze, squeeze
case("unsqueeze end", base([2, 3]), "unsqueeze", [2])
case("unsqueeze negative", base([2, 3, 4]), "unsqueeze", [-4])
case("unsqueeze of transposed", base([3, 4], T), "unsqueeze", [1])
case("unsqueeze of sliced size-1", base([2, 3, 4], ("index", ":", "1:2")), "unsqueeze", [1])
case("unsqueeze 0-dim", base([]), "unsqueeze", [-1])
case("unsqueeze empty", base([0, 3]), "unsqueeze", [0])
case("unsqueeze out of range", base([2, 3, 4]), "unsqueeze", [-5], ("IndexError", "expected to be in range of [-4, 3], but got -5"))
case("squeeze all", base([3, 1, 4, 1]), "squeeze", [])
case("squeeze one size-1 dim", base([3, 1, 4, 1]), "squeeze", [-1])
case("squeeze non-size-1 dim keeps it", base([3, 1, 4, 1]), "squeeze", [0])
case("squeeze list", base([1, 3, 1, 4, 1]), "squeeze", [[0, 2, 3]], note="PyTorch 2.x squeeze(dims); emulated on 1.13 by squeezing one dim at a time")
case("squeeze 0-dim", base([]), "squeeze", [0])
case("squeeze out of range", base([3, 1, 4, 1]), "squeeze", [4], ("IndexError", "expected to be in range of [-4, 3], but got 4"))

# expand
case("expand new leading size-1 dim", base([3]), "expand", [[1, 3]])
case("expand new leading dims", base([3]), "expand", [[2, 1, 3]])
case("expand -1 keeps", base([3]), "expand", [[2, -1]])
case("expand size-1 dim and leading", base([1, 3]), "expand", [[1, 2, 3]])
case("expand transposed", base([3, 1], T), "expand", [[2, 4, 3]])
case("expand 0-dim", base([]), "expand", [[4, 1]])
case("expand to empty", base([1]), "expand", [[0]])
case("expand empty", base([0, 3]), "expand", [[2, 0, 3]])
case("expand mismatch", base([3]), "expand", [[2, 4]], ("ShapeError", "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [2, 4].  Tensor sizes: [3]"))
case("expand -1 in new dim", base([3]), "expand", [[-1, 3]], ("ShapeError", "isn't allowed in a leading, non-existing dimension 0"))
case("expand too few sizes", base([2, 3]), "expand", [[3]], ("ShapeError", "the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"))

# asStrided
case("asStrided", base([3, 4]), "asStrided", [[2, 2], [1, 2]])
case("asStrided with offset", base([3, 4]), "asStrided", [[2, 2], [1, 2], 3])
case("asStrided default offset is the input's", base([3, 4], ("index", "1:")), "asStrided", [[2, 2], [1, 2]])
case("asStrided empty ignores bounds", base([3, 4], ("index", "1:")), "asStrided", [[0, 2], [1, 2], 100])
case("asStrided out of bounds", base([3, 4]), "asStrided", [[2, 2], [1, 2], 11], ("ShapeError", "out of bounds for storage of size"))
case("asStrided negative stride", base([3, 4]), "asStrided", [[2, 2], [1, -2]], ("TorchError", "Negative strides are not supported at the moment, got strides: [1, -2]"))
case("asStrided length mismatch", base([3, 4]), "asStrided", [[2, 2], [1]], ("ShapeError", "mismatch in length of strides and shape"))
case("asStrided negative offset", base([3, 4]), "asStrided", [[2, 2], [1, 2], -1], ("TorchError", "invalid storage offset -1"))

# diagonal
case("diagonal main", base([3, 4]), "diagonal", [])
case("diagonal offset 1", base([3, 4]), "diagonal", [1])
case("diagonal offset -1", base([3, 4]), "diagonal", [-1])
case("diagonal offset past edge", base([3, 4]), "diagonal", [5])
case("diagonal negative offset past edge", base([3, 4]), "diagonal", [-3])
case("diagonal swapped dims", base([3, 4]), "diagonal", [1, 1, 0])
case("diagonal 3-d outer dims", base([2, 3, 4]), "diagonal", [1, -1, 0])
case("diagonal of transposed", base([3, 4], T), "diagonal", [1])
case("diagonal same dims", base([3, 4]), "diagonal", [0, 1, -1], ("TorchError", "diagonal dimensions cannot be identical 1, -1"))
case("diagonal 1-d", base([3]), "diagonal", [], ("IndexError", "expected to be in range of [-1, 0], but got 1"))

# unfold
case("unfold overlapping", base([3, 4]), "unfold", [1, 2, 1])
case("unfold step larger than size", base([3, 4]), "unfold", [1, 1, 3])
case("unfold leaves a tail", base([3, 4]), "unfold", [1, 3, 2])
case("unfold dim 0", base([3, 4]), "unfold", [0, 2, 1])
case("unfold size 0", base([3, 4]), "unfold", [1, 0, 1])
case("unfold 0-dim", base([]), "unfold", [0, 1, 1])
case("unfold of transposed", base([3, 4], T), "unfold", [-1, 2, 1])
case("unfold too big", base([3, 4]), "unfold", [-1, 5, 1], ("ShapeError", "maximum size for tensor at dimension 1 is 4 but size is 5"))
case("unfold zero step", base([3, 4]), "unfold", [1, 2, 0], ("TorchError", "step is 0 but must be > 0"))

# flatten, unflatten
case("flatten all", base([2, 3, 4]), "flatten", [])
case("flatten from 1", base([2, 3, 4]), "flatten", [1])
case("flatten 0-dim", base([]), "flatten", [])
case("flatten same dim is identity", base([2, 3, 4], ("transpose", 0, 1)), "flatten", [0, 0])
case("flatten permuted view", base([2, 3, 4], ("permute", [2, 0, 1])), "flatten", [1])
case("flatten transposed copies", base([2, 3, 4], ("transpose", 0, 1)), "flatten", [1])
case("flatten transposed outer dims copies", base([2, 3, 4], ("transpose", 0, 1)), "flatten", [0, 1])
case("flatten reversed dims", base([2, 3, 4]), "flatten", [2, 1], ("TorchError", "start_dim cannot come after end_dim"))
case("unflatten", base([2, 3, 4]), "unflatten", [1, [3, 1]])
case("unflatten -1", base([2, 3, 4]), "unflatten", [-1, [2, -1]])
case("unflatten transposed", base([2, 3, 4], ("transpose", 0, 2)), "unflatten", [0, [2, 2]])
case("unflatten empty", base([2, 0]), "unflatten", [1, [5, 0]])
case("unflatten mismatch", base([2, 3, 4]), "unflatten", [-1, [3, 2]], ("ShapeError", "Provided sizes [3, 2] don't multiply up to the size of dim 2 (4) in the input tensor"))
case("unflatten no sizes", base([2, 3, 4]), "unflatten", [2, []], ("TorchError", "sizes must be non-empty"))
case("unflatten 0-dim", base([]), "unflatten", [0, [1]], ("IndexError", "Dimension specified as 0 but tensor has no dimensions"))

# split, chunk, unbind
case("split uneven", base([7, 4]), "split", [3])
case("split bigger than dim", base([7, 4]), "split", [10])
case("split sizes", base([7, 4]), "split", [[3, 4]])
case("split sizes with empty piece", base([7, 4]), "split", [[7, 0]])
case("split dim 1 of transposed", base([7, 4], T), "split", [3, 1])
case("split empty dim by 0", base([0, 4]), "split", [0])
case("split empty dim by 2", base([0, 4]), "split", [2])
case("split zero size", base([7, 4]), "split", [0], ("TorchError", "split_size can only be 0 if dimension size is 0, but got dimension size of 7"))
case("split negative size", base([7, 4]), "split", [-1], ("TorchError", "split expects split_size be non-negative, but got split_size=-1"))
case("split sizes wrong sum", base([7, 4]), "split", [[3, 3], -2], ("ShapeError", "split_with_sizes expects split_sizes to sum exactly to 7 (input tensor's size at dimension -2), but got split_sizes=[3, 3]"))
case("split sizes negative", base([7, 4]), "split", [[8, -1]], ("TorchError", "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[8, -1]"))
case("split 0-dim", base([]), "split", [1], ("ShapeError", "split expects at least a 1-dimensional tensor"))
case("chunk 7 into 3", base([7, 4]), "chunk", [3])
case("chunk 7 into 4", base([7, 4]), "chunk", [4])
case("chunk 6 into 4 gives 3", base([6]), "chunk", [4])
case("chunk more chunks than elements", base([7, 4]), "chunk", [10])
case("chunk empty dim", base([0]), "chunk", [3])
case("chunk dim -1", base([3, 5]), "chunk", [2, -1])
case("chunk zero", base([7, 4]), "chunk", [0], ("TorchError", "chunk expects `chunks` to be greater than 0, got: 0"))
case("chunk 0-dim", base([]), "chunk", [1], ("ShapeError", "chunk expects at least a 1-dimensional tensor"))
case("unbind dim 1", base([7, 4]), "unbind", [1])
case("unbind of transposed", base([3, 4], T), "unbind", [0])
case("unbind empty", base([0, 2]), "unbind", [0])
case("unbind 0-dim", base([]), "unbind", [0], ("IndexError", "Dimension specified as 0 but tensor has no dimensions"))

# index (basic)
case("index number", base([2, 3, 4]), "index", [1])
case("index negative number", base([2, 3, 4]), "index", [-1, -2])
case("index slice strings", base([4, 6]), "index", ["1:3", "::2"])
case("index open slices", base([4, 6]), "index", ["-3:", ":"])
case("index slice object", base([4, 6]), "index", [{"slice": [1, None, 2]}, {"slice": [None, -1, None]}])
case("index clamped empty slice", base([2, 3, 4]), "index", ["5:10"])
case("index step past end", base([2, 3, 4]), "index", [":", ":", "3::2"])
case("index end before start", base([2, 3, 4]), "index", [":", "2:1"])
case("index new axes", base([2, 3, 4]), "index", [None, "...", None])
case("index ellipsis then number", base([2, 3, 4]), "index", ["...", 1])
case("index number ellipsis number", base([2, 3, 4]), "index", [0, "...", -1])
case("index lone ellipsis", base([2, 3, 4]), "index", ["..."])
case("index nothing", base([2, 3]), "index", [])
case("index of transposed", base([3, 4], T), "index", ["1:", 2])
case("index mixed", base([4, 5, 6]), "index", [1, ":", None, "1:5:2"])
case("index 0-dim with None", base([]), "index", [None])
case("index 0-dim with ellipsis", base([]), "index", ["..."])
case("index too many", base([2, 3]), "index", [0, 0, 0], ("IndexError", "too many indices for tensor of dimension 2"))
case("index 0-dim too many", base([]), "index", [None, 0], ("IndexError", "too many indices for tensor of dimension 0"))
case("index 0-dim number", base([]), "index", [0], ("IndexError", "invalid index of a 0-dim tensor"))
case("index 0-dim slice", base([]), "index", [":"], ("IndexError", "slice() cannot be applied to a 0-dim tensor."))
case("index out of bounds", base([2, 3]), "index", [5], ("IndexError", "index 5 is out of bounds for dimension 0 with size 2"))
case("index out of bounds second dim", base([2, 3]), "index", [":", 5], ("IndexError", "index 5 is out of bounds for dimension 1 with size 3"))
case("index out of bounds counts item position", base([2, 3, 4]), "index", [None, 5], ("IndexError", "index 5 is out of bounds for dimension 1 with size 2"))
case("index out of bounds after ellipsis", base([2, 3, 4]), "index", ["...", -5], ("IndexError", "index -5 is out of bounds for dimension 1 with size 4"))
case("index negative step", base([2, 3]), "index", ["::-1"], ("TorchError", "step must be greater than zero"))
case("index zero step", base([2, 3]), "index", ["::0"], ("TorchError", "slice step cannot be zero"))

# index (booleans and tensors: advanced indexing, a copy)
case("index True", base([2, 3]), "index", [True])
case("index False", base([2, 3]), "index", [":", False])
case("index True and tensor broadcast", base([2, 3, 4]), "index", [True, 0, {"tensor": [0, 1], "dtype": "int64"}])
case("index tensor then None", base([2, 3, 4]), "index", [{"tensor": [0, 1], "dtype": "int64"}, None])
case("index separated tensors go first", base([2, 3, 4]), "index", [{"tensor": [0, 1], "dtype": "int64"}, ":", {"tensor": [1, 2], "dtype": "int64"}])
case("index adjacent tensors stay", base([2, 3, 4]), "index", [":", {"tensor": [[0], [2]], "dtype": "int64"}, {"tensor": [1, 3], "dtype": "int64"}])
case("index tensor after ellipsis", base([2, 3, 4]), "index", ["...", {"tensor": [0, 1, 3], "dtype": "int64"}])
case("index mask", base([2, 3, 4]), "index", [{"tensor": [[True, False, True], [False, False, True]], "dtype": "bool"}])
case("index mask on inner dims", base([2, 3, 4]), "index", [":", {"tensor": [[True] * 4, [False] * 4, [True, False, True, False]], "dtype": "bool"}])
case("index mask then number selects the next dim", base([2, 3, 4]), "index", [{"tensor": [[True] * 3] * 2, "dtype": "bool"}, 0], ("IndexError", "The shape of the mask [2, 3] at index 1 does not match the shape of the indexed tensor [2, 4] at index 1"))
case("index mask counts its dims", base([2, 3, 4]), "index", [{"tensor": [[True] * 3] * 2, "dtype": "bool"}, 0, 0], ("IndexError", "too many indices for tensor of dimension 3"))
case("index 0-dim int tensor is a view", base([3, 4]), "index", [{"tensor": 1, "dtype": "int64"}])
case("index 0-dim bool tensor", base([3, 4]), "index", [{"tensor": True, "dtype": "bool"}])
case("index tensors that do not broadcast", base([2, 3, 4]), "index", [{"tensor": [0, 1], "dtype": "int64"}, {"tensor": [0, 1, 2], "dtype": "int64"}], ("IndexError", "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"))

# contiguous, detach
case("contiguous of contiguous keeps offset", base([2, 3], ("index", "1:")), "contiguous", [])
case("contiguous of transposed copies", base([2, 3], T), "contiguous", [])
case("contiguous of leading size-1 expand is itself", base([4, 3], ("expand", [1, 4, 3])), "contiguous", [])
case("contiguous of expanded copies", base([4, 3], ("expand", [2, 4, 3])), "contiguous", [])
case("detach keeps geometry", base([3, 4], ("index", ":", "1::2")), "detach", [])


def make():
    out = []
    for c in CASES:
        t = build(c["base"])
        try:
            r = call(t, c["op"], c["args"])
        except Exception as ex:  # noqa: BLE001 - every PyTorch error is a golden
            msg = str(ex)
            if "error" not in c:
                raise RuntimeError(f"case {c['name']!r} raised unexpectedly: {msg}") from ex
            if c["error"]["match"] not in msg:
                raise RuntimeError(f"case {c['name']!r}: {c['error']['match']!r} not in {msg!r}") from ex
            c["error"]["torch"] = msg
            out.append(c)
            continue
        if "error" in c:
            raise RuntimeError(f"case {c['name']!r} expected an error, got {tuple(r.shape)}")
        if isinstance(r, (tuple, list)):
            c["expected"] = [describe(x, t) for x in r]
        else:
            c["expected"] = describe(r, t)
        out.append(c)
    return {"cases": out}

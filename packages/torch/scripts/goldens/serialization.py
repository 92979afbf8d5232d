"""Goldens for torch.save / torch.load.

1. safetensors reference files. The `safetensors` package cannot be installed here (no
   PyPI), so this script writes the reference bytes itself, following the format as the
   reference Rust library (huggingface/safetensors, safetensors/src/tensor.rs) writes it:
   u64 little-endian header length; compact JSON header (serde_json: no spaces) with
   `__metadata__` first, then the tensors in data order, each
   {"dtype","shape","data_offsets"}; data ordered by descending dtype enum rank
   (I64 F64 F32 I32 BF16 F16 I16 I8 U8 BOOL) then by name; the header padded with spaces to
   a multiple of 8; raw little-endian C-order data. Tensor bytes come from real PyTorch.
2. PyTorch checkpoints written by real `torch.save` (zip format): several dtypes, a
   non-contiguous tensor, tensors sharing a storage, a Parameter, a nested checkpoint, and
   a small model's state_dict with its output on a fixed input."""
import json
import os
import struct

import torch
import torch.nn as nn
from _common import OUT_DIR, values, write

FIX = os.path.join(OUT_DIR, '..', 'fixtures')
os.makedirs(FIX, exist_ok=True)

ST_NAME = {torch.bool: 'BOOL', torch.uint8: 'U8', torch.int8: 'I8', torch.int16: 'I16', torch.float16: 'F16',
           torch.bfloat16: 'BF16', torch.int32: 'I32', torch.float32: 'F32', torch.float64: 'F64', torch.int64: 'I64'}
RANK = {'BOOL': 0, 'U8': 1, 'I8': 2, 'I16': 5, 'F16': 7, 'BF16': 8, 'I32': 9, 'F32': 11, 'F64': 12, 'I64': 13}


def raw_bytes(t):
    t = t.contiguous()
    if t.dtype in (torch.float16, torch.bfloat16):
        t = t.view(torch.int16)
    if t.dtype == torch.bool:
        t = t.to(torch.uint8)
    return t.numpy().tobytes()


def st_bytes(tensors, metadata=None):
    items = sorted(tensors.items(), key=lambda kv: (-RANK[ST_NAME[kv[1].dtype]], kv[0].encode('utf-8')))
    parts = []
    if metadata is not None:
        parts.append('"__metadata__":' + json.dumps(dict(sorted(metadata.items())), separators=(',', ':'), ensure_ascii=False))
    blobs = []
    off = 0
    for name, t in items:
        b = raw_bytes(t)
        parts.append(json.dumps(name, ensure_ascii=False) + ':' + json.dumps(
            {'dtype': ST_NAME[t.dtype], 'shape': list(t.shape), 'data_offsets': [off, off + len(b)]}, separators=(',', ':')))
        blobs.append(b)
        off += len(b)
    header = ('{' + ','.join(parts) + '}').encode('utf-8')
    header += b' ' * ((8 - len(header) % 8) % 8)
    return struct.pack('<Q', len(header)) + header + b''.join(blobs)


torch.manual_seed(0)
mixed = {
    'w.f32': torch.randn(2, 3),
    'w.f64': torch.randn(3, dtype=torch.float64),
    'h.f16': torch.tensor([0.5, -1.25, 65504.0, 1e-7], dtype=torch.float16),
    'h.bf16': torch.tensor([[1.0, -2.5], [3.1415926, 1e30]], dtype=torch.bfloat16),
    'i.i8': torch.tensor([-128, 0, 127], dtype=torch.int8),
    'i.u8': torch.tensor([0, 200, 255], dtype=torch.uint8),
    'i.i16': torch.tensor([[-32768, 7], [0, 32767]], dtype=torch.int16),
    'i.i32': torch.tensor([-2**31, 5, 2**31 - 1], dtype=torch.int32),
    'i.i64': torch.tensor([-2**53, 42, 2**53], dtype=torch.int64),
    'b.bool': torch.tensor([True, False, True]),
    'scalar': torch.tensor(3.5),
    'empty': torch.zeros(0, 4),
    'a.nested.name': torch.arange(4, dtype=torch.int32).reshape(2, 2),
}
cases = {
    'mixed': (mixed, None),
    'mixed-metadata': (mixed, {'format': 'pt', 'note': 'ünïcode "quoted"'}),
    'empty': ({}, None),
    'empty-metadata': ({}, {'format': 'pt'}),
    'single': ({'attn.0': torch.arange(6, dtype=torch.float32).reshape(1, 2, 3)}, None),
}
st_expect = {}
for name, (tensors, meta) in cases.items():
    with open(os.path.join(FIX, name + '.safetensors'), 'wb') as f:
        f.write(st_bytes(tensors, meta))
    st_expect[name] = {'metadata': meta, 'tensors': {k: values(v.float() if v.dtype in (torch.float16, torch.bfloat16) else v) | {'dtype': str(v.dtype).replace('torch.', '')} for k, v in tensors.items()}}

# ---- PyTorch .pt checkpoints ----
torch.manual_seed(1)
base = torch.randn(4, 6)
sd = {
    'f32': torch.randn(2, 3),
    'f64': torch.randn(2, 2, dtype=torch.float64),
    'f16': torch.tensor([1.5, -0.25, 1000.0], dtype=torch.float16),
    'bf16': torch.tensor([2.0, -3.5], dtype=torch.bfloat16),
    'i64': torch.tensor([[1, -2], [3, 2**40]]),
    'i32': torch.tensor([7, -8], dtype=torch.int32),
    'i16': torch.tensor([300, -300], dtype=torch.int16),
    'i8': torch.tensor([-5, 5], dtype=torch.int8),
    'u8': torch.tensor([1, 255], dtype=torch.uint8),
    'bool': torch.tensor([[True], [False]]),
    'transposed': base.t(),                # non-contiguous
    'base': base,                          # shares storage with 'transposed' and 'strided'
    'strided': base[1:, ::2],              # offset + steps
    'scalar': torch.tensor(2.5),
    'empty': torch.zeros(0, 3),
}
torch.save(sd, os.path.join(FIX, 'state_dict.pt'))
ckpt = {'model': {'weight': nn.Parameter(torch.ones(2, 2))}, 'epoch': 3, 'lr': 0.1, 'name': 'run-1',
        'shape': (2, 3), 'none': None, 'flag': True, 'big': 2**60, 'list': [1, 2.5, 'x'], 'bytes': b'\x00\xff'}
torch.save(ckpt, os.path.join(FIX, 'checkpoint.pt'))

torch.manual_seed(2)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
x = torch.randn(5, 4)
torch.save(model.state_dict(), os.path.join(FIX, 'mlp.pt'))
# The same archive re-zipped with deflate (PyTorch never compresses, other zip tools may).
import zipfile
with zipfile.ZipFile(os.path.join(FIX, 'mlp.pt')) as src, \
        zipfile.ZipFile(os.path.join(FIX, 'mlp-deflate.pt'), 'w', compression=zipfile.ZIP_DEFLATED) as dst:
    for info in src.infolist():
        dst.writestr(zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0)), src.read(info.filename),
                     compress_type=zipfile.ZIP_DEFLATED)

def pt_values(t):
    v = values(t.float() if t.dtype in (torch.float16, torch.bfloat16) else t)
    v.update({'dtype': str(t.dtype).replace('torch.', ''), 'stride': list(t.stride()), 'storageOffset': t.storage_offset()})
    return v

write('serialization', {
    'safetensors': st_expect,
    'stateDict': {k: pt_values(v) for k, v in sd.items()},
    'checkpoint': {'epoch': 3, 'lr': 0.1, 'name': 'run-1', 'shape': [2, 3], 'flag': True, 'big': str(2**60), 'list': [1, 2.5, 'x']},
    'mlp': {'keys': list(model.state_dict().keys()), 'x': values(x), 'y': values(model(x))},
})

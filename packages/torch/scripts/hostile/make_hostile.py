"""A corpus of hostile `.pt` (and a few safetensors) files for torch-ts's loaders.

Run with /usr/bin/python3 (PyTorch 1.13) from anywhere:

    /usr/bin/python3 packages/torch/scripts/hostile/make_hostile.py

It writes packages/torch/test/fixtures/hostile/<name> and manifest.json: for each file
the substring torch-ts's error must contain and, where it is safe and quick to ask, what
PyTorch's own `torch.load(weights_only=True)` says (nothing here is ever loaded with
weights_only=False). Files stay small (the largest is the ~80 KB zip bomb): the larger
cases of the issue (a 1 MB LONG4, deep nesting) are built by the tests themselves.

Cases: zip bombs (a deflated storage declaring 144 bytes that inflates to 80 MB, a
declared size deflate cannot produce, overlapping entries), bad ZIP64 records, duplicate
entries, evil globals (posix.system, builtins.eval / exec, subprocess.Popen,
getattr(__import__('os'), 'system'), one inside a real state dict), LONG4 and deep-nesting
pickles, protocol 4 pickles, overflowing sizes, strides and offsets, bad persistent ids, a
legacy pre-1.6 file, and a small valid file the tests truncate at every byte.
"""
import collections
import io
import json
import os
import struct
import sys
import zipfile
import zlib

import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'test', 'fixtures', 'hostile')
os.makedirs(OUT, exist_ok=True)
manifest = {}


def saved(obj, **kw):
    b = io.BytesIO()
    torch.save(obj, b, **kw)
    return b.getvalue()


def entries_of(data):
    z = zipfile.ZipFile(io.BytesIO(data))
    return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def make_zip(entries, zip64_extra=None):
    """A zip written by hand, so that sizes, offsets and names can lie.

    entries: (name, payload, method, declared size or None); payload is the stored or
    already-deflated bytes. CRCs are left 0 (torch-ts does not check them)."""
    out = bytearray()
    central = bytearray()
    for name, payload, method, declared in entries:
        nb = name.encode()
        size = len(payload) if declared is None else declared
        offset = len(out)
        out += struct.pack('<IHHHHHIIIHH', 0x04034B50, 20, 0, method, 0, 0, 0, len(payload), size & 0xFFFFFFFF, len(nb), 0) + nb + payload
        central += struct.pack('<IHHHHHHIIIHHHHHII', 0x02014B50, 20, 20, 0, method, 0, 0, 0, len(payload), size & 0xFFFFFFFF,
                               len(nb), 0, 0, 0, 0, 0, offset) + nb
    cd_offset = len(out)
    out += central
    out += struct.pack('<IHHHHIIH', 0x06054B50, 0, 0, len(entries), len(entries), len(central), cd_offset, 0)
    return bytes(out)


def deflate(data):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()


def pytorch_says(data):
    try:
        torch.load(io.BytesIO(data), weights_only=True)
        return 'loads'
    except Exception as e:  # noqa: BLE001 - we record whatever PyTorch raises
        return '%s: %s' % (type(e).__name__, str(e).split('WeightsUnpickler error: ')[-1][:200])


def case(name, data, error, ask_pytorch=True):
    with open(os.path.join(OUT, name), 'wb') as f:
        f.write(data)
    manifest[name] = {'error': error, 'bytes': len(data), 'pytorch_1_13_weights_only': pytorch_says(data) if ask_pytorch else 'not asked'}


# ---- a small valid file (the tests cut it at every byte) ----
small = saved(collections.OrderedDict([('w', torch.arange(6, dtype=torch.float32).reshape(2, 3)), ('b', torch.tensor([1, 2], dtype=torch.int64))]))
case('small-valid.pt', small, '')
small_entries = entries_of(small)
pkl_name = 'archive/data.pkl'
pkl = dict(small_entries)[pkl_name]


def with_pickle(p, others=None):
    """The small valid archive with data.pkl replaced by `p` (stored)."""
    es = [(n, p if n == pkl_name else d, 0, None) for n, d in small_entries]
    return make_zip(es + (others or []))


# ---- zip bombs ----
# The case, scaled down: the storage entry declares 24 bytes (the 'w' storage)
# but its deflate stream inflates to 80 MB of zeros.
bomb = deflate(bytes(80 << 20))
es = [(n, bomb if n == 'archive/data/0' else d, 8 if n == 'archive/data/0' else 0, len(d) if n == 'archive/data/0' else None) for n, d in small_entries]
case('bomb-declared-small.pt', make_zip(es), 'cannot be inflated within its declared', ask_pytorch=False)
# A storage whose declared size deflate cannot produce from its bytes (1 GB from 1 KB).
big_pkl = pkl.replace(b'K\x06tq', b'J\x00\x00\x00\x10tq')  # numel 6 -> 2^28 floats (1 GiB)
assert big_pkl != pkl
es = [(n, big_pkl if n == pkl_name else (deflate(bytes(1024)) if n == 'archive/data/0' else d),
       8 if n == 'archive/data/0' else 0, (1 << 30) if n == 'archive/data/0' else None) for n, d in small_entries]
case('bomb-declared-huge.pt', make_zip(es), 'more than deflate can produce', ask_pytorch=False)
# Overlapping entries: two names, one compressed body (how small zips declare terabytes).
z = bytearray(make_zip([('archive/data.pkl', pkl, 0, None), ('archive/data/0', bytes(24), 0, None), ('archive/data/1', bytes(16), 0, None)]))
cd = z.rfind(b'PK\x01\x02')  # the last central entry: point it at the first local header
struct.pack_into('<I', z, cd + 42, 0)
case('overlapping-entries.pt', bytes(z), 'overlap', ask_pytorch=False)

# ---- duplicate entries ----
case('duplicate-data-pkl.pt', make_zip([(pkl_name, pkl, 0, None), ('archive/data/0', dict(small_entries)['archive/data/0'], 0, None),
                                        ('archive/data/1', dict(small_entries)['archive/data/1'], 0, None),
                                        (pkl_name, b'\x80\x02}q\x00.', 0, None)]), 'duplicate entry')

# ---- bad ZIP64 records ----
def zip64(count, cd_size, cd_offset, loc_target=None):
    body = make_zip([(pkl_name, pkl, 0, None)])
    eocd = body.rfind(b'PK\x05\x06')
    head = bytearray(body[:eocd])
    z64 = len(head)
    head += struct.pack('<IQHHIIQQQQ', 0x06064B50, 44, 45, 45, 0, 0, count, count, cd_size, cd_offset)
    head += struct.pack('<IIQI', 0x07064B50, 0, z64 if loc_target is None else loc_target, 1)
    head += struct.pack('<IHHHHIIH', 0x06054B50, 0, 0, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
    return bytes(head)


case('zip64-count-huge.pt', zip64(1 << 40, 100, 0), 'central directory declares', ask_pytorch=False)
case('zip64-offset-huge.pt', zip64(1, 100, 1 << 62), 'too large', ask_pytorch=False)
case('zip64-locator-past-end.pt', zip64(1, 100, 0, loc_target=1 << 20), 'too large', ask_pytorch=False)
# A central entry whose 32-bit size says "see ZIP64" but whose extra field is too short.
z = bytearray(make_zip([(pkl_name, pkl, 0, None)]))
cd = z.rfind(b'PK\x01\x02')
struct.pack_into('<I', z, cd + 24, 0xFFFFFFFF)
name_len = struct.unpack_from('<H', z, cd + 28)[0]
z[cd + 46 + name_len:cd + 46 + name_len] = struct.pack('<HHI', 1, 4, 7)  # a 4-byte ZIP64 field
struct.pack_into('<H', z, cd + 30, 8)
eocd = z.rfind(b'PK\x05\x06')
struct.pack_into('<I', z, eocd + 12, struct.unpack_from('<I', z, eocd + 12)[0] + 8)
case('zip64-short-extra.pt', bytes(z), 'short ZIP64 extra field', ask_pytorch=False)


# ---- evil globals ----
class Reduce:
    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


import builtins  # noqa: E402
import posix  # noqa: E402
import subprocess  # noqa: E402


class GetattrImport:
    def __reduce__(self):
        return builtins.getattr, (Reduce(builtins.__import__, ('os',)), 'system')


evil = {
    'evil-posix-system.pt': (Reduce(posix.system, ('echo pwned',)), 'GLOBAL posix.system'),
    'evil-eval.pt': (Reduce(builtins.eval, ('1+1',)), 'GLOBAL eval'),
    'evil-exec.pt': (Reduce(builtins.exec, ('x=1',)), 'GLOBAL exec'),
    'evil-popen.pt': (Reduce(subprocess.Popen, (['true'],)), 'GLOBAL subprocess.Popen'),
    'evil-getattr-import.pt': (GetattrImport(), 'GLOBAL getattr'),
}
for name, (obj, err) in evil.items():
    case(name, saved(obj), err)
# Inside a real state dict, after real tensors.
sd = collections.OrderedDict([('w', torch.ones(2, 2)), ('b', torch.zeros(2)), ('hook', Reduce(posix.system, ('echo pwned',)))])
case('evil-in-state-dict.pt', saved(sd), 'GLOBAL posix.system')
# A Python class (not allowlisted) built with NEWOBJ/BUILD: PyTorch refuses its global.
case('evil-class.pt', saved({'ns': __import__('argparse').Namespace(a=1)}), 'GLOBAL argparse.Namespace')

# ---- opcodes weights_only refuses; LONG4; deep nesting ----
case('protocol-4.pt', saved({'w': torch.ones(2)}, pickle_protocol=4), 'Unsupported operand')
case('long4.pt', with_pickle(b'\x80\x02\x8b' + struct.pack('<I', 20000) + b'\x01' * 20000 + b'.'), 'Unsupported operand 139')
case('deep-lists.pt', with_pickle(b'\x80\x02' + b']' * 3000 + b'a' * 2999 + b'.'), 'nest deeper than')
case('deep-marks.pt', with_pickle(b'\x80\x02' + b'(' * 3000 + b'.'), 'nest deeper than')
case('deep-tuples.pt', with_pickle(b'\x80\x02N' + b'\x85' * 3000 + b'.'), 'nest deeper than')
case('recursive-list.pt', with_pickle(b'\x80\x02]q\x00h\x00a.'), 'recursive')
case('pickle-truncated.pt', with_pickle(pkl[:-10]), 'truncated stream', ask_pytorch=False)


# ---- overflowing sizes, strides, offsets; bad persistent ids ----
def rebuilt(offset, size, stride, numel=6):
    storage = torch.arange(numel, dtype=torch.float32).storage()
    return saved({'t': Reduce(torch._utils._rebuild_tensor_v2, (storage, offset, size, stride, False, collections.OrderedDict()))})


case('size-overflow.pt', rebuilt(0, (1 << 40, 1 << 40), (0, 0)), 'overflows')
case('size-overflow-many.pt', rebuilt(0, (1 << 20,) * 4, (0,) * 4), 'overflows')
case('stride-overflow.pt', rebuilt(0, (3, 3), (1 << 52, 1 << 52)), 'overflows')
case('stride-int64.pt', rebuilt(0, (2, 2), (1 << 62, 1)), 'malformed tensor sizes')
case('size-int64-max.pt', rebuilt(0, ((1 << 63) - 1,), (1,)), 'malformed tensor sizes')
case('size-negative.pt', rebuilt(0, (-1,), (1,)), 'malformed tensor sizes')
case('stride-negative.pt', rebuilt(5, (2,), (-1,)), 'malformed tensor sizes')
case('offset-negative.pt', rebuilt(-1, (2,), (1,)), 'storage offset')
case('offset-past-end.pt', rebuilt(5, (2,), (1,)), 'reaches past its storage')
case('extent-past-end.pt', rebuilt(0, (2, 3), (3, 2)), 'reaches past its storage')
case('too-many-dims.pt', rebuilt(0, (1,) * 100, (1,) * 100), 'malformed tensor sizes')
# A storage whose pickle numel disagrees with the entry (checked before reading it).
case('storage-numel-mismatch.pt', with_pickle(pkl.replace(b'K\x06tq', b'K\x07tq')), 'expected 28')
case('storage-numel-huge.pt', with_pickle(pkl.replace(b'K\x06tq', b'\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x40tq')), 'bad number of elements')
case('storage-size-overflow.pt', with_pickle(pkl.replace(b'K\x06tq', b'\x8a\x07\x00\x00\x00\x00\x00\x00\x10tq')), 'overflows')
case('storage-missing.pt', make_zip([(n, d, 0, None) for n, d in small_entries if n != 'archive/data/0']), 'missing from the archive')
assert pkl.count(b'X\x01\x00\x00\x001') == 1  # the key of the 'b' storage
case('storage-two-dtypes.pt', with_pickle(pkl.replace(b'X\x01\x00\x00\x001', b'X\x01\x00\x00\x000')), 'used as both', ask_pytorch=False)

# ---- other formats ----
case('legacy-1.5.pt', saved({'w': torch.ones(2)}, _use_new_zipfile_serialization=False), 'legacy (pre-1.6')
case('not-in-folder.pt', make_zip([('data.pkl', pkl, 0, None)]), 'not in a folder', ask_pytorch=False)
case('no-data-pkl.pt', make_zip([('archive/version', b'3\n', 0, None)]), 'has no archive/data.pkl', ask_pytorch=False)
z = bytearray(make_zip([(pkl_name, pkl, 0, None)]))
struct.pack_into('<H', z, z.rfind(b'PK\x01\x02') + 8, 1)
case('encrypted.pt', bytes(z), 'encrypted', ask_pytorch=False)

with open(os.path.join(OUT, 'manifest.json'), 'w') as f:
    json.dump({'generator': 'packages/torch/scripts/hostile/make_hostile.py', 'torch': torch.__version__, 'files': manifest}, f, indent=1, sort_keys=True)
    f.write('\n')
total = sum(v['bytes'] for v in manifest.values())
print('wrote %d files, %d bytes, to %s' % (len(manifest), total, os.path.relpath(OUT)), file=sys.stderr)

"""torch-ts dtype names and the torch dtypes they stand for, shared by the golden scripts."""
import torch

DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int8": torch.int8,
    "uint8": torch.uint8,
    "int16": torch.int16,
    "int32": torch.int32,
    "int64": torch.int64,
    "bool": torch.bool,
}
# The complex dtypes: not in DTYPES (the real families' goldens iterate it); ops_complex.py
# files its cases under them, values as view_as_real pairs.
COMPLEX = {"complex64": torch.complex64, "complex128": torch.complex128}
NAME = {v: k for k, v in {**DTYPES, **COMPLEX}.items()}

#!/usr/bin/env python3
"""Regenerates every golden file from real PyTorch.

Run with Debian's interpreter, which has PyTorch (`apt-get install python3-torch`):
    /usr/bin/python3 packages/testing/scripts/make_goldens.py [area ...]
Each module in scripts/goldens/ defines `make() -> dict`; its result is written to
goldens/<module>.json. The JSON files are committed, so tests and CI need no Python.
"""
import importlib.util
import json
import math
import pathlib
import sys

import torch

HERE = pathlib.Path(__file__).resolve().parent
OUT = HERE.parent / "goldens"


def _clean(value):
    # JSON has no NaN/Infinity: they travel as the strings "nan", "inf", "-inf".
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def _compact(data):
    # Thousands of generated cases: one case a line, no indentation.
    def dump(v):
        return json.dumps(v, separators=(",", ":"), allow_nan=False)

    parts = []
    for key, value in data.items():
        if isinstance(value, list):
            body = ",\n".join(dump(v) for v in value)
            parts.append(f"{dump(key)}:[\n{body}\n]")
        else:
            parts.append(f"{dump(key)}:{dump(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main(areas):
    OUT.mkdir(exist_ok=True)
    modules = sorted(p for p in (HERE / "goldens").glob("*.py") if not p.name.startswith("_"))
    for path in modules:
        if areas and path.stem not in areas:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        data = {"torch_version": torch.__version__, **mod.make()}
        target = OUT / f"{path.stem}.json"
        if getattr(mod, "COMPACT", False):
            target.write_text(_compact(_clean(data)))
        else:
            target.write_text(json.dumps(_clean(data), indent=1, allow_nan=False) + "\n")
        print(f"wrote {target.relative_to(HERE.parent.parent.parent)}")


if __name__ == "__main__":
    main(sys.argv[1:])

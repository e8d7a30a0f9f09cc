#!/usr/bin/env python3
"""Writes a safetensors head from a JSON description, with nothing but the standard library.

Usage: write_head.py SPEC.json OUT.safetensors
SPEC: {"metadata": {...}, "dtype": "F32", "tensors": {"name": [[...], ...] or [...] or 0.5}}
Values are JSON numbers; F16 and BF16 are rounded from them the way torch rounds (to nearest
even). The test suite's independent writer: it shares no code with the C++ reader.
"""
import json
import struct
import sys


def shape_of(value):
    if isinstance(value, list):
        return [len(value)] + (shape_of(value[0]) if value else [])
    return []


def flat(value):
    if isinstance(value, list):
        for v in value:
            yield from flat(v)
    else:
        yield float(value)


def bf16_bytes(x):
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # to nearest even
    return struct.pack("<H", rounded & 0xFFFF)


def encode(values, dtype):
    if dtype == "F64":
        return b"".join(struct.pack("<d", v) for v in values)
    if dtype == "F32":
        return b"".join(struct.pack("<f", v) for v in values)
    if dtype == "F16":
        return b"".join(struct.pack("<e", v) for v in values)
    if dtype == "BF16":
        return b"".join(bf16_bytes(v) for v in values)
    raise SystemExit("unknown dtype " + dtype)


def write(spec, path):
    dtype = spec.get("dtype", "F64")
    header, data = {}, b""
    for name in sorted(spec["tensors"]):
        value = spec["tensors"][name]
        blob = encode(list(flat(value)), dtype)
        header[name] = {"dtype": dtype, "shape": shape_of(value), "data_offsets": [len(data), len(data) + len(blob)]}
        data += blob
    if spec.get("metadata"):
        header["__metadata__"] = spec["metadata"]
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as out:
        out.write(struct.pack("<Q", len(text)) + text + data)


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        write(json.load(f), sys.argv[2])

#!/usr/bin/env python3
"""Moves one output of a head to a chosen distance from the band edge, for the precision tests.

Usage: shift_bias.py IN.safetensors OUT.safetensors TENSOR Y_LO Y_HI TARGET DISTANCE
Reads the head, adds to the scalar bias TENSOR (readout_e.bias or out_projection.bias, which
shifts every F_q(z) of every query alike, hence y by the same amount) the amount that moves an
output y in [Y_LO, Y_HI] (exact rationals, from eval --json at high precision) to
TARGET + 1/2 + DISTANCE (DISTANCE a rational such as -1/1000000000000), rounded to the nearest
float64, and writes every tensor as F64 (exact for F16, BF16, F32 and F64 inputs). Prints the
new distance interval to the edge as exact fractions. Standard library only.
"""
import json
import struct
import sys
from fractions import Fraction

SIZES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2}


def decode(dtype, raw):
    n = len(raw) // SIZES[dtype]
    if dtype == "F64":
        return list(struct.unpack("<%dd" % n, raw))
    if dtype == "F32":
        return list(struct.unpack("<%df" % n, raw))
    if dtype == "F16":
        return list(struct.unpack("<%de" % n, raw))
    return [struct.unpack("<f", b"\0\0" + raw[2 * i:2 * i + 2])[0] for i in range(n)]  # BF16


def main(src, dst, tensor, y_lo, y_hi, target, distance):
    blob = open(src, "rb").read()
    size = struct.unpack("<Q", blob[:8])[0]
    header = json.loads(blob[8:8 + size])
    data = blob[8 + size:]
    meta = header.pop("__metadata__", None)
    values = {name: decode(e["dtype"], data[e["data_offsets"][0]:e["data_offsets"][1]]) for name, e in header.items()}
    lo, hi = Fraction(y_lo), Fraction(y_hi)
    edge = Fraction(int(target)) + Fraction(1, 2) + Fraction(distance)
    old = Fraction(values[tensor][0])
    new = float(old + edge - (lo + hi) / 2)  # nearest double
    values[tensor][0] = new
    shift = Fraction(new) - old
    edge_base = Fraction(int(target)) + Fraction(1, 2)
    print("distance to the edge in [%s, %s]" % (lo + shift - edge_base, hi + shift - edge_base))
    out_header, out_data = {}, b""
    for name in sorted(values):
        raw = struct.pack("<%dd" % len(values[name]), *values[name])
        out_header[name] = {"dtype": "F64", "shape": header[name]["shape"],
                            "data_offsets": [len(out_data), len(out_data) + len(raw)]}
        out_data += raw
    if meta:
        out_header["__metadata__"] = meta
    text = json.dumps(out_header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(dst, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + out_data)


if __name__ == "__main__":
    main(*sys.argv[1:8])

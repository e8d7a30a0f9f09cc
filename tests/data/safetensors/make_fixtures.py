#!/usr/bin/env python3
"""Writes the safetensors fixtures of kernelrank's tests, independently of the C++ code.

The layout is "kernelrank head, version 1" (docs/model-format.md section 11). Everything
here uses the Python standard library only: struct packs the floats, json writes the
headers, and the exact value of every stored float is decoded from its bits by hand
(decode_binary below) into a fractions.Fraction, so the C++ reader is checked against an
independent decoder. For F64 the decoder is also checked against Fraction(float), which is
exact.

Outputs, next to this script (run it from anywhere; it is deterministic, so running it
again rewrites the same bytes):
  head_*.safetensors   valid heads
  head_*.expected      each tensor's exact values: "tensor NAME DTYPE DIMS... = VALUES..."
  head_*.model         the same head as a kind=parametric text model (exact fractions)
  bad_*.safetensors    one fault each
  malformed.tsv        FILE<TAB>FRAGMENT[<TAB>FRAGMENT]: the refusal must name these
  README.txt           what each file tests
"""

import json
import math
import os
import struct
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
PARTS = ["query.weight", "query.bias", "key.weight", "key.bias", "value.weight",
         "value.bias", "readout_c.weight", "readout_c.bias", "readout_e.weight",
         "readout_e.bias"]
FORMATS = {"F64": (11, 52), "F32": (8, 23), "F16": (5, 10), "BF16": (8, 7)}  # exp, fraction bits


class Bits:
    """A value given by its bit pattern in the tensor's dtype (for NaN, subnormals, ...)."""

    def __init__(self, bits):
        self.bits = bits


def decode_binary(bits, exponent_bits, fraction_bits):
    """The exact value of an IEEE-style binary float, or None for NaN and infinity."""
    negative = (bits >> (exponent_bits + fraction_bits)) & 1
    exponent = (bits >> fraction_bits) & ((1 << exponent_bits) - 1)
    fraction = bits & ((1 << fraction_bits) - 1)
    bias = (1 << (exponent_bits - 1)) - 1
    if exponent == (1 << exponent_bits) - 1:
        return None
    if exponent == 0:  # subnormal: 0.fraction * 2^(1 - bias)
        value = Fraction(fraction) * Fraction(2) ** (1 - bias - fraction_bits)
    else:
        value = Fraction(fraction | (1 << fraction_bits)) * Fraction(2) ** (
            exponent - bias - fraction_bits)
    return -value if negative else value


def float_bits(dtype, value):
    """The bit pattern stored for a Python float (BF16 truncates the float32 pattern)."""
    if isinstance(value, Bits):
        return value.bits
    if dtype == "F64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if dtype == "F32":
        return struct.unpack("<I", struct.pack("<f", value))[0]
    if dtype == "F16":
        return struct.unpack("<H", struct.pack("<e", value))[0]
    return struct.unpack("<I", struct.pack("<f", value))[0] >> 16


def encode(dtype, values):
    """(bytes, exact values) of a tensor; exact entries are None for NaN and infinity."""
    size = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2}[dtype]
    data, exact = b"", []
    for value in values:
        bits = float_bits(dtype, value)
        data += bits.to_bytes(size, "little")
        exact.append(decode_binary(bits, *FORMATS[dtype]))
        if isinstance(value, Bits) or exact[-1] is None:
            continue
        if dtype == "F64":
            assert exact[-1] == Fraction(value), value
        elif dtype in ("F32", "F16"):  # cross-check the decoder with struct's own
            code = "<f" if dtype == "F32" else "<e"
            assert exact[-1] == Fraction(struct.unpack(code, data[-size:])[0]), value
    return data, exact


def container(header, data, length=None):
    """A safetensors file: header (a dict, or JSON text) padded with spaces to 8 bytes."""
    text = header if isinstance(header, str) else json.dumps(header)
    raw = text.encode("utf-8")
    raw += b" " * (-len(raw) % 8)
    return struct.pack("<Q", len(raw) if length is None else length) + raw + data


def layout(tensors, metadata):
    """Header dict and data buffer for tensors [(name, dtype, shape, values)], in list order."""
    header = {} if metadata is None else {"__metadata__": metadata}
    data = b""
    for name, dtype, shape, values in tensors:
        blob, _ = encode(dtype, values)
        header[name] = {"dtype": dtype, "shape": shape,
                        "data_offsets": [len(data), len(data) + len(blob)]}
        data += blob
    return header, data


# ---- heads ------------------------------------------------------------------------------

def head_tensors(head):
    """[(name, dtype, shape, values)] of a head given as flat value lists per position."""
    m, r, d = head["m"], head["r"], head["d"]
    rows = {"query": r, "key": r, "value": d, "readout_c": d, "readout_e": 1}
    tensors = []
    for p, flat in enumerate(head["by_position"]):
        prefix = "pos%d." % (p + 1) if head["positions"] else ""
        at = 0
        for part in PARTS:
            module, kind = part.split(".")
            count = rows[module] * (m if kind == "weight" else 1)
            shape = [rows[module], m] if kind == "weight" else [rows[module]]
            tensors.append((prefix + part, head["dtype"], shape, flat[at:at + count]))
            at += count
        assert at == len(flat), (head["name"], at, len(flat))
    return tensors


def head_metadata(head):
    metadata = {"format": "kernelrank-head", "version": "1", "activation": head["activation"]}
    if head["positions"]:
        metadata["positions"] = str(head["positions"])
    return metadata


def expected_text(head):
    lines = ["# exact values of every tensor of %s.safetensors (row-major), written by "
             "make_fixtures.py" % head["name"]]
    for name, dtype, shape, values in head_tensors(head):
        exact = encode(dtype, values)[1]
        lines.append(" ".join(["tensor", name, dtype] + [str(n) for n in shape] + ["="] +
                              [str(v) for v in exact]))
    return "\n".join(lines) + "\n"


def model_text(head):
    """The head as a kind=parametric text model (docs/model-format.md section 6)."""
    m, r, d = head["m"], head["r"], head["d"]
    header = "kernelrank-model 1 kind=parametric m=%d r=%d d=%d activation=%s" % (
        m, r, d, head["activation"])
    if head["positions"]:
        header += " positions=%d" % head["positions"]
    lines = ["# %s.safetensors as a text model, written by make_fixtures.py" % head["name"],
             header]
    exact = {name: encode(dtype, values)[1] for name, dtype, _, values in head_tensors(head)}
    for p in range(len(head["by_position"])):
        prefix = "pos%d." % (p + 1) if head["positions"] else ""
        suffix = " %d" % (p + 1) if head["positions"] else ""
        for word, module in [("WQ", "query"), ("WK", "key"), ("V", "value"),
                             ("C", "readout_c"), ("E", "readout_e")]:
            lines.append(word + suffix)
            weight, bias = exact[prefix + module + ".weight"], exact[prefix + module + ".bias"]
            for row in range(len(bias)):
                lines.append(" ".join(str(v) for v in weight[row * m:(row + 1) * m] + [bias[row]]))
    return "\n".join(lines) + "\n"


# The awkward F64 head: m=3 r=2 d=2 relu, with 0.1, -1/3, 1e-300, 2^-1074 (the smallest
# subnormal), 1e308, -0.0 and the largest double.
AWKWARD_F64 = [0.1, -1 / 3, 1e-300, 2.0 ** -1074, 1.0, -0.5,   # query.weight
               0.75, 1e308,                                    # query.bias
               1.0, 0.5, -0.25, -2.0, 3.0, 0.125,              # key.weight
               1.0, 2.0 ** -1074,                              # key.bias
               1.0, -0.0, -1 / 3, 0.2, 0.3, 1.7976931348623157e308,  # value.weight
               0.0, -2.5,                                      # value.bias
               1.0, 0.0, 0.0, 0.0, 1.0, 0.0,                   # readout_c.weight
               0.5, -1e-300,                                   # readout_c.bias
               0.1, 0.2, 0.3,                                  # readout_e.weight
               -0.0]                                           # readout_e.bias
# The same shapes in F32: 0.1 and -1/3 rounded to float32, subnormals 1e-40 and 2^-149,
# the largest float32.
AWKWARD_F32 = [0.1, -1 / 3, 1e-40, 2.0 ** -149, 1.0, -0.5, 0.75, 3.4028234663852886e38,
               1.0, 0.5, -0.25, -2.0, 3.0, 0.125, 1.0, 2.0 ** -126,
               1.0, -0.0, -1 / 3, 0.2, 0.3, 1e30, 0.0, -2.5,
               1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.5, -1e-30, 0.1, 0.2, 0.3, -0.0]
# F16: 2^-24 (0x0001), the largest subnormal 0x03FF, the smallest normal 0x0400, 65504.
AWKWARD_F16 = [0.1, -1 / 3, Bits(0x0001), Bits(0x03FF), 1.0, -0.5, 0.75, 65504.0,
               1.0, 0.5, -0.25, -2.0, 3.0, 0.125, 1.0, Bits(0x0400),
               1.0, -0.0, -1 / 3, 0.2, 0.3, Bits(0x7BFF), 0.0, -2.5,
               1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.5, -0.001, 0.1, 0.2, 0.3, Bits(0x8000)]
# BF16 (the upper half of float32, truncated): 2^-133 (0x0001), 2^-126 (0x0080), the
# largest bfloat16 0x7F7F, and 1 as 0x3F80.
AWKWARD_BF16 = [0.1, -1 / 3, Bits(0x0001), Bits(0x0080), Bits(0x3F80), -0.5, 0.75,
                Bits(0x7F7F), 1.0, 0.5, -0.25, -2.0, 3.0, 0.125, 1.0, 2.0 ** -100,
                1.0, -0.0, -1 / 3, 0.2, 0.3, 1e30, 0.0, -2.5,
                1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.5, -1e-30, 0.1, 0.2, 0.3, Bits(0x8000)]


def positional_values(p):
    """Position p (1-based) of the square head: small dyadics, easy to check by hand."""
    return [p, -1, 0.5, 0.25 * p,     # query.weight, query.bias
            1, p / 2, -1, 1,          # key
            0.5, 1, p, -1,            # value
            1, 0, -0.5, p / 4,        # readout_c
            0, 0.125, 0, -p / 8]      # readout_e


HEADS = [
    {"name": "head_m3_relu_f64", "dtype": "F64", "m": 3, "r": 2, "d": 2,
     "activation": "relu", "positions": 0, "by_position": [AWKWARD_F64],
     "about": "m=3 r=2 d=2 relu, F64 with 0.1, -1/3, 1e-300, 2^-1074, 1e308, -0.0, max double"},
    {"name": "head_m3_relu_f32", "dtype": "F32", "m": 3, "r": 2, "d": 2,
     "activation": "relu", "positions": 0, "by_position": [AWKWARD_F32],
     "about": "the same shapes in F32 (rounded 0.1, subnormals, max float32)"},
    {"name": "head_m3_relu_f16", "dtype": "F16", "m": 3, "r": 2, "d": 2,
     "activation": "relu", "positions": 0, "by_position": [AWKWARD_F16],
     "about": "the same shapes in F16 (2^-24, subnormals, 65504, -0)"},
    {"name": "head_m3_relu_bf16", "dtype": "BF16", "m": 3, "r": 2, "d": 2,
     "activation": "relu", "positions": 0, "by_position": [AWKWARD_BF16],
     "about": "the same shapes in BF16 (2^-133, 2^-126, max bfloat16, 0x3F80 = 1)"},
    {"name": "head_m3_square_pos3", "dtype": "F64", "m": 3, "r": 1, "d": 1,
     "activation": "square", "positions": 3,
     "by_position": [positional_values(p) for p in (1, 2, 3)],
     "about": "position dependent (positions=3, names pos<p>.*), m=3 r=1 d=1 square"},
    {"name": "head_m3_relu_d0", "dtype": "F64", "m": 3, "r": 2, "d": 0,
     "activation": "relu", "positions": 0,
     "by_position": [[0.5, 0, 1, 1, 1, 0, 0.25, -0.5, 1, 0, 0, 0, 2, 1, 1, 0,
                      1, -1, 0.5, 0.5]],
     "about": "d=0: value and readout_c are [0, 3] and [0] with empty byte ranges"},
]


# ---- malformed files: one fault each, on a small valid head (m=2 r=1 d=1 relu) -----------

SMALL = {"name": "small", "dtype": "F64", "m": 2, "r": 1, "d": 1, "activation": "relu",
         "positions": 0, "by_position": [[1, 2, 0.5, 3, -1, 1, 2, 0, 1, 1, -2, 0.25,
                                          1, 0, 0]]}


def small(edit=None, metadata_edit=None, tensors=None):
    """The small head's file after edits to its header dict / metadata."""
    header, data = layout(tensors or head_tensors(SMALL), head_metadata(SMALL))
    if metadata_edit:
        metadata_edit(header["__metadata__"])
    if edit:
        data = edit(header, data) or data
    return container(header, data)


def replace_tensor(name, dtype, shape, values):
    return [(n, dt, sh, v) if n != name else (name, dtype, shape, values)
            for n, dt, sh, v in head_tensors(SMALL)]


def overlap(header, data):
    """key.bias points at query.bias's bytes; its own 8 bytes are removed from the buffer."""
    begin, end = header["key.bias"]["data_offsets"]
    for entry in header.values():
        if "data_offsets" in entry and entry["data_offsets"][0] >= end:
            entry["data_offsets"] = [o - 8 for o in entry["data_offsets"]]
    header["key.bias"]["data_offsets"] = list(header["query.bias"]["data_offsets"])
    return data[:begin] + data[end:]


def gap(header, data):
    """8 unused bytes before value.weight."""
    begin = header["value.weight"]["data_offsets"][0]
    for entry in header.values():
        if "data_offsets" in entry and entry["data_offsets"][0] >= begin:
            entry["data_offsets"] = [o + 8 for o in entry["data_offsets"]]
    return data[:begin] + b"\0" * 8 + data[begin:]


def positional_small(drop=None, prefixed=True):
    """The small head at positions=2 (both positions alike), optionally missing a tensor."""
    tensors = []
    for p in (1, 2):
        for name, dtype, shape, values in head_tensors(SMALL):
            full = ("pos%d." % p if prefixed else "") + name
            if full != drop and (prefixed or p == 1):
                tensors.append((full, dtype, shape, values))
    header, data = layout(tensors, dict(head_metadata(SMALL), positions="2"))
    return container(header, data)


def softmax_head(edit=None):
    tensors = head_tensors(SMALL) + [("temperature", "F64", [], [0.125])]
    header, data = layout(tensors, dict(head_metadata(SMALL), activation="softmax"))
    if edit:
        data = edit(header, data) or data
    return container(header, data)


def set_entry(name, key, value):
    def edit(header, _):
        header[name][key] = value
    return edit


def duplicate_key():
    header, data = layout(head_tensors(SMALL), head_metadata(SMALL))
    text = json.dumps(header)
    entry = json.dumps(header["key.bias"])
    return container(text[:-1] + ', "key.bias": ' + entry + "}", data)


def bad_value(name, index, value):
    values = dict((n, v) for n, _, _, v in head_tensors(SMALL))[name]
    values = values[:index] + [value] + values[index + 1:]
    shape = [len(values)] if name.endswith("bias") else [len(values) // 2, 2]
    return small(tensors=replace_tensor(name, "F64", shape, values))


def drop_tensor(name):
    return small(tensors=[t for t in head_tensors(SMALL) if t[0] != name])


def m_zero():
    tensors = [(n, dt, [sh[0], 0] if len(sh) == 2 else sh, [] if len(sh) == 2 else v)
               for n, dt, sh, v in head_tensors(SMALL)]
    return small(tensors=tensors)


SMALL_BYTES = small()
MALFORMED = [
    ("bad_short", SMALL_BYTES[:5], "the file is shorter than the 8-byte header length",
     ["file too short for safetensors"]),
    ("bad_header_overrun", struct.pack("<Q", len(SMALL_BYTES)) + SMALL_BYTES[8:],
     "the header length runs past the end of the file", ["overruns the file"]),
    ("bad_header_not_json", container('{"query.weight": {"dtype": "F64",', b""),
     "the header is not valid JSON", ["safetensors header is not valid JSON"]),
    ("bad_header_not_object", container("[1, 2, 3]", b""),
     "the header is JSON but not an object", ["safetensors header must be a JSON object"]),
    ("bad_duplicate_key", duplicate_key(), "the header names key.bias twice",
     ['duplicate key "key.bias"']),
    ("bad_dtype_i32", small(set_entry("key.bias", "dtype", "I32")),
     "a tensor of an integer dtype", ['unsupported dtype "I32"', "'key.bias'"]),
    ("bad_entry_key", small(set_entry("query.bias", "extra", 1)),
     "an entry with a key besides dtype, shape, data_offsets",
     ['unexpected key "extra"', "'query.bias'"]),
    ("bad_shape_negative", small(set_entry("key.weight", "shape", [-1, 2])),
     "a negative shape entry", ["shape must be an array of nonnegative integers",
                                "'key.weight'"]),
    ("bad_offsets_float", small(set_entry("key.bias", "data_offsets", [0.5, 8])),
     "data_offsets that are not integers", ["data_offsets must be [begin, end]",
                                            "'key.bias'"]),
    ("bad_byte_count", small(set_entry("value.weight", "shape", [1, 3])),
     "a shape whose size does not match its byte range",
     ["needs 24 bytes, but data_offsets", "'value.weight'"]),
    ("bad_offsets_beyond", small(lambda h, d: d[:-8]),
     "the last tensor reaches past the end of the buffer",
     ["reach beyond the data buffer", "'readout_e.bias'"]),
    ("bad_overlap", small(overlap), "two tensors share bytes",
     ["overlap in the data buffer", "'key.bias'"]),
    ("bad_gap", small(gap), "8 bytes between two tensors belong to none",
     ["gap in the data buffer: bytes [", "'value.weight'"]),
    ("bad_trailing_bytes", small(lambda h, d: d + b"\0" * 8),
     "8 bytes after the last tensor belong to none", ["at its end belong to no tensor"]),
    ("bad_nan", bad_value("key.weight", 1, Bits(0x7FF8000000000000)),
     "a NaN weight", ["'key.weight': value at flat index 1", "NaN"]),
    ("bad_infinity", bad_value("value.bias", 0, -math.inf),
     "an infinite bias", ["'value.bias': value at flat index 0", "infinity"]),
    ("bad_nan_f16", small(tensors=replace_tensor("readout_e.bias", "F16", [1],
                                                 [Bits(0x7E00)])),
     "a NaN in an F16 tensor", ["'readout_e.bias': value at flat index 0", "NaN"]),
    ("bad_metadata_no_format", small(metadata_edit=lambda md: md.pop("format")),
     "metadata without format", ['metadata "format" missing']),
    ("bad_metadata_version", small(metadata_edit=lambda md: md.update(version="2")),
     "metadata version 2", ['unsupported kernelrank-head version "2"']),
    ("bad_metadata_activation", small(metadata_edit=lambda md: md.update(activation="gelu")),
     "an activation kernelrank does not know", ['metadata activation is "gelu"']),
    ("bad_metadata_unknown_key", small(metadata_edit=lambda md: md.update(postions="2")),
     "a misspelt metadata key", ['unknown metadata key "postions"']),
    ("bad_metadata_not_string", small(metadata_edit=lambda md: md.update(positions=2)),
     "a metadata value that is a JSON number", ["must be a string"]),
    ("bad_positions_zero", small(metadata_edit=lambda md: md.update(positions="0")),
     "positions 0", ["metadata positions must be an integer in 1..4096"]),
    ("bad_missing_tensor", drop_tensor("key.bias"), "key.bias is absent",
     ["missing tensor 'key.bias'"]),
    ("bad_extra_tensor", small(tensors=head_tensors(SMALL) + [("query.scale", "F64", [1],
                                                               [1.0])]),
     "an unknown tensor", ["unknown tensor 'query.scale'"]),
    ("bad_temperature_relu", small(tensors=head_tensors(SMALL) + [("temperature", "F64", [],
                                                                   [1.0])]),
     "a temperature in a relu head", ["unknown tensor 'temperature'", "softmax heads only"]),
    ("bad_wrong_shape", small(tensors=replace_tensor("readout_e.weight", "F64", [2], [1, 0])),
     "readout_e.weight stored flat as [2]",
     ["tensor 'readout_e.weight' has shape [2], expected [1, 2]"]),
    ("bad_inconsistent_r", small(tensors=replace_tensor("key.weight", "F64", [2, 2],
                                                        [0.5, 3, 1, 1])),
     "key.weight has 2 rows while query.weight has 1",
     ["tensor 'key.weight' has shape [2, 2], expected [1, 2]", "inconsistent r"]),
    ("bad_inconsistent_m", small(tensors=replace_tensor("value.weight", "F64", [1, 3],
                                                        [-1, 1, 0])),
     "value.weight has 3 columns while query.weight has 2",
     ["tensor 'value.weight' has shape [1, 3], expected [1, 2]", "inconsistent m"]),
    ("bad_m_zero", m_zero(), "weights with no columns (m = 0)", ["m = 0 is outside 1..4096"]),
    ("bad_positional_missing", positional_small(drop="pos2.value.bias"),
     "positions=2 without pos2.value.bias", ["missing tensor 'pos2.value.bias'"]),
    ("bad_positional_unprefixed", positional_small(prefixed=False),
     "positions=2 with names lacking pos<p>.", ["unknown tensor 'key.bias'", "pos<p>."]),
    ("bad_softmax", softmax_head(), "a softmax head (valid container, with temperature)",
     ["softmax head refused", "not rational", "ball arithmetic"]),
    ("bad_softmax_gap", softmax_head(gap),
     "a softmax head whose container is broken: the container error comes first",
     ["gap in the data buffer"]),
]


def write(name, content):
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(os.path.join(HERE, name), mode, **({} if mode == "wb" else {"newline": "\n"})) as f:
        f.write(content)


def main():
    readme = ["Fixtures of the safetensors reader (docs/model-format.md section 11), written",
              "by make_fixtures.py with the Python standard library only; run it again to",
              "regenerate them byte for byte.", "", "Valid heads (each with .expected exact "
              "values and an equivalent .model text file):"]
    for head in HEADS:
        tensors = head_tensors(head)
        header, data = layout(tensors, head_metadata(head))
        write(head["name"] + ".safetensors", container(header, data))
        write(head["name"] + ".expected", expected_text(head))
        write(head["name"] + ".model", model_text(head))
        readme.append("  %s: %s" % (head["name"], head["about"]))
    readme += ["", "Malformed files (one fault each; malformed.tsv lists the message fragments",
               "the refusal must contain):"]
    rows = []
    for name, content, about, fragments in MALFORMED:
        write(name + ".safetensors", content)
        rows.append("\t".join([name + ".safetensors"] + fragments))
        readme.append("  %s: %s" % (name, about))
    write("malformed.tsv", "\n".join(rows) + "\n")
    write("README.txt", "\n".join(readme) + "\n")


if __name__ == "__main__":
    main()

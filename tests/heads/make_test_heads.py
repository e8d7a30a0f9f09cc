#!/usr/bin/env python3
"""Writes the heads tests/cli/run_head_layout_tests.sh evaluates, into DIR.

Weights are multiples of 1/8 small enough for float16 and bfloat16, so every dtype stores the
same numbers and must give the same report. The same weights appear under each layout's
tensor names (docs/model-format.md §12).
Usage: make_test_heads.py DIR
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from write_head import write  # noqa: E402

M, DK, D = 3, 4, 3
rng = random.Random(2026)


def matrix(rows, cols, spread=8):
    return [[rng.randint(-spread, spread) / 8 for _ in range(cols)] for _ in range(rows)]


def vector(rows, spread=8):
    return [rng.randint(-spread, spread) / 8 for _ in range(rows)]


PARTS = {
    "query": (matrix(DK, M), vector(DK)),
    "key": (matrix(DK, M), vector(DK)),
    "value": (matrix(D, M, 16), vector(D, 16)),
}
READOUT = {
    "readout_c.weight": matrix(D, M, 16), "readout_c.bias": vector(D, 16),
    "readout_e.weight": matrix(1, M), "readout_e.bias": vector(1),
}
NAMES = {
    "kernelrank": {"query": "query", "key": "key", "value": "value"},
    "fast-transformers": {"query": "query_projection", "key": "key_projection", "value": "value_projection"},
    "torch": {"query": "q_proj", "key": "k_proj", "value": "v_proj"},
    "performer": {"query": "to_q", "key": "to_k", "value": "to_v"},
}


def tensors(layout, readout=True):
    out = {}
    for part, (weight, bias) in PARTS.items():
        out[NAMES[layout][part] + ".weight"] = weight
        out[NAMES[layout][part] + ".bias"] = bias
    if readout:
        out.update(READOUT)
    return out


def save(directory, name, spec):
    write(spec, os.path.join(directory, name + ".safetensors"))


def main(directory):
    for dtype in ("F64", "F32", "F16", "BF16"):
        save(directory, "ft_elu1_" + dtype.lower(), {"dtype": dtype, "tensors": tensors("fast-transformers")})
    save(directory, "torch_elu1", {"tensors": tensors("torch")})
    save(directory, "torch_meta_elu1", {"metadata": {"layout": "torch", "feature_map": "elu1", "format": "pt"},
                                        "tensors": tensors("torch")})
    save(directory, "kr_elu1", {"metadata": {"format": "kernelrank-head", "version": "1", "activation": "elu1"},
                                "tensors": tensors("kernelrank")})
    save(directory, "ft_relu", {"tensors": tensors("fast-transformers")})
    save(directory, "kr_relu", {"metadata": {"format": "kernelrank-head", "version": "1", "activation": "relu"},
                                "tensors": tensors("kernelrank")})
    # out_projection instead of the query-dependent readout: y = w . o + b.
    ft_out = tensors("fast-transformers", readout=False)
    ft_out["out_projection.weight"] = [READOUT["readout_c.bias"]]
    ft_out["out_projection.bias"] = READOUT["readout_e.bias"]
    save(directory, "ft_out", {"tensors": ft_out})
    kr_out = tensors("kernelrank")
    kr_out["readout_c.weight"] = [[0.0] * M for _ in range(D)]
    kr_out["readout_e.weight"] = [[0.0] * M]
    save(directory, "kr_out_elu1", {"metadata": {"format": "kernelrank-head", "version": "1", "activation": "elu1"},
                                    "tensors": kr_out})
    # Performer with dk = 16, so that its data normalizer dk^(-1/4) is 1/2: the same head in
    # kernelrank's layout has query and key halved and s = 1.
    wide = {"to_q": (matrix(16, M), vector(16)), "to_k": (matrix(16, M), vector(16))}
    omega = matrix(5, 16)
    perf = {"to_v.weight": PARTS["value"][0], "to_v.bias": PARTS["value"][1],
            "fast_attention.projection_matrix": omega}
    halved = {"value.weight": PARTS["value"][0], "value.bias": PARTS["value"][1], "projection": omega}
    for name, (weight, bias) in wide.items():
        perf[name + ".weight"], perf[name + ".bias"] = weight, bias
        part = "query" if name == "to_q" else "key"
        halved[part + ".weight"] = [[x / 2 for x in row] for row in weight]
        halved[part + ".bias"] = [x / 2 for x in bias]
    perf.update(READOUT)
    halved.update(READOUT)
    save(directory, "performer_exp", {"tensors": perf})
    save(directory, "kr_exp_halved", {"metadata": {"format": "kernelrank-head", "version": "1", "activation": "exp"},
                                      "tensors": halved})
    soft = tensors("kernelrank")
    soft["temperature"] = 0.75
    save(directory, "kr_softmax", {"metadata": {"format": "kernelrank-head", "version": "1", "activation": "softmax"},
                                   "tensors": soft})
    # Every output is exactly 1/2 (a constant readout), so |y - t| = 1/2 on every instance:
    # balls around exp(-1) sums can never decide it.
    edge = {"query_projection.weight": [[0.0] * M], "query_projection.bias": [-1.0],
            "key_projection.weight": [[0.0] * M], "key_projection.bias": [-1.0],
            "value_projection.weight": [[0.0] * M], "value_projection.bias": [1.0],
            "out_projection.weight": [[0.5]], "out_projection.bias": [0.0]}
    save(directory, "ft_edge", {"tensors": edge})
    # kernelrank's layout refuses any metadata key outside §11 for every activation, as the
    # relu/square/identity reader does: a misspelt key, and a feature_map contradicting the
    # activation. "layout": "kernelrank" only names the layout and is accepted.
    own = {"relu": tensors("kernelrank"), "elu1": tensors("kernelrank"),
           "taylor2": tensors("kernelrank"), "exp": halved, "softmax": soft}
    other_map = {"relu": "elu1", "elu1": "relu", "taylor2": "exp", "exp": "taylor2", "softmax": "elu1"}
    for activation, weights in own.items():
        meta = {"format": "kernelrank-head", "version": "1", "activation": activation}
        save(directory, "kr_" + activation + "_postions",
             {"metadata": dict(meta, postions="3"), "tensors": weights})
        save(directory, "kr_" + activation + "_feature_map",
             {"metadata": dict(meta, feature_map=other_map[activation]), "tensors": weights})
    for activation in ("elu1", "relu"):  # the ball reader and the parametric reader
        save(directory, "kr_" + activation + "_layout_named",
             {"metadata": {"format": "kernelrank-head", "version": "1", "activation": activation,
                           "layout": "kernelrank"}, "tensors": tensors("kernelrank")})
    # Malformed ones, each with one fault.
    bad = tensors("fast-transformers")
    bad["query_projection.extra"] = [1.0]
    save(directory, "bad_unknown", {"tensors": bad})
    bad = tensors("fast-transformers")
    del bad["key_projection.weight"]
    save(directory, "bad_missing", {"tensors": bad})
    bad = tensors("fast-transformers")
    bad["key_projection.weight"] = matrix(DK - 1, M)
    save(directory, "bad_shape", {"tensors": bad})
    bad = tensors("fast-transformers")
    bad["value_projection.bias"] = [float("nan")] + vector(D - 1)
    save(directory, "bad_nan", {"tensors": bad})
    bad = tensors("fast-transformers")
    bad["out_projection.weight"] = [READOUT["readout_c.bias"]]
    bad["out_projection.bias"] = [0.0]
    save(directory, "bad_two_readouts", {"tensors": bad})
    save(directory, "bad_no_readout", {"tensors": tensors("fast-transformers", readout=False)})


if __name__ == "__main__":
    main(sys.argv[1])

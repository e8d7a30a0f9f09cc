#!/usr/bin/env python3
"""A relu recipe of `kernelrank train`, written as a plain PyTorch user would.

Same model (one normalized head, relu features, d = m), same initialisation shape (bumps
around the family's distinct query tokens, 2 constant features, readout F = <q, z>), same loss
(band 0.4), same schedule (Adam, lr 0.01 cosine to 1e-4, gradient clip 10), float64, one
thread. `--recipe witness` (the default): full batch, bump widths 4 and 2.5, noise 0.1, the
constants trained. `--recipe ood`: minibatches of 1,000 in a fresh random order each epoch,
widths 4m/8 and 2.5m/8, noise 0.01, the constants frozen with query bias 0.1. Its noise and
order come from torch's generator, so its weights differ from kernelrank's: this script
measures speed, and reports its float accuracy only for orientation.

    torch_reference.py FAMILY --r 32 --steps 6000 [--recipe witness|ood] [--seed 1]
                       [--band 0.4] [--json]
"""
import argparse
import json
import math
import sys
import time

import torch


def read_family(path):
    with open(path) as f:
        header = f.readline().split()
        if header[:2] != ["kernelrank-family", "1"]:
            sys.exit(f"{path}:1: not a kernelrank-family file")
        fields = dict(h.split("=") for h in header[2:])
        m, n = int(fields["m"]), int(fields["n"])
        tokens, queries = [], []
        for line in f:
            parts = line.split()
            if not parts or parts[0].startswith("#"):
                continue
            queries.append(int(parts[0]) - 1)
            tokens.append([[int(c) for c in word] for word in parts[1:]])
    return m, n, torch.tensor(tokens, dtype=torch.float64), torch.tensor(queries)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("family")
    parser.add_argument("--r", type=int, default=32)
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--band", type=float, default=0.4)
    parser.add_argument("--recipe", choices=["witness", "ood"], default="witness")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    m, n, tokens, query = read_family(args.family)
    rows = torch.arange(tokens.shape[0])
    q = tokens[rows, query]  # [B, m]
    ips = (tokens * q.unsqueeze(1)).sum(-1)  # [B, n]
    targets = ips.min(1).values

    centres = []
    for x in q:
        if not any(torch.equal(x, c) for c in centres):
            centres.append(x)
    ood = args.recipe == "ood"
    r, const = args.r, min(2, args.r - 1)
    a, noise = 1 / math.sqrt(m), (0.01 if ood else 0.1)
    query_width, key_width = (4 * m / 8, 2.5 * m / 8) if ood else (4, 2.5)
    wq, bq, wk, bk = (torch.zeros(r, m, dtype=torch.float64), torch.zeros(r, dtype=torch.float64),
                      torch.zeros(r, m, dtype=torch.float64), torch.zeros(r, dtype=torch.float64))
    for i in range(r - const):
        x = centres[i % len(centres)]
        wq[i], bq[i] = 2 * x - 1, query_width - x.sum()
        wk[i], bk[i] = 1 - 2 * x, key_width - x.sum()
    rand = lambda *shape: (torch.rand(*shape, dtype=torch.float64) * 2 - 1) * a * noise
    wq[: r - const] += rand(r - const, m)
    wk[: r - const] += rand(r - const, m)
    bq[: r - const] += rand(r - const)
    bk[: r - const] += rand(r - const)
    bq[r - const:] = 0.1 if ood else 1
    bk[r - const:] = 1
    eye = torch.eye(m, dtype=torch.float64)
    params = [wq, bq, wk, bk, eye + rand(m, m), rand(m), eye + rand(m, m), rand(m),
              torch.zeros(m, dtype=torch.float64), torch.zeros((), dtype=torch.float64)]
    for p in params:
        p.requires_grad_(True)
    wq, bq, wk, bk, wv, bv, wc, bc, we, be = params

    def forward(q, tokens):
        phi_q = torch.relu(q @ wq.T + bq)  # [B, r]
        phi_k = torch.relu(tokens @ wk.T + bk)  # [B, n, r]
        alpha = (phi_k * phi_q.unsqueeze(1)).sum(-1)  # [B, n]
        values = tokens @ wv.T + bv  # [B, n, d]
        c = q @ wc.T + bc  # [B, d]
        readout = (values * c.unsqueeze(1)).sum(-1)
        return (alpha * readout).sum(1) / (alpha.sum(1) + 1e-9) + q @ we + be

    count = tokens.shape[0]
    batch = 1000 if ood and count > 1000 else count
    order = torch.arange(count)

    optimiser = torch.optim.Adam(params, lr=0.01)
    start = time.perf_counter()
    best = (tokens.shape[0] + 1, math.inf)
    for step in range(args.steps):
        progress = step / max(1, args.steps - 1)
        for group in optimiser.param_groups:
            group["lr"] = 0.01 * (0.01 + 0.99 * 0.5 * (1 + math.cos(math.pi * progress)))
        optimiser.zero_grad()
        k = step % ((count + batch - 1) // batch)
        if batch < count and k == 0:
            order = torch.randperm(count)
        rows = order[k * batch:(k + 1) * batch]
        y = forward(q[rows], tokens[rows])
        error = (y - targets[rows]).abs()
        loss = torch.relu(error - args.band).mean()
        failing = int((~(error < 0.5)).sum())
        best = min(best, (failing, loss.item()))
        loss.backward()
        if ood:  # frozen constant features
            for p in (wq, bq, wk, bk):
                p.grad[r - const:] = 0
        torch.nn.utils.clip_grad_norm_(params, 10.0)
        optimiser.step()
    seconds = time.perf_counter() - start
    result = {"instances": int(tokens.shape[0]), "batch": batch, "steps": args.steps,
              "seconds": seconds, "instance_epochs_per_second": batch * args.steps / seconds,
              "best_float_failing": best[0]}
    if args.json:
        print(json.dumps(result))
    else:
        print(f"plain PyTorch: {result['instance_epochs_per_second']:.0f} instance-epochs/s "
              f"({args.steps} steps in {seconds:.1f} s); best float failing {best[0]}")


if __name__ == "__main__":
    main()

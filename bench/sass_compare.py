#!/usr/bin/env python3
"""Compares tcc's and Triton's machine code for the same kernels and tile configurations.

Runs on the GPU machine (torch, triton and cuobjdump there): compiles the Triton twin of a
tcc artifact, disassembles both cubins with `cuobjdump --dump-sass`, reads their resource
usage, and prints one line per kernel: registers, spill/stack bytes, and the counts of the
instructions that decide a memory-bound kernel's speed (128-bit global loads/stores, all
global accesses, shared-memory accesses, shuffles, barriers, MUFU special functions, and
the total). This is the evidence bench/RESULTS.md cites when tcc and Triton differ.

    python3 bench/sass_compare.py ARTIFACTS_DIR [--out FILE]
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

# (label, tcc artifact folder relative to ARTIFACTS/tcc, cubin stem, Triton kernel, launch)
CASES = [
    ("transpose 64x64 w8", "transpose/BM64_BN64_W8", "transpose", "transpose", dict(BM=64, BN=64, num_warps=8)),
    ("softmax 4096 w16", "softmax/BLOCK4096_W16", "softmax", "softmax", dict(BLOCK=4096, num_warps=16)),
    ("softmax 16384 w16", "softmax/BLOCK16384_W16", "softmax", "softmax", dict(BLOCK=16384, num_warps=16)),
    ("softmax 16384 w8", "softmax/BLOCK16384_W8", "softmax", "softmax", dict(BLOCK=16384, num_warps=8)),
    ("layernorm 16384 w8", "layernorm/BLOCK16384_W8", "layernorm", "layernorm", dict(BLOCK=16384, num_warps=8)),
    ("layernorm 16384 w4", None, "layernorm", "layernorm", dict(BLOCK=16384, num_warps=4)),
    ("vector_add 1024 w8", "vector_add/BLOCK1024_W8", "vector_add", "vector_add", dict(BLOCK=1024, num_warps=8)),
]

GROUPS = [
    ("LDG.128", lambda op: op.startswith("LDG") and ".128" in op),
    ("STG.128", lambda op: op.startswith("STG") and ".128" in op),
    ("LDG", lambda op: op.startswith("LDG")),
    ("STG", lambda op: op.startswith("STG")),
    ("LDS/STS", lambda op: op.startswith("LDS") or op.startswith("STS")),
    ("SHFL", lambda op: op.startswith("SHFL")),
    ("BAR", lambda op: op.startswith("BAR")),
    ("MUFU", lambda op: op.startswith("MUFU")),
]


def sass_of(cubin):
    text = subprocess.run(["cuobjdump", "--dump-sass", cubin], capture_output=True, text=True,
                          check=True).stdout
    ops = []
    for line in text.splitlines():
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if m:
            ops.append(m.group(2))
    return ops


def resources(cubin):
    text = subprocess.run(["cuobjdump", "--dump-resource-usage", cubin], capture_output=True,
                          text=True, check=True).stdout
    reg = re.search(r"REG:(\d+)", text)
    stack = re.search(r"STACK:(\d+)", text)
    return (int(reg.group(1)) if reg else -1, int(stack.group(1)) if stack else -1)


def summarize(cubin):
    ops = sass_of(cubin)
    counts = collections.OrderedDict()
    for name, pred in GROUPS:
        counts[name] = sum(1 for op in ops if pred(op))
    counts["total"] = len([op for op in ops if op != "NOP"])
    return resources(cubin), counts


def spec_cubin(folder, stem):
    """The aligned (d16...) variant: what the benchmarks select for aligned arguments."""
    for f in sorted(os.listdir(folder)):
        if f.startswith(stem + ".d16") and f.endswith(".cubin") and "e1" not in f:
            return os.path.join(folder, f)
    return os.path.join(folder, stem + ".cubin")


def triton_cubin(kind, cfg, tmp):
    import torch
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import triton_bench as tb
    dev = "cuda"
    block = cfg.get("BLOCK", 0)
    if kind == "transpose":
        x = torch.empty((256, 256), device=dev); o = torch.empty_like(x)
        k = tb.transpose_kernel[(4, 4)](x, o, 256, 256, 256, 256, **cfg)
    elif kind == "softmax":
        x = torch.empty((4, block), device=dev); o = torch.empty_like(x)
        k = tb.softmax_kernel[(4,)](o, x, block, block, 4, block, **cfg)
    elif kind == "layernorm":
        x = torch.empty((4, block), device=dev); o = torch.empty_like(x)
        w = torch.empty((block,), device=dev); b = torch.empty_like(w)
        k = tb.layernorm_kernel[(4,)](x, w, b, o, block, 4, block, 1e-5, **cfg)
    elif kind == "vector_add":
        x = torch.empty((1 << 20,), device=dev)
        k = tb.vector_add_kernel[(1024,)](x, x, x, 1 << 20, **cfg)
    else:
        raise ValueError(kind)
    torch.cuda.synchronize()
    path = os.path.join(tmp, f"triton_{kind}_{len(os.listdir(tmp))}.cubin")
    with open(path, "wb") as f:
        f.write(k.asm["cubin"])
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("artifacts")
    ap.add_argument("--out")
    args = ap.parse_args()
    lines = []
    header = f"{'kernel':<20} {'who':<7} {'regs':>4} {'stack':>5} " + " ".join(
        f"{n:>7}" for n, _ in GROUPS) + f" {'total':>6}"
    lines.append(header)
    with tempfile.TemporaryDirectory() as tmp:
        for label, folder, stem, kind, cfg in CASES:
            rows = []
            try:
                if folder:
                    d = os.path.join(args.artifacts, "tcc", folder)
                    rows.append(("tcc", summarize(spec_cubin(d, stem))))
            except Exception as e:  # keep going: one missing artifact must not hide the rest
                lines.append(f"{label:<20} tcc     error: {e}")
            try:
                rows.append(("triton", summarize(triton_cubin(kind, cfg, tmp))))
            except Exception as e:
                lines.append(f"{label:<20} triton  error: {e}")
            for who, ((reg, stack), counts) in rows:
                lines.append(f"{label:<20} {who:<7} {reg:>4} {stack:>5} " + " ".join(
                    f"{counts[n]:>7}" for n, _ in GROUPS) + f" {counts['total']:>6}")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

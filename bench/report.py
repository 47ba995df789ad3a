#!/usr/bin/env python3
"""Summarises one GPU run: tcc's kernels against Triton and PyTorch on the same shapes.

    python3 bench/report.py --tcc tcc-bench.json --launch tcc-launch.json \
        --triton triton.json [--manifest MANIFEST.txt]

Reads what tcc-bench, tcc-launch-bench and triton_bench.py wrote (any may be missing) and
prints a short table: GB/s, fraction of the device copy, tcc/Triton ratio; launch overhead;
Triton's cold compile. Standard library only.
"""
import argparse
import json
import os
import sys


def load(path):
    if not path or not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"(could not read {path}: {e})")
        return None


def variant_label(row):
    if not row:
        return "-"
    return "general" if row.get("variant", "general") == "general" else "specialised"


def best(rows, key="gbps"):
    rows = [r for r in rows if r.get(key)]
    return max(rows, key=lambda r: r[key]) if rows else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tcc")
    ap.add_argument("--launch")
    ap.add_argument("--triton")
    ap.add_argument("--manifest")
    args = ap.parse_args()
    tcc, launch, tri = load(args.tcc), load(args.launch), load(args.triton)

    lines = []
    out = lines.append
    device = (tcc or {}).get("device") or (tri or {}).get("device") or "?"
    n = (tcc or {}).get("n") or (tri or {}).get("n") or 0
    out(f"== tcc vs Triton vs PyTorch on {device}, n = {n} fp32 ==")
    if args.manifest and os.path.exists(args.manifest):
        with open(args.manifest) as f:
            out("artifacts: " + "; ".join(l.strip() for l in f if l.strip()))
    copy = (tcc or {}).get("copy_gbps")
    torch_copy = ((tri or {}).get("torch", {}).get("vector_copy") or {}).get("gbps")
    out(f"device copy: cuMemcpyDtoD {copy or 0:.0f} GB/s; torch copy_ {torch_copy or 0:.0f} GB/s"
        " (bytes read + written)")
    out("")
    hdr = (f"{'kernel':12s} {'tcc source':10s} {'tcc best config':16s} {'variant':14s} "
           f"{'tcc GB/s':>8s} {'of copy':>7s} {'Triton best':>18s} {'Triton':>7s} "
           f"{'torch':>6s} {'tcc/Triton':>10s}")
    out(hdr)
    verdicts = []
    results = (tcc or {}).get("results", [])
    for kernel in ("vector_copy", "vector_add"):
        trows = (tri or {}).get("triton", {}).get(kernel, [])
        tb = best([r for r in trows if r.get("correct", True)])
        tgb = tb["gbps"] if tb else None
        tcfg = f"BLOCK={tb['BLOCK']},w={tb['num_warps']}" if tb else "-"
        tor = ((tri or {}).get("torch", {}).get(kernel) or {}).get("gbps")
        sources = sorted({r["source"] for r in results if r.get("kernel") == kernel})
        for source in sources or ["-"]:
            mine = [r for r in results
                    if r.get("kernel") == kernel and r.get("source") == source and r.get("ok")
                    and r.get("correct")]
            b = best(mine)
            gb = b["gbps"] if b else None
            frac = b["fraction_of_copy"] if b else None
            ratio = gb / tgb if gb and tgb else None
            out(f"{kernel:12s} {source:10s} {(b or {}).get('config', '-'):16s} "
                f"{variant_label(b):14s} "
                f"{gb or 0:8.0f} {100 * (frac or 0):6.1f}% {tcfg:>18s} {tgb or 0:7.0f} "
                f"{tor or 0:6.0f} {ratio or 0:10.3f}")
            if source == "tcc" and ratio:
                verdicts.append(f"{kernel} (tcc): {ratio:.3f}x Triton "
                                f"[target >= 1.0: {'met' if ratio >= 1.0 else 'MISSED'}]")
            if source == "tcc" and kernel == "vector_add" and frac:
                verdicts.append(f"vector_add (tcc): {100 * frac:.1f}% of the device copy "
                                f"[issue 4 needs >= 90%: {'met' if frac >= 0.9 else 'MISSED'}]")
    failed = [r for r in results if not (r.get("ok") and r.get("correct"))]
    for r in failed:
        out(f"  FAILED {r.get('source')}/{r.get('kernel')}/{r.get('config')}: "
            f"{r.get('note', 'wrong output')}")
    if tri and not tri.get("all_correct", True):
        out("  some Triton configurations gave wrong output (see triton.json)")

    out("")
    lu = (tri or {}).get("launch_us", {})
    if launch or lu:
        raw = (launch or {}).get("raw_us")
        parts = []
        for key, label in (("raw_us", "raw cuLaunchKernel"), ("runtime_us", "tcc runtime"),
                           ("by_name_us", "runtime by name"), ("header_us", "generated header"),
                           ("graph_us_per_kernel", "CUDA graph/kernel")):
            if (launch or {}).get(key) is not None:
                parts.append(f"{label} {launch[key]:.2f}")
        for key, label in (("triton", "Triton (Python)"), ("torch", "PyTorch")):
            if lu.get(key) is not None:
                parts.append(f"{label} {lu[key]:.2f}")
        out("launch overhead, us per back-to-back launch: " + ", ".join(parts))
        if raw and (launch or {}).get("runtime_us"):
            over = launch["runtime_us"] / raw - 1
            verdicts.append(f"runtime launch: {100 * over:+.1f}% vs raw cuLaunchKernel "
                            f"[target within 10%: {'met' if over <= 0.10 else 'MISSED'}]")
        if raw and (launch or {}).get("header_us"):
            verdicts.append(f"header launch: {100 * (launch['header_us'] / raw - 1):+.1f}% vs raw")
    cc = (tri or {}).get("cold_compile", {})
    if cc:
        out("Triton compile on first use (empty cache): " +
            ", ".join(f"{k} {v['first_call_s']:.2f} s" for k, v in cc.items()))
    if verdicts:
        out("")
        out("targets: " + "; ".join(verdicts))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Summarises one GPU run: tcc's kernels against Triton and PyTorch on the same shapes.

    python3 bench/report.py --tcc tcc-bench.json --launch tcc-launch.json \
        --triton triton.json [--compile-times compile_times.json] [--manifest MANIFEST.txt] \
        [--tests "812 passed, 0 failed, 3 skipped"]

Reads what tcc-bench, tcc-launch-bench, triton_bench.py and scripts/build-artifacts.sh wrote
(any may be missing) and prints a short table: per workload the best correct configuration
of tcc, Triton and PyTorch, as GB/s with the fraction of the device copy, or TFLOP/s, and
the tcc/Triton ratio; compile times (tcc here, Triton cold on the GPU machine); launch
overhead; and the targets of issues 5, 7 and 10, met or missed.
tcc-bench names the portable (sm_90, mma.sync) variants of a configuration that also has
sm_90a (wgmma) variants "<config>@sm_90"; both take part in the best tcc figure, and the
best portable one is reported against cuBLAS on its own (issue 10). The "same harness"
column (tcc-bench --triton, when it ran) is tcc's best configuration against Triton's own
best cubin, both timed by tcc-bench's harness in one process, alternately: the median of the
per-round tcc/Triton ratios with their min-max; "tcc/Triton" beside it compares figures from
the two harnesses (tcc-bench's and triton.testing.do_bench).
Standard library only.
"""
import argparse
import json
import os
import sys


# The workloads in the order of the table (bench/workloads.cpp and triton_bench.py's names).
ORDER = ["transpose_16384x16384", "softmax_32768x1024", "softmax_16384x4096",
         "softmax_4096x16384", "softmax_persistent_4096x1024", "softmax_persistent_4096x4096",
         "softmax_persistent_4096x16384", "softmax_persistent_4096x12672",
         "bias_add_16384x16384", "layernorm_16384x4096",
         "layernorm_32768x1024", "layernorm_4096x16384", "matmul_fp16_1024^3",
         "matmul_fp16_4096^3", "matmul_bias_fp16_4096^3", "matmul_bf16_4096^3",
         "matmul_fp16_8192^3", "matmul_bf16_8192^3"]


def load(path):
    if not path or not os.path.exists(path):
        return None
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"(could not read {path}: {e})")
        return None


def best(rows, key):
    rows = [r for r in rows if r.get(key) and r.get("ok", True) and r.get("correct", True)]
    return max(rows, key=lambda r: r[key]) if rows else None


def short_config(cfg):
    return (cfg or "-").replace("num_warps", "w").replace("num_stages", "s")


def unit(metric):
    return "TF/s" if metric == "TFLOP/s" else "GB/s"


class Table:
    """Rows of cells, printed with columns as wide as their widest cell."""

    def __init__(self, header):
        self.rows = [header]

    def add(self, *cells):
        self.rows.append([str(c) for c in cells])

    def lines(self):
        widths = [max(len(r[i]) for r in self.rows) for i in range(len(self.rows[0]))]
        out = []
        for r in self.rows:
            out.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                 for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tcc")
    ap.add_argument("--launch")
    ap.add_argument("--triton")
    ap.add_argument("--compile-times")
    ap.add_argument("--manifest")
    ap.add_argument("--tests", help="a one-line test summary to print")
    args = ap.parse_args()
    tcc, launch, tri = load(args.tcc), load(args.launch), load(args.triton)
    ct = load(args.compile_times)

    lines = []
    out = lines.append
    device = (tcc or {}).get("device") or (tri or {}).get("device") or "?"
    n = (tcc or {}).get("n") or (tri or {}).get("n") or (1 << 28)
    out(f"== tcc vs Triton vs PyTorch on {device}, same run ==")
    if tri:
        out(f"Triton {tri.get('triton_version', '?')}, PyTorch {tri.get('torch_version', '?')}")
    if args.manifest and os.path.exists(args.manifest):
        with open(args.manifest) as f:
            kept = [l.strip() for l in f if l.strip() and not l.startswith("note:")]
        out("artifacts: " + "; ".join(kept))
    copy = (tcc or {}).get("copy_gbps")
    torch_copy = ((tri or {}).get("torch", {}).get("vector_copy") or {}).get("gbps")
    out(f"device copy: cuMemcpyDtoD {copy or 0:.0f} GB/s, torch copy_ {torch_copy or 0:.0f} GB/s "
        "(bytes read + written); %copy is of cuMemcpyDtoD")
    out("")

    verdicts = []
    table = Table(["workload", "tcc", "%copy", "tcc config", "Triton", "%copy",
                   "Triton config", "torch", "tcc/Triton", "same harness (min-max)"])
    ratios = {}
    fractions = {}
    same = {r["workload"]: r for r in (tcc or {}).get("same_harness", []) if r.get("ok")}

    def same_cell(key):
        r = same.get(key)
        return (f"{r['ratio_median']:.3f} ({r['ratio_min']:.3f}-{r['ratio_max']:.3f})"
                if r else "-")

    def frac(v):
        return f"{100 * v / copy:.1f}%" if v and copy else "-"

    # Elementwise kernels: tcc-bench "results", Triton's sweep.
    results = (tcc or {}).get("results", [])
    for kernel in ("vector_copy", "vector_add"):
        name = f"{kernel}_2^{n.bit_length() - 1}" if n and n & (n - 1) == 0 else f"{kernel}_{n}"
        mine = best([r for r in results if r.get("kernel") == kernel and r.get("source") == "tcc"], "gbps")
        tb = best((tri or {}).get("triton", {}).get(kernel, []), "gbps")
        tor = ((tri or {}).get("torch", {}).get(kernel) or {}).get("gbps")
        ratio = mine["gbps"] / tb["gbps"] if mine and tb else None
        ratios[name] = ratio
        fractions[name] = mine["gbps"] / copy if mine and copy else None
        table.add(name, f"{mine['gbps']:.0f} GB/s" if mine else "-", frac(mine and mine["gbps"]),
                  (mine["config"] + (" spec" if mine.get("variant", "general") != "general" else ""))
                  if mine else "-",
                  f"{tb['gbps']:.0f} GB/s" if tb else "-", frac(tb and tb["gbps"]),
                  f"BLOCK={tb['BLOCK']},w={tb['num_warps']}" if tb else "-",
                  f"{tor:.0f}" if tor else "-", f"{ratio:.3f}" if ratio else "-",
                  same_cell(f"{kernel}_{n}"))
        if f"{kernel}_{n}" in same:
            same[name] = same[f"{kernel}_{n}"]

    # 2-D workloads: tcc-bench "workloads", Triton's "workloads".
    wrows = (tcc or {}).get("workloads", [])
    cublas = {}  # tcc's best over PyTorch's (cuBLAS for the GEMMs), per workload
    names = list(ORDER)
    for w in [r["workload"] for r in wrows] + list((tri or {}).get("workloads", {})):
        if w not in names:
            names.append(w)
    names = [w for w in names if w in (tri or {}).get("workloads", {}) or
             any(r["workload"] == w for r in wrows)]
    for name in names:
        mine = best([r for r in wrows if r["workload"] == name and r["source"] == "tcc"], "value")
        tw = (tri or {}).get("workloads", {}).get(name, {})
        metric = tw.get("metric") or (mine or {}).get("metric", "GB/s")
        tb = best(tw.get("triton", []), "value")
        tor = (tw.get("torch") or {}).get("value")
        ratio = mine["value"] / tb["value"] if mine and tb else None
        ratios[name] = ratio
        if mine and tor:
            cublas[name] = mine["value"] / tor
        gb = metric == "GB/s"
        fractions[name] = mine["value"] / copy if mine and copy and gb else None
        fmt = "{:.0f}" if gb else "{:.1f}"
        table.add(name,
                  (fmt.format(mine["value"]) + " " + unit(metric)) if mine else "-",
                  frac(mine and mine["value"]) if gb else "",
                  (mine["config"] + (" spec" if mine.get("variant", "general") != "general" else ""))
                  if mine else "-",
                  (fmt.format(tb["value"]) + " " + unit(metric)) if tb else "-",
                  frac(tb and tb["value"]) if gb else "",
                  short_config(tb.get("config")) if tb else "-",
                  fmt.format(tor) if tor else "-", f"{ratio:.3f}" if ratio else "-",
                  same_cell(name))
        if mine and tor and not gb and name.startswith("matmul"):
            portable = best([r for r in wrows if r["workload"] == name and r["source"] == "tcc"
                             and not any(r2["workload"] == name and r2["source"] == "tcc" and
                                         r2["config"] == r["config"] + "@sm_90" for r2 in wrows)],
                            "value")
            verdicts.append(f"{name}: {mine['value'] / tor:.2f}x cuBLAS ({mine['config']}); "
                            f"portable sm_90 (mma.sync) {portable['value']:.1f} TF/s = "
                            f"{portable['value'] / tor:.2f}x cuBLAS ({portable['config']})"
                            + (" [issue 10 target >= 0.5: "
                               f"{'met' if portable['value'] / tor >= 0.5 else 'MISSED'}]"
                               if name == "matmul_fp16_4096^3" else "")
                            if portable else f"{name}: {mine['value'] / tor:.2f}x cuBLAS")
    lines.extend(table.lines())

    failed = [r for r in results + wrows if not (r.get("ok") and r.get("correct"))]
    for r in failed:
        out(f"  FAILED {r.get('source')}/{r.get('kernel')}/{r.get('config')}"
            f"{' ' + r['workload'] if r.get('workload') else ''}: {r.get('note', 'wrong output')[:300]}")
    if tri and not tri.get("all_correct", True):
        out("  some Triton configurations gave wrong output (see triton.json)")
    for s in (tri or {}).get("skipped", []):
        out(f"  Triton side skipped: {s}")
    for r in (tcc or {}).get("same_harness", []):
        if not r.get("ok"):
            out(f"  same harness not compared for {r.get('workload')}: {r.get('note', '?')[:300]}")

    # A/B tables, same run: each configuration built with a flag (its folder's name carries
    # a marker: test/gpu/artifacts.cmake's tcc_example_twin) beside its twin without it.
    def twins(marker, title, without, with_, ratio, flagged_is_with):
        pairs = []
        for r in wrows:
            cfg = r.get("config", "")
            # The marker at the start or after another one's `_` (PERSISTENT_ is not in
            # NOPERSISTENT_).
            at = 0 if cfg.startswith(marker) else cfg.find("_" + marker)
            at = at if at <= 0 else at + 1
            if r.get("source") != "tcc" or at < 0 or "@" in cfg:
                continue
            base = cfg[:at] + cfg[at + len(marker):]
            twin = next((t for t in wrows if t.get("source") == "tcc"
                         and t["workload"] == r["workload"] and t.get("config") == base), None)
            if twin and r.get("value") and twin.get("value"):
                a, b = (twin["value"], r["value"]) if flagged_is_with else (r["value"], twin["value"])
                pairs.append((r["workload"], base, a, b))
        if pairs:
            out("")
            tab = Table([title, "config", without, with_, ratio])
            for w, cfg, a, b in pairs:
                tab.add(w, cfg, f"{a:.1f}", f"{b:.1f}", f"{b / a:.3f}")
            lines.extend(tab.lines())

    # TMA against cp.async (CPASYNC_: built with --no-tma; TMA is the default).
    twins("CPASYNC_", "TMA vs cp.async (sm_90a)", "cp.async", "TMA", "TMA/cp.async", False)
    # Warp specialisation (WS_: --warp-specialize) beside one warp group role.
    twins("WS_", "warp-specialised vs not (sm_90a)", "TMA", "TMA + WS", "WS/TMA", True)
    # Persistent (the default for one dot loop nest; NOPERSISTENT_: --no-persistent, one
    # program per tile) and, where the default is not, PERSISTENT_ (--persistent) beside
    # the default build.
    twins("NOPERSISTENT_", "persistent vs a program per tile (sm_90a)", "per tile",
          "persistent", "persistent/per tile", False)
    twins("PERSISTENT_", "--persistent vs the default (sm_90a)", "default", "--persistent",
          "persistent/default", True)
    # Clusters of two multicasting B (MULTICAST_: --multicast) beside the default build.
    twins("MULTICAST_", "multicast in clusters of two vs not (sm_90a)", "default", "multicast",
          "multicast/default", True)
    # The ping-pong schedule (PINGPONG_: --ping-pong) beside the same tile's default build.
    twins("PINGPONG_", "ping-pong vs the default (sm_90a)", "default", "ping-pong",
          "ping-pong/default", True)
    # Split over K in clusters of 2 and 4 (SPLITK2_, SPLITK4_: --split-k N) beside the
    # default build (persistent, a program per tile's SM).
    for n in (2, 4):
        twins(f"SPLITK{n}_", f"split-K in clusters of {n} vs not (sm_90a)", "default",
              f"split-K {n}", "split-K/default", True)
    # The TMA-store epilogue (TMASTORE_: --tma-store) beside st.global.
    twins("TMASTORE_", "TMA store vs st.global (sm_90a)", "st.global", "TMA store",
          "TMA store/st.global", True)

    # Compile time: tcc here (build-artifacts.sh), Triton cold on the GPU machine.
    cc = (tri or {}).get("cold_compile", {})
    tex = (ct or {}).get("examples", {})
    if tex or cc:
        out("")
        host = f"{(ct or {}).get('host', '?')}, {(ct or {}).get('cores', '?')} cores, " \
               f"load {(ct or {}).get('load_average', 0):.1f}"
        ctab = Table(["compile to a cubin", "tcc (s)", "tcc config", "Triton cold (s)", "tcc/Triton"])
        worst, worst_ex = 0.0, "-"
        for ex in list(dict.fromkeys(list(tex) + list(cc))):
            t = (tex.get(ex) or {}).get("median_s")
            tr = (cc.get(ex) or {}).get("first_call_s")
            if t is not None and t > worst:
                worst, worst_ex = t, ex
            ctab.add(ex, f"{t:.3f}" if t is not None else "-", (tex.get(ex) or {}).get("config", "-"),
                     f"{tr:.2f}" if tr is not None else "-",
                     f"{t / tr:.3f}" if t is not None and tr else "-")
        lines.extend(ctab.lines())
        out(f"  tcc: wall time of `tcc --emit=cubin` (median of its runs) on the machine that "
            f"built the artifacts ({host}); Triton: first call with an empty cache, imports excluded")
        if tex:
            # Issue 7's bound for every example but the GEMMs, issue 10's for matmul.
            rest = {ex: (tex.get(ex) or {}).get("median_s") for ex in tex
                    if not ex.startswith("matmul")}
            rest = {ex: t for ex, t in rest.items() if t is not None}
            if rest:
                ex = max(rest, key=rest.get)
                verdicts.append(f"compile time: slowest example but the GEMMs {ex} {rest[ex]:.3f} s "
                                f"[issue 7 target <= 0.2 s: {'met' if rest[ex] <= 0.2 else 'MISSED'}]")
            mm = (tex.get("matmul") or {}).get("median_s")
            if mm is not None:
                verdicts.append(f"compile time: matmul {mm:.3f} s "
                                f"[issue 10 target <= 0.3 s: {'met' if mm <= 0.3 else 'MISSED'}]")

    # Launch overhead.
    lu = (tri or {}).get("launch_us", {})
    if launch or lu:
        out("")
        raw = (launch or {}).get("raw_us")
        parts = []
        for key, label in (("raw_us", "raw cuLaunchKernel"), ("runtime_us", "tcc runtime"),
                           ("by_name_us", "by name"), ("header_us", "generated header"),
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
                            f"[issue 7 target within 10%: {'met' if over <= 0.10 else 'MISSED'}]")

    # Targets.
    def ratio_verdict(name, target=1.0, issue="issue 7"):
        r = ratios.get(name)
        sh = same.get(name)
        also = (f" (same harness {sh['ratio_median']:.3f}, {sh['ratio_min']:.3f}-"
                f"{sh['ratio_max']:.3f} over {sh.get('rounds', '?')} rounds in pairs)") if sh else ""
        if r is None:
            return f"{name}: no two-harness tcc/Triton ratio (missing measurement){also}"
        return (f"{name}: {r:.3f}x Triton{also} [{issue} target >= {target}: "
                f"{'met' if r >= target else 'MISSED'}]")

    def copy_verdict(name, target=0.8):
        f = fractions.get(name)
        if f is None:
            return f"{name}: no tcc figure"
        return f"{name}: {100 * f:.1f}% of the device copy [issue 5 target >= {100 * target:.0f}%: " \
               f"{'met' if f >= target else 'MISSED'}]"

    elementwise = [k for k in ratios if k.startswith("vector_")]
    targets = [ratio_verdict(k) for k in elementwise]
    targets += [copy_verdict("transpose_16384x16384"), copy_verdict("softmax_16384x4096")]
    targets += [ratio_verdict(k) for k in ("transpose_16384x16384", "softmax_32768x1024",
                                           "softmax_16384x4096", "softmax_4096x16384")]
    targets += [ratio_verdict(k, issue="issue 18") for k in (
        "softmax_persistent_4096x1024", "softmax_persistent_4096x4096",
        "softmax_persistent_4096x16384", "softmax_persistent_4096x12672")]
    targets += [ratio_verdict(k, issue="issue 10") for k in (
        "matmul_fp16_4096^3", "matmul_bf16_4096^3", "matmul_bias_fp16_4096^3",
        "matmul_fp16_1024^3")]

    # Issue 11: the GEMMs against cuBLAS (>= 1.00) and, at 4096^3 and 8192^3, Triton (>= 1.05).
    def cublas_verdict(name, triton_target=None):
        c = cublas.get(name)
        if c is None:
            return f"{name}: no tcc or cuBLAS figure"
        text = f"{name}: {c:.3f}x cuBLAS [issue 11 target >= 1.00: {'met' if c >= 1.0 else 'MISSED'}]"
        r, sh = ratios.get(name), same.get(name)
        if triton_target and r is not None:
            text += (f", {r:.3f}x Triton" + (f" (same harness {sh['ratio_median']:.3f})" if sh else "")
                     + f" [issue 11 target >= {triton_target:.2f}: "
                     f"{'met' if r >= triton_target and (not sh or sh['ratio_median'] >= triton_target) else 'MISSED'}]")
        return text
    targets += [cublas_verdict(k, 1.05) for k in (
        "matmul_fp16_4096^3", "matmul_bf16_4096^3", "matmul_fp16_8192^3", "matmul_bf16_8192^3")]
    targets += [cublas_verdict(k) for k in ("matmul_bias_fp16_4096^3", "matmul_fp16_1024^3")]

    # Issue 13: the ports of Triton's tutorials against the original kernels, judged by the
    # same-harness ratio (one harness, A/B and B/A); the memory-bound ones must reach 1.00.
    def tutorial_verdict(name):
        sh = same.get(name)
        if not sh:
            return f"{name}: no same-harness tcc/Triton ratio (not compared in this run)"
        memory = sh.get("metric") == "GB/s"
        spread = f"{sh['ratio_median']:.3f} ({sh['ratio_min']:.3f}-{sh['ratio_max']:.3f})"
        if not memory:
            return f"{name}: {spread}x Triton, same harness (GEMM: the tensor-core issues' targets)"
        return (f"{name}: {spread}x Triton, same harness [issue 13 target >= 1.00: "
                f"{'met' if sh['ratio_median'] >= 1.0 else 'MISSED'}]")
    tutorials = [r["workload"] for r in (tcc or {}).get("same_harness", [])
                 if r["workload"].startswith("triton_0")]
    tutorials += [w for w in dict.fromkeys(r["workload"] for r in wrows)
                  if w.startswith("triton_0") and w not in tutorials]
    targets += [tutorial_verdict(k) for k in tutorials]
    out("")
    out("targets:")
    for v in targets + verdicts:
        out("  " + v)
    if args.tests:
        out("")
        out("tests: " + args.tests)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())

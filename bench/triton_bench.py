#!/usr/bin/env python3
"""Triton and PyTorch counterparts of tcc's benchmarks: the same shapes in the same run.

Vector copy and vector add on n fp32 elements (default 2^28) for a sweep of Triton configs
(BLOCK x num_warps) and PyTorch's own ops, timed with triton.testing.do_bench (median,
20th/80th percentiles; it flushes L2 between repetitions); launch overhead of a tiny Triton
kernel and a tiny PyTorch op launched back to back from Python; Triton's compile time on
first use with an empty cache (a fresh process and TRITON_CACHE_DIR per kernel).

    python3 bench/triton_bench.py --json triton.json [--n 268435456]

Needs a GPU, torch and triton (the GPU machine has them); writes one JSON file and prints a
short log.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

BLOCKS = [256, 512, 1024, 2048, 4096]
WARPS = [4, 8]


try:
    import torch
    import triton
    import triton.language as tl
except ImportError:  # lets a machine without them check this file's syntax and --help
    torch = triton = tl = None

if triton is not None:
    @triton.jit
    def vector_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        in_bounds = offsets < n
        a = tl.load(x_ptr + offsets, mask=in_bounds)
        b = tl.load(y_ptr + offsets, mask=in_bounds)
        tl.store(out_ptr + offsets, a + b, mask=in_bounds)

    @triton.jit
    def vector_copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        in_bounds = offsets < n
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=in_bounds), mask=in_bounds)

    @triton.jit
    def tiny_kernel(out_ptr, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(out_ptr + offsets, 1.0, mask=offsets < n)


def kernels():
    return {"vector_add": vector_add_kernel, "vector_copy": vector_copy_kernel,
            "tiny": tiny_kernel}


def launcher(name, k, x, y, out, n, block, warps):
    grid = (triton.cdiv(n, block),)
    if name == "vector_add":
        return lambda: k[grid](x, y, out, n, BLOCK=block, num_warps=warps)
    return lambda: k[grid](x, out, n, BLOCK=block, num_warps=warps)


def timed(fn):
    from triton.testing import do_bench
    r = do_bench(fn, warmup=25, rep=100, quantiles=[0.5, 0.2, 0.8])
    med, p20, p80 = r if isinstance(r, (list, tuple)) else (r, r, r)
    return {"median_ms": med, "p20_ms": p20, "p80_ms": p80}


def cold_compile_child(name):
    """Run in a fresh process with an empty TRITON_CACHE_DIR: time the first call."""
    ks = kernels()
    n = 1 << 20
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    torch.cuda.synchronize()
    fn = launcher(name, ks[name], x, y, out, n, 1024, 4)
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    fn()
    torch.cuda.synchronize()
    second = time.perf_counter() - t0
    print(json.dumps({"kernel": name, "first_call_s": first, "second_call_s": second}))


def launch_overhead_us(fn, sync, count, trials=5):
    for _ in range(100):
        fn()
    sync()
    per = []
    for _ in range(trials):
        t0 = time.perf_counter()
        for _ in range(count):
            fn()
        sync()
        per.append((time.perf_counter() - t0) / count * 1e6)
    return statistics.median(per)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write results here")
    ap.add_argument("--n", type=int, default=1 << 28)
    ap.add_argument("--launch-count", type=int, default=10000)
    ap.add_argument("--skip-cold-compile", action="store_true")
    ap.add_argument("--cold-compile-child", choices=["vector_add", "vector_copy"],
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.cold_compile_child:
        cold_compile_child(args.cold_compile_child)
        return 0

    if torch is None or triton is None:
        print("triton_bench: torch and triton are needed", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print("triton_bench: no GPU", file=sys.stderr)
        return 1
    n = args.n
    res = {
        "device": torch.cuda.get_device_name(),
        "torch_version": torch.__version__,
        "triton_version": triton.__version__,
        "n": n,
        "triton": {},
        "torch": {},
    }
    print(f"device {res['device']}, torch {torch.__version__}, triton {triton.__version__}, "
          f"n = {n} fp32")
    ks = kernels()
    g = torch.Generator(device="cuda").manual_seed(0)
    x = torch.rand(n, device="cuda", generator=g) * 2 - 1
    y = torch.rand(n, device="cuda", generator=g) * 2 - 1
    out = torch.empty_like(x)
    refs = {"vector_add": x + y, "vector_copy": x}
    nbytes = {"vector_add": 3 * 4 * n, "vector_copy": 2 * 4 * n}
    ok = True

    for name in ("vector_copy", "vector_add"):
        rows = []
        for block in BLOCKS:
            for warps in WARPS:
                fn = launcher(name, ks[name], x, y, out, n, block, warps)
                out.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                correct = bool(torch.equal(out, refs[name]))
                ok = ok and correct
                t = timed(fn)
                t.update(BLOCK=block, num_warps=warps, correct=correct,
                         gbps=nbytes[name] / (t["median_ms"] * 1e-3) / 1e9)
                rows.append(t)
                print(f"  triton {name:12s} BLOCK={block:5d} num_warps={warps}: "
                      f"{t['median_ms']:.4f} ms  {t['gbps']:7.0f} GB/s"
                      f"{'' if correct else '  WRONG'}")
        res["triton"][name] = rows

    torch_ops = {
        "vector_add": lambda: torch.add(x, y, out=out),
        "vector_copy": lambda: out.copy_(x),
    }
    for name, fn in torch_ops.items():
        t = timed(fn)
        t["gbps"] = nbytes[name] / (t["median_ms"] * 1e-3) / 1e9
        res["torch"][name] = t
        print(f"  torch  {name:12s}: {t['median_ms']:.4f} ms  {t['gbps']:7.0f} GB/s")

    small = torch.zeros(128, device="cuda")
    sync = torch.cuda.synchronize
    tiny = ks["tiny"]
    res["launch_us"] = {
        "triton": launch_overhead_us(lambda: tiny[(1,)](small, 1, BLOCK=128, num_warps=4), sync,
                                     args.launch_count),
        "torch": launch_overhead_us(lambda: small.add_(1.0), sync, args.launch_count),
    }
    print(f"  launch overhead: triton {res['launch_us']['triton']:.2f} us, "
          f"torch {res['launch_us']['torch']:.2f} us per launch")

    if not args.skip_cold_compile:
        res["cold_compile"] = {}
        for name in ("vector_add", "vector_copy"):
            with tempfile.TemporaryDirectory() as cache:
                env = dict(os.environ, TRITON_CACHE_DIR=cache)
                p = subprocess.run([sys.executable, __file__, "--cold-compile-child", name],
                                   env=env, capture_output=True, text=True, timeout=300)
                if p.returncode != 0:
                    print(f"  cold compile {name}: FAILED\n{p.stderr[-2000:]}")
                    continue
                r = json.loads(p.stdout.strip().splitlines()[-1])
                res["cold_compile"][name] = r
                print(f"  triton cold compile {name}: first call {r['first_call_s']:.3f} s "
                      f"(second {r['second_call_s'] * 1e3:.2f} ms)")

    res["all_correct"] = ok
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

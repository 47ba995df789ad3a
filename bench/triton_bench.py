#!/usr/bin/env python3
"""Triton and PyTorch counterparts of tcc's benchmarks: the same shapes in the same run.

- Vector copy and add on n fp32 elements (default 2^28): a sweep of Triton configs
  (BLOCK x num_warps) and PyTorch's own ops.
- The 2-D workloads of bench/workloads.cpp, under the same names: transpose 16384^2,
  softmax and layer norm (32768x1024, 16384x4096, 4096x16384), bias add 16384^2 (fp32), and
  fp16 matmul 1024^3 / 4096^3 and matmul + bias 4096^3. The Triton kernels are line-for-line
  ports of lang-examples/*.tile (same algorithm, same grid), over a few configs each; PyTorch
  runs its own ops (t().contiguous copy, softmax, add, layer_norm, matmul, addmm).
- Launch overhead of a tiny kernel launched back to back from Python (Triton and PyTorch).
- Triton's compile on first use with an empty cache, per example (a fresh process and an
  empty TRITON_CACHE_DIR each; the first call's wall time, imports excluded).

Everything is timed with triton.testing.do_bench (median, 20th/80th percentiles; it flushes
L2 between repetitions) after a correctness check against PyTorch. The JSON is rewritten
after every section, so a run cut short keeps what it measured; --deadline (seconds of wall
time for the whole script) skips the sections that would not fit, saying so.

    python3 bench/triton_bench.py --json triton.json [--n 268435456] [--deadline 300]

--export DIR writes, for every workload (and vector add/copy at --n) and every Triton
configuration benchmarked, Triton's own compiled kernel for tcc-bench --triton DIR, which
times it with tcc's harness beside tcc's best: DIR/<workload>/<config>.cubin
(compiled.asm["cubin"]) and .json (compiled.metadata.name, num_warps, shared bytes, the grid
launched for the workload's shape, and the parameter list as Triton 3.6's launcher passes
it: the arguments that are not constexprs, pointers named by the buffer they point to, then
its trailing global and profile scratch pointers). Before a kernel is written, the cubin is
loaded and launched through ctypes (cuLaunchKernel with that list, after checking its count
and sizes against the cubin's with cuFuncGetParamInfo) and its output compared bit for bit
with Triton's own launch; a mismatch exports nothing and fails the run (--export-selftest
also checks, on the first kernel, that two wrong lists are rejected). --export-only does
just that (no timing, no PyTorch, no cold compiles): what scripts/gpu-run.sh runs before
tcc-bench.

    python3 bench/triton_bench.py --export-only --export DIR [--filter STR] [--n N]

Needs a GPU, torch and triton (the GPU machine has them).
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

START = time.monotonic()

# Elementwise sweep: BLOCK x num_warps.
ELEMENTWISE_CONFIGS = [(256, 4), (512, 4), (1024, 4), (2048, 4), (4096, 4), (2048, 8), (4096, 8)]

try:
    import torch
    import triton
    import triton.language as tl
    import triton_tutorials as tut  # Triton's own tutorial kernels (this folder)
except ImportError:  # lets a machine without them check this file's syntax and --help
    torch = triton = tl = tut = None

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

    # Ports of lang-examples/*.tile.
    @triton.jit
    def copy2d_kernel(src, dst, M, N, stride_sm, stride_sn, stride_dm, stride_dn,
                      BM: tl.constexpr, BN: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        block = tl.load(src + rm[:, None] * stride_sm + rn[None, :] * stride_sn, mask=mask)
        tl.store(dst + rm[:, None] * stride_dm + rn[None, :] * stride_dn, block, mask=mask)

    @triton.jit
    def transpose_kernel(src, dst, M, N, stride_src, stride_dst,
                         BM: tl.constexpr, BN: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        x = tl.load(src + rm[:, None] * stride_src + rn[None, :], mask=mask)
        tl.store(dst + rn[None, :] * stride_dst + rm[:, None], x, mask=mask)

    @triton.jit
    def bias_add_kernel(x, bias, out, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
        rm = tl.program_id(0) * BM + tl.arange(0, BM)
        rn = tl.program_id(1) * BN + tl.arange(0, BN)
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        offs = rm[:, None] * stride + rn[None, :]
        t = tl.load(x + offs, mask=mask, other=0.0)
        b = tl.load(bias + rn, mask=rn < N, other=0.0)
        tl.store(out + offs, t + b[None, :], mask=mask)

    @triton.jit
    def softmax_kernel(out, inp, in_stride, out_stride, M, N, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(inp + row * in_stride + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        num = tl.exp(x)
        den = tl.sum(num, axis=0)
        tl.store(out + row * out_stride + cols, num / den, mask=mask)

    @triton.jit
    def layernorm_kernel(x, w, b, y, stride, M, N, eps, BLOCK: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < N
        v = tl.load(x + row * stride + cols, mask=mask, other=0.0)
        d = tl.where(mask, v - tl.sum(v, axis=0) / N, 0.0)
        rstd = tl.rsqrt(tl.sum(d * d, axis=0) / N + eps)
        wt = tl.load(w + cols, mask=mask, other=0.0)
        bs = tl.load(b + cols, mask=mask, other=0.0)
        tl.store(y + row * stride + cols, d * rstd * wt + bs, mask=mask)

    @triton.jit
    def matmul_kernel(a, b, c, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                      stride_cm, stride_cn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pid = tl.program_id(0)
        pm = pid // tl.cdiv(N, BN)
        pn = pid % tl.cdiv(N, BN)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            kk = k * BK + rk
            at = tl.load(a + rm[:, None] * stride_am + kk[None, :] * stride_ak,
                         mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
            bt = tl.load(b + kk[:, None] * stride_bk + rn[None, :] * stride_bn,
                         mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(at, bt, acc)
        tl.store(c + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
                 acc.to(c.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))

    @triton.jit
    def matmul_bias_kernel(a, b, bias, c, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                           stride_cm, stride_cn,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                           RELU: tl.constexpr):
        pid = tl.program_id(0)
        pm = pid // tl.cdiv(N, BN)
        pn = pid % tl.cdiv(N, BN)
        rm = pm * BM + tl.arange(0, BM)
        rn = pn * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            kk = k * BK + rk
            at = tl.load(a + rm[:, None] * stride_am + kk[None, :] * stride_ak,
                         mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
            bt = tl.load(b + kk[:, None] * stride_bk + rn[None, :] * stride_bn,
                         mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(at, bt, acc)
        acc = acc + tl.load(bias + rn, mask=rn < N, other=0.0).to(tl.float32)[None, :]
        if RELU:
            acc = tl.maximum(acc, 0.0)
        tl.store(c + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc.to(tl.float16),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


# Tutorial 04's dropout: p = 0.5 and the seed of its example (seeded_dropout(x, p=0.5,
# seed=123)); the same in bench/workloads.cpp.
DROPOUT_P = 0.5
DROPOUT_SEED = 123
# Tutorial 08's benchmark groups (bench/workloads.cpp's kGroup).
GROUPED_GEMMS = 4
# Tutorial 06's benchmark (BATCH, N_HEADS, one N_CTX of it) and the sm_scale of its test;
# bench/workloads.cpp's kAttn*: the exported launches carry these values, and tcc-bench
# checks their output against its own reference with them.
ATTN_Z, ATTN_H, ATTN_N_CTX, ATTN_SM_SCALE = 4, 32, 4096, 0.5

# Bytes each tutorial workload must move (read + written), as bench/workloads.cpp counts them.
TUTORIAL_BYTES = {
    "triton_01_vector_add": lambda m, n: 3 * 4 * m,
    "triton_02_fused_softmax": lambda m, n: 2 * 4 * m * n,
    "triton_04_dropout": lambda m, n: 3 * 4 * m,
    "triton_04_seeded_dropout": lambda m, n: 2 * 4 * m,
    "triton_07_extern_functions": lambda m, n: 2 * 4 * m,  # f32 x read, asin(x) written
    # fp16 x read and y written, fp16 w and b, f32 mean and rstd per row
    "triton_05_layer_norm": lambda m, n: 2 * 2 * m * n + 2 * 2 * n + 2 * 4 * m,
}


def cdiv(a, b):
    return (a + b - 1) // b


def next_pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


def left():
    """Seconds left before the deadline (infinite without one)."""
    return ARGS.deadline - (time.monotonic() - START) if ARGS.deadline else float("inf")


def timed(fn):
    from triton.testing import do_bench
    r = do_bench(fn, warmup=25, rep=100, quantiles=[0.5, 0.2, 0.8])
    med, p20, p80 = r if isinstance(r, (list, tuple)) else (r, r, r)
    return {"median_ms": med, "p20_ms": p20, "p80_ms": p80}


# ------------------------------------------------------------------------------------------
# Launchers: each returns a zero-argument function that enqueues one run.

def elementwise_call(name, x, y, out, n, block, warps):
    """(call, JIT function, grid, args, kwargs), as Workload.triton_call."""
    grid = (triton.cdiv(n, block),)
    kw = dict(BLOCK=block, num_warps=warps)
    if name == "vector_add":
        return vector_add_kernel, vector_add_kernel, grid, (x, y, out, n), kw
    if name == "vector_copy":
        return vector_copy_kernel, vector_copy_kernel, grid, (x, out, n), kw
    raise ValueError(name)


def elementwise_launcher(name, x, y, out, n, block, warps):
    call, _, grid, args, kw = elementwise_call(name, x, y, out, n, block, warps)
    return lambda: call[grid](*args, **kw)


def rand(shape, dtype=None, lo=0.5, hi=4.0, gen=None):
    """+-[lo, hi] (never zero), like tcc-bench's inputs."""
    dtype = dtype or torch.float32
    v = lo + (hi - lo) * torch.rand(shape, device="cuda", generator=gen)
    sign = (torch.rand(shape, device="cuda", generator=gen) < 0.5).float() * 2 - 1
    return (v * sign).to(dtype)


class Workload:
    """One shape of one kernel: Triton configs, the PyTorch op, and the check."""

    def __init__(self, name, kernel, M, N, K=0, causal=False, dtype="f16"):
        self.name, self.kernel, self.M, self.N, self.K = name, kernel, M, N, K
        self.causal = causal
        self.dtype = dtype  # matmul's operands: f16 or bf16 (tcc's -D DTYPE=bf16 builds)
        if kernel == "triton_06_fused_attention":
            # M = N_CTX, N = HEAD_DIM, K = Z * H; the tutorial's count: two matmuls of
            # 2 Z H N_CTX^2 HEAD_DIM, half of it when causal.
            self.metric = "TFLOP/s"
            self.amount = 4.0 * K * M * M * N * (0.5 if causal else 1.0)
        elif K:
            group = GROUPED_GEMMS if kernel == "triton_08_grouped_gemm" else 1
            self.metric, self.amount = "TFLOP/s", 2.0 * M * N * K * group
        elif kernel in TUTORIAL_BYTES:  # Triton's tutorials (M = n for the 1-D ones)
            self.metric, self.amount = "GB/s", float(TUTORIAL_BYTES[kernel](M, N))
        else:
            extra = {"bias_add": 1, "layernorm": 2}.get(kernel, 0)
            self.metric, self.amount = "GB/s", 2.0 * 4 * M * N + extra * 4 * N

    def rate(self, ms):
        return self.amount / (ms * 1e-3) / (1e12 if self.K else 1e9)

    def configs(self):
        k = self.kernel
        if k == "transpose":
            return [dict(BM=32, BN=32, num_warps=4), dict(BM=64, BN=64, num_warps=4),
                    dict(BM=64, BN=64, num_warps=8)]
        if k == "bias_add":
            return [dict(BM=64, BN=64, num_warps=4), dict(BM=32, BN=128, num_warps=4),
                    dict(BM=128, BN=128, num_warps=8)]
        if k in ("softmax", "layernorm"):
            # 1 to 16 warps, up to 128 elements per thread (a 1024-wide row fits one warp).
            b = next_pow2(self.N)
            return [dict(BLOCK=b, num_warps=w) for w in (1, 2, 4, 8, 16) if b // (32 * w) <= 128]
        if k in ("triton_01_vector_add", "triton_07_extern_functions") or \
                k.startswith("triton_04_"):
            return [dict(BLOCK_SIZE=1024, num_warps=4)]  # the tutorials' launches
        if k == "triton_06_fused_attention":
            return tut.attention_configs(self.N)
        if k == "triton_05_layer_norm":
            block, warps = tut.layer_norm_meta(torch.empty((1, self.N), dtype=torch.float16))
            return [dict(BLOCK_SIZE=block, num_warps=warps)]
        if k == "triton_03_matrix_multiplication":
            # Three of the tutorial's fp16 autotune configurations (its first, the 128x128
            # one, and the one tcc's port is built in: index 3).
            return [dict(tut.MATMUL_CONFIGS[i]) for i in (0, 2, 3)]
        if k == "triton_08_grouped_gemm":
            # The two tcc's port is built in (64x64x32 over 84 and 128 programs) and the
            # 128x128x64 one over every multiprocessor.
            sms = torch.cuda.get_device_properties("cuda").multi_processor_count
            return [tut.grouped_gemm_configs(sms)[i] for i in (2, 3, 4)]
        if k == "triton_09_persistent_matmul":
            # Three of matmul_get_configs(): 128x128x64 with 3 stages and 4 or 8 warps (tcc's
            # port is built in the first), and 128x256x64, 3 stages, 8 warps.
            return [dict(tut.PERSISTENT_CONFIGS[i]) for i in (0, 1, 9)]
        if k in ("softmax_persistent", "triton_02_fused_softmax"):
            # The tutorial's choice: 8 warps, 4 stages where shared memory exceeds 200 KB.
            props = torch.cuda.get_device_properties(0)
            smem = getattr(props, "shared_memory_per_block_optin", 0)
            return [dict(BLOCK=next_pow2(self.N), num_warps=8,
                         num_stages=4 if smem > 200000 else 2)]
        # Triton's tutorial configurations for Hopper and the ones around them, so that
        # its figure is its best.
        configs = [dict(BM=128, BN=128, BK=32, num_warps=4, num_stages=3),
                   dict(BM=128, BN=128, BK=64, num_warps=8, num_stages=3),
                   dict(BM=128, BN=256, BK=64, num_warps=8, num_stages=3),
                   dict(BM=128, BN=256, BK=64, num_warps=8, num_stages=4),
                   dict(BM=128, BN=128, BK=64, num_warps=4, num_stages=4),
                   dict(BM=128, BN=64, BK=64, num_warps=4, num_stages=4),
                   dict(BM=64, BN=256, BK=32, num_warps=4, num_stages=4),
                   dict(BM=64, BN=128, BK=32, num_warps=4, num_stages=4)]
        if k == "matmul_bias":
            for c in configs:
                c["RELU"] = False
        return configs

    def setup(self):
        M, N, K = self.M, self.N, self.K
        g = torch.Generator(device="cuda").manual_seed(0)
        if self.kernel == "triton_07_extern_functions":
            # +-[0.125, 1] (asin's domain; the tutorial's torch.rand is [0, 1)), 1 and -1.
            self.x = rand((M,), lo=0.125, hi=1.0, gen=g)
            self.x[0], self.x[1] = 1.0, -1.0
            self.out = torch.empty_like(self.x)
            self.ref = torch.asin(self.x)
            return
        if self.kernel == "triton_06_fused_attention":
            # (Z, H, N_CTX, HEAD_DIM) fp16 Q, K, V in +-[0.125, 1], as tcc-bench's; M (the
            # log-sum-exp of each row, base 2) f32.
            shape = (ATTN_Z, ATTN_H, M, N)
            self.q = rand(shape, torch.float16, 0.125, 1.0, g)
            self.k = rand(shape, torch.float16, 0.125, 1.0, g)
            self.v = rand(shape, torch.float16, 0.125, 1.0, g)
            self.out = torch.empty_like(self.q)
            self.lse = torch.empty((ATTN_Z, ATTN_H, M), device="cuda", dtype=torch.float32)
            self.ref = torch.nn.functional.scaled_dot_product_attention(
                self.q, self.k, self.v, is_causal=self.causal, scale=ATTN_SM_SCALE)
            return
        if self.kernel in ("triton_01_vector_add", "triton_04_dropout",
                           "triton_04_seeded_dropout"):
            self.x = rand((M,), gen=g)
            self.out = torch.empty_like(self.x)
            if self.kernel == "triton_01_vector_add":
                self.y = rand((M,), gen=g)
                self.ref = self.x + self.y
            elif self.kernel == "triton_04_dropout":
                # The tutorial's keep mask: int32 0s and 1s, p = 0.5.
                self.keep = (torch.rand((M,), device="cuda", generator=g) > DROPOUT_P).to(
                    torch.int32)
                self.ref = torch.where(self.keep.bool(), self.x / (1 - DROPOUT_P), 0.0)
            return
        if self.kernel == "triton_05_layer_norm":
            # The tutorial's benchmark inputs: x = -2.3 + 0.5 randn, weight and bias rand,
            # fp16; eps 1e-5.
            self.x = (-2.3 + 0.5 * torch.randn((M, N), device="cuda", generator=g)).to(
                torch.float16)
            self.w = torch.rand((N,), device="cuda", generator=g).to(torch.float16)
            self.b = torch.rand((N,), device="cuda", generator=g).to(torch.float16)
            self.mean = torch.empty((M,), device="cuda", dtype=torch.float32)
            self.rstd = torch.empty((M,), device="cuda", dtype=torch.float32)
            self.out = torch.empty_like(self.x)
            self.ref = torch.nn.functional.layer_norm(self.x, (N,), self.w, self.b, 1e-5)
            return
        if self.kernel == "triton_08_grouped_gemm":
            # 08's benchmark: a group of GROUPED_GEMMS square GEMMs, one after the other in
            # a, b and out (so that the export compares one output).
            per = M * K
            self.a = rand((GROUPED_GEMMS * per,), torch.float16, 0.1, 1.0, g)
            self.b = rand((GROUPED_GEMMS * per,), torch.float16, 0.1, 1.0, g)
            self.out = torch.empty((GROUPED_GEMMS * per,), device="cuda", dtype=torch.float16)
            mat = lambda t, i: t[i * per:(i + 1) * per].view(M, K)
            self.group = [(mat(self.a, i), mat(self.b, i), mat(self.out, i))
                          for i in range(GROUPED_GEMMS)]
            (self.a_ptrs, self.b_ptrs, self.c_ptrs, self.sizes, self.lds) = \
                tut.grouped_gemm_tables(*zip(*self.group), "cuda")
            self.ref = torch.cat([torch.matmul(A, B).flatten() for A, B, _ in self.group])
            return
        if self.kernel in ("triton_03_matrix_multiplication", "triton_09_persistent_matmul"):
            self.a = rand((M, K), torch.float16, 0.1, 1.0, g)
            self.b = rand((K, N), torch.float16, 0.1, 1.0, g)
            self.out = torch.empty((M, N), device="cuda", dtype=torch.float16)
            self.ref = torch.matmul(self.a, self.b)
            return
        if self.K:
            t = torch.bfloat16 if self.dtype == "bf16" else torch.float16
            self.a = rand((M, K), t, 0.1, 1.0, g)
            self.b = rand((K, N), t, 0.1, 1.0, g)
            self.bias = rand((N,), t, 0.1, 1.0, g)
            self.out = torch.empty((M, N), device="cuda", dtype=t)
            if self.kernel == "matmul":
                self.ref = torch.matmul(self.a, self.b)
            else:
                self.ref = torch.addmm(self.bias, self.a, self.b)
            return
        self.x = rand((M, N), gen=g)
        self.v0 = rand((N,), gen=g)
        self.v1 = rand((N,), gen=g)
        if self.kernel == "transpose":
            self.out = torch.empty((N, M), device="cuda")
            self.ref = self.x.t().contiguous()
        else:
            self.out = torch.empty((M, N), device="cuda")
            if self.kernel in ("softmax", "softmax_persistent", "triton_02_fused_softmax"):
                self.ref = torch.softmax(self.x, dim=1)
            elif self.kernel == "bias_add":
                self.ref = self.x + self.v0
            else:
                self.ref = torch.nn.functional.layer_norm(self.x, (N,), self.v0, self.v1, 1e-5)

    def teardown(self):
        for attr in ("a", "b", "bias", "out", "ref", "x", "y", "v0", "v1", "keep", "w",
                     "mean", "rstd", "group", "a_ptrs", "b_ptrs", "c_ptrs", "sizes", "lds",
                     "q", "k", "v", "lse"):
            if hasattr(self, attr):
                delattr(self, attr)
        torch.cuda.empty_cache()

    def roles(self):
        """The tensors a kernel's pointers may point to, by the names tcc-bench gives its
        buffers of the same workload (bench/workloads.cpp)."""
        return {r: getattr(self, r) for r in ("x", "y", "out", "v0", "v1", "a", "b", "bias",
                                              "keep", "w", "mean", "rstd", "a_ptrs", "b_ptrs",
                                              "c_ptrs", "sizes", "lds", "q", "k", "v", "lse")
                if hasattr(self, r)}

    def triton_launcher(self, cfg):
        call, jit, grid, args, kwargs = self.triton_call(cfg)
        return lambda: call[grid](*args, **kwargs)

    def triton_call(self, cfg):
        """What the launcher runs, call[grid](*args, **kwargs), as (call, the JIT function,
        grid, args, kwargs); call is the JIT function or an already compiled kernel."""
        M, N, K, k = self.M, self.N, self.K, self.kernel
        c = dict(cfg)
        if k == "transpose":
            grid = (cdiv(M, c["BM"]), cdiv(N, c["BN"]))
            return transpose_kernel, transpose_kernel, grid, (self.x, self.out, M, N, N, M), c
        if k == "bias_add":
            grid = (cdiv(M, c["BM"]), cdiv(N, c["BN"]))
            return (bias_add_kernel, bias_add_kernel, grid, (self.x, self.v0, self.out, M, N, N),
                    c)
        if k == "softmax":
            return softmax_kernel, softmax_kernel, (M,), (self.out, self.x, N, N, M, N), c
        if k in ("softmax_persistent", "triton_02_fused_softmax"):
            # The tutorial's softmax(): compile, read the kernel's registers and shared
            # memory, and launch as many programs as fit on the device at once (at most one
            # per row).
            compiled, grid, args, kwargs = tut.launch_softmax(
                self.out, self.x, c["BLOCK"], c["num_warps"], c["num_stages"],
                torch.cuda.current_device())
            self.programs = grid[0]
            return compiled, tut.softmax_kernel, grid, args, kwargs
        if k == "triton_01_vector_add":
            call, grid, args, kw = tut.launch_1d(tut.add_kernel, M, (self.x, self.y, self.out, M))
            return call, call, grid, args, dict(kw, num_warps=c["num_warps"])
        if k == "triton_04_dropout":
            call, grid, args, kw = tut.launch_1d(tut._dropout, M,
                                                 (self.x, self.keep, self.out, M, DROPOUT_P))
            return call, call, grid, args, dict(kw, num_warps=c["num_warps"])
        if k == "triton_04_seeded_dropout":
            call, grid, args, kw = tut.launch_1d(tut._seeded_dropout, M,
                                                 (self.x, self.out, M, DROPOUT_P, DROPOUT_SEED))
            return call, call, grid, args, dict(kw, num_warps=c["num_warps"])
        if k == "triton_05_layer_norm":
            call, grid, args, kw = tut.launch_layer_norm_fwd(self.x, self.out, self.w, self.b,
                                                             self.mean, self.rstd, 1e-5)
            return call, call, grid, args, kw
        if k == "triton_07_extern_functions":
            call, grid, args, kw = tut.launch_1d(tut.asin_kernel, M, (self.x, self.out, M))
            return call, call, grid, args, dict(kw, num_warps=c["num_warps"])
        if k == "triton_06_fused_attention":
            call, grid, args, kw = tut.launch_attention(self.q, self.k, self.v, self.out,
                                                        self.lse, self.causal, ATTN_SM_SCALE, c)
            return call, call, grid, args, kw
        if k == "triton_03_matrix_multiplication":
            call, grid, args, kw = tut.launch_matmul(self.a, self.b, self.out, c)
            return call, call, grid, args, kw
        if k == "triton_08_grouped_gemm":
            call, grid, args, kw = tut.launch_grouped_gemm(
                self.a_ptrs, self.b_ptrs, self.c_ptrs, self.sizes, self.lds, GROUPED_GEMMS, c)
            return call, call, grid, args, kw
        if k == "triton_09_persistent_matmul":
            sms = torch.cuda.get_device_properties("cuda").multi_processor_count
            call, grid, args, kw = tut.launch_matmul_persistent(self.a, self.b, self.out, c, sms)
            return call, call, grid, args, kw
        if k == "layernorm":
            return (layernorm_kernel, layernorm_kernel, (M,),
                    (self.x, self.v0, self.v1, self.out, N, M, N, 1e-5), c)
        grid = (cdiv(M, c["BM"]) * cdiv(N, c["BN"]),)
        if k == "matmul":
            return (matmul_kernel, matmul_kernel, grid,
                    (self.a, self.b, self.out, M, N, K, K, 1, N, 1, N, 1), c)
        return (matmul_bias_kernel, matmul_bias_kernel, grid,
                (self.a, self.b, self.bias, self.out, M, N, K, K, 1, N, 1, N, 1), c)

    def torch_op(self):
        k = self.kernel
        if k == "triton_01_vector_add":
            return lambda: torch.add(self.x, self.y, out=self.out)
        if k == "triton_04_dropout":
            return lambda: torch.where(self.keep.bool(), self.x / (1 - DROPOUT_P), 0.0)
        if k == "triton_04_seeded_dropout":
            return lambda: torch.nn.functional.dropout(self.x, DROPOUT_P, training=True)
        if k == "triton_05_layer_norm":
            return lambda: torch.nn.functional.layer_norm(self.x, (self.N,), self.w, self.b, 1e-5)
        if k == "triton_07_extern_functions":
            return lambda: torch.asin(self.x, out=self.out)
        if k == "triton_06_fused_attention":  # the tutorial's "flash" line: PyTorch's SDPA
            return lambda: torch.nn.functional.scaled_dot_product_attention(
                self.q, self.k, self.v, is_causal=self.causal, scale=ATTN_SM_SCALE)
        if k in ("triton_03_matrix_multiplication", "triton_09_persistent_matmul"):
            return lambda: torch.matmul(self.a, self.b, out=self.out)
        if k == "triton_08_grouped_gemm":  # the tutorial's cuBLAS line: one matmul each
            return lambda: [torch.matmul(A, B, out=C) for A, B, C in self.group]
        if k == "triton_02_fused_softmax":
            return lambda: torch.softmax(self.x, dim=1)
        if k == "transpose":
            return lambda: self.out.copy_(self.x.t())
        if k in ("softmax", "softmax_persistent"):
            return lambda: torch.softmax(self.x, dim=1)
        if k == "bias_add":
            return lambda: torch.add(self.x, self.v0, out=self.out)
        if k == "layernorm":
            return lambda: torch.nn.functional.layer_norm(self.x, (self.N,), self.v0, self.v1,
                                                          1e-5)
        if k == "matmul":
            return lambda: torch.matmul(self.a, self.b, out=self.out)
        return lambda: torch.addmm(self.bias, self.a, self.b, out=self.out)

    def correct(self):
        """Triton's output against PyTorch's (a sanity check of the baseline itself)."""
        if self.kernel in ("transpose", "bias_add", "triton_01_vector_add", "triton_04_dropout"):
            return bool(torch.equal(self.out, self.ref))
        if self.kernel == "triton_04_seeded_dropout":
            # Kept elements are x / (1 - p) exactly (p = 0.5), dropped ones 0 (x is never 0),
            # about p of them dropped; tcc-bench checks the mask bit for bit against Philox.
            kept = self.out != 0
            frac = kept.float().mean().item()
            return bool(torch.equal(self.out, torch.where(kept, self.x / (1 - DROPOUT_P), 0.0))
                        and abs(frac - (1 - DROPOUT_P)) < 0.01)
        if self.kernel in ("triton_05_layer_norm", "triton_06_fused_attention"):
            # the tutorials' tests: fp16, atol 1e-2
            return bool(torch.allclose(self.out, self.ref, atol=1e-2, rtol=0))
        if self.kernel == "triton_07_extern_functions":
            # libdevice's asinf (within 4 ulp, 4.8e-7 of the result) against PyTorch's asin
            return bool(torch.allclose(self.out, self.ref, rtol=1e-6, atol=1e-7))
        if self.K:
            err = torch.linalg.norm((self.out.float() - self.ref.float()).flatten())
            return bool(err <= 1e-2 * torch.linalg.norm(self.ref.float().flatten()))
        return bool(torch.allclose(self.out, self.ref, rtol=1e-4, atol=1e-5))


def workloads():
    w = [Workload("transpose_16384x16384", "transpose", 16384, 16384)]
    for m, n in ((32768, 1024), (16384, 4096), (4096, 16384)):
        w.append(Workload(f"softmax_{m}x{n}", "softmax", m, n))
    for n in (1024, 4096, 16384, 12672):  # the tutorial's 4096 rows; 12672 = 128 x 99, its widest
        w.append(Workload(f"softmax_persistent_4096x{n}", "softmax_persistent", 4096, n))
    w.append(Workload("bias_add_16384x16384", "bias_add", 16384, 16384))
    for m, n in ((16384, 4096), (32768, 1024), (4096, 16384)):
        w.append(Workload(f"layernorm_{m}x{n}", "layernorm", m, n))
    for s in (1024, 4096):
        w.append(Workload(f"matmul_fp16_{s}^3", "matmul", s, s, s))
    w.append(Workload("matmul_bias_fp16_4096^3", "matmul_bias", 4096, 4096, 4096))
    w.append(Workload("matmul_bf16_4096^3", "matmul", 4096, 4096, 4096, dtype="bf16"))
    w.append(Workload("matmul_fp16_8192^3", "matmul", 8192, 8192, 8192))
    w.append(Workload("matmul_bf16_8192^3", "matmul", 8192, 8192, 8192, dtype="bf16"))
    # Few tiles, a long K (tcc's --split-k).
    w.append(Workload("matmul_fp16_512x512x8192", "matmul", 512, 512, 8192))
    # Triton's tutorials, at their shapes (bench/workloads.cpp, tcc's ports of them in
    # lang-examples/triton/ against the original kernels of bench/triton_tutorials.py).
    for n in (98432, 1 << 27):  # 01's test size and its benchmark's largest
        w.append(Workload(f"triton_01_vector_add_{n}", "triton_01_vector_add", n, 1))
    for n in (1024, 4096, 12672):  # 02's benchmark: 4096 rows, 128 x i columns (i < 100)
        w.append(Workload(f"triton_02_fused_softmax_4096x{n}", "triton_02_fused_softmax", 4096, n))
    w.append(Workload("triton_03_matmul_fp16_4096^3", "triton_03_matrix_multiplication",
                      4096, 4096, 4096))
    # 08's benchmark: groups of 4 square fp16 GEMMs, N = 2^7..2^10; the largest.
    w.append(Workload(f"triton_08_grouped_gemm_fp16_{GROUPED_GEMMS}x1024^3",
                      "triton_08_grouped_gemm", 1024, 1024, 1024))
    # 09's benchmark: fp16, M = N = 8192 and its default K = 512.
    w.append(Workload("triton_09_persistent_matmul_fp16_8192x8192x512",
                      "triton_09_persistent_matmul", 8192, 8192, 512))
    for k in ("dropout", "seeded_dropout"):  # 04 has no benchmark: 01's largest size
        w.append(Workload(f"triton_04_{k}_{1 << 27}", f"triton_04_{k}", 1 << 27, 1))
    for n in (1024, 4096, 8192, 15872):  # 05's benchmark: M = 4096, N = 512 x i (i < 32)
        w.append(Workload(f"triton_05_layer_norm_fwd_4096x{n}", "triton_05_layer_norm", 4096, n))
    # 07: asin over 01's largest size.
    w.append(Workload(f"triton_07_extern_functions_{1 << 27}", "triton_07_extern_functions",
                      1 << 27, 1))
    # 06's benchmark forward: fp16, BATCH 4, N_HEADS 32, N_CTX 4096, HEAD_DIM 64 and 128,
    # non-causal and causal (M = N_CTX, N = HEAD_DIM, K = Z * H: the export's shape).
    for d in (64, 128):
        for causal in (False, True):
            w.append(Workload(f"triton_06_fused_attention_{'causal_' if causal else ''}fp16_"
                              f"{ATTN_Z}x{ATTN_H}x{ATTN_N_CTX}x{d}", "triton_06_fused_attention",
                              ATTN_N_CTX, d, ATTN_Z * ATTN_H, causal=causal))
    return w


# ------------------------------------------------------------------------------------------
# --export: Triton's compiled kernels for tcc-bench --triton (see the docstring).

# Bytes of each scalar parameter type as the launcher passes it (ty_to_cpp in Triton's
# third_party/nvidia/backend/driver.py; i1 travels as an int32).
SCALAR_BYTES = {"i1": 4, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "fp32": 4, "fp64": 8}


class CudaCtypes:
    """The CUDA driver through ctypes, enough to load a cubin as Triton's load_binary does
    and launch it as Triton 3.6's launcher does for num_ctas = 1 (cuLaunchKernel, 32 x
    num_warps threads, metadata.shared bytes of dynamic shared memory)."""

    def __init__(self):
        import ctypes
        self.c = c = ctypes
        self.lib = lib = c.CDLL("libcuda.so.1")
        vp, u, i, sz = c.c_void_p, c.c_uint, c.c_int, c.c_size_t
        lib.cuCtxGetCurrent.argtypes = [c.POINTER(vp)]
        lib.cuCtxGetDevice.argtypes = [c.POINTER(i)]
        lib.cuModuleLoadData.argtypes = [c.POINTER(vp), c.c_char_p]
        lib.cuModuleUnload.argtypes = [vp]
        lib.cuModuleGetFunction.argtypes = [c.POINTER(vp), vp, c.c_char_p]
        lib.cuDeviceGetAttribute.argtypes = [c.POINTER(i), i, i]
        lib.cuFuncGetAttribute.argtypes = [c.POINTER(i), i, vp]
        lib.cuFuncSetAttribute.argtypes = [vp, i, i]
        lib.cuFuncSetCacheConfig.argtypes = [vp, i]
        lib.cuLaunchKernel.argtypes = [vp, u, u, u, u, u, u, u, vp, c.POINTER(vp), c.POINTER(vp)]
        self.param_info = getattr(lib, "cuFuncGetParamInfo", None)  # CUDA 12.4+
        if self.param_info is not None:
            self.param_info.argtypes = [vp, sz, c.POINTER(sz), c.POINTER(sz)]

    def check(self, r, what):
        if r != 0:
            raise RuntimeError(f"{what}: CUDA error {r}")

    def load(self, cubin, name, shared):
        c, lib = self.c, self.lib
        ctx = c.c_void_p()
        self.check(lib.cuCtxGetCurrent(c.byref(ctx)), "cuCtxGetCurrent")
        if not ctx.value:
            raise RuntimeError("no current CUDA context (PyTorch's should be)")
        mod, fn = c.c_void_p(), c.c_void_p()
        self.check(lib.cuModuleLoadData(c.byref(mod), cubin), "cuModuleLoadData")
        self.check(lib.cuModuleGetFunction(c.byref(fn), mod, name.encode()), "cuModuleGetFunction")
        if shared > 49152:  # as Triton's load_binary (driver.c)
            dev, optin, static = c.c_int(), c.c_int(), c.c_int()
            self.check(lib.cuCtxGetDevice(c.byref(dev)), "cuCtxGetDevice")
            # CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
            self.check(lib.cuDeviceGetAttribute(c.byref(optin), 97, dev), "cuDeviceGetAttribute")
            if optin.value > 49152:
                self.check(lib.cuFuncSetCacheConfig(fn, 1), "cuFuncSetCacheConfig")  # PREFER_SHARED
                # CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, then MAX_DYNAMIC_SHARED_SIZE_BYTES
                self.check(lib.cuFuncGetAttribute(c.byref(static), 1, fn), "cuFuncGetAttribute")
                self.check(lib.cuFuncSetAttribute(fn, 8, optin.value - static.value),
                           "cuFuncSetAttribute")
        return mod, fn

    def unload(self, mod):
        self.lib.cuModuleUnload(mod)

    def param_sizes(self, fn):
        """The cubin's own parameter sizes, in order (None without cuFuncGetParamInfo)."""
        if self.param_info is None:
            return None
        c, sizes = self.c, []
        while True:
            off, size = c.c_size_t(), c.c_size_t()
            if self.param_info(fn, len(sizes), c.byref(off), c.byref(size)) != 0:
                return sizes
            sizes.append(size.value)

    def launch(self, fn, grid, warps, shared, values, stream):
        """values: (type, value) per parameter; pointers as ints."""
        c = self.c
        ctype = {"i1": c.c_int32, "i32": c.c_int32, "u32": c.c_uint32, "i64": c.c_int64,
                 "u64": c.c_uint64, "fp32": c.c_float, "fp64": c.c_double}
        held = [ctype.get(ty, c.c_uint64)(v) for ty, v in values]
        arr = (c.c_void_p * max(1, len(held)))(*[c.cast(c.pointer(h), c.c_void_p) for h in held])
        self.check(self.lib.cuLaunchKernel(fn, grid[0], grid[1], grid[2], 32 * warps, 1, 1, shared,
                                           c.c_void_p(stream), arr, None), "cuLaunchKernel")


CUDA_CTYPES = None


def launch_params(compiled, jit, args, kwargs, roles):
    """The parameter list Triton 3.6's launcher passes (make_launcher in its NVIDIA driver):
    every argument of the compiled signature that is not a constexpr (these include integer
    arguments specialised as equal to 1), in order, then the global and the profile scratch
    pointers (null when the kernel needs none)."""
    names = list(jit.arg_names)
    bound = dict(zip(names, args))
    bound.update(kwargs)
    by_ptr = {t.data_ptr(): r for r, t in roles.items()}
    params = []
    for key, ty in compiled.src.signature.items():
        name = key if isinstance(key, str) else names[key]
        if ty == "constexpr":
            continue
        if not isinstance(ty, str) or ty.startswith("tensordesc") or ty == "nvTmaDesc":
            raise ValueError(f"argument {name}: type {ty!r} is not supported by the export")
        v = bound[name]
        if ty.startswith("*"):
            role = by_ptr.get(v.data_ptr())
            if role is None:
                raise ValueError(f"argument {name} points to none of the workload's buffers")
            params.append({"name": name, "type": ty, "kind": "pointer", "buffer": role})
        elif ty in SCALAR_BYTES:
            value = float(v) if ty.startswith("fp") else int(v)
            params.append({"name": name, "type": ty, "kind": "value", "value": value})
        else:
            raise ValueError(f"argument {name}: type {ty!r} is not supported by the export")
    md = compiled.metadata
    for scratch in ("global_scratch", "profile_scratch"):
        if hasattr(md, scratch + "_size"):
            params.append({"name": scratch, "type": "*i8", "kind": "scratch",
                           "bytes": int(getattr(md, scratch + "_size") or 0),
                           "align": int(getattr(md, scratch + "_align", 1) or 1)})
    return params

def verify_cubin(cubin, md, params, roles, grid3, out, want):
    """Loads the cubin through ctypes, compares the parameter sizes with the cubin's own
    (cuFuncGetParamInfo), launches it with `params` into a poisoned `out` and compares the
    bits with `want` (Triton's own launch). Raises ValueError on any difference; returns the
    cubin's sizes (None without cuFuncGetParamInfo)."""
    global CUDA_CTYPES
    if CUDA_CTYPES is None:
        CUDA_CTYPES = CudaCtypes()
    cu = CUDA_CTYPES
    mod, fn = cu.load(cubin, md.name, md.shared)
    try:
        sizes = cu.param_sizes(fn)
        expected = [SCALAR_BYTES[p["type"]] if p["kind"] == "value" else 8 for p in params]
        if sizes is not None and sizes != expected:
            raise ValueError(f"parameter sizes {expected} (export) differ from the cubin's {sizes}")
        scratch_bufs, values = [], []
        for p in params:
            if p["kind"] == "pointer":
                values.append(("ptr", roles[p["buffer"]].data_ptr()))
            elif p["kind"] == "scratch":
                ptr = 0
                if p["bytes"]:
                    b = torch.empty(grid3[0] * grid3[1] * grid3[2] * p["bytes"] + p["align"],
                                    dtype=torch.uint8, device="cuda")
                    scratch_bufs.append(b)
                    ptr = (b.data_ptr() + p["align"] - 1) // p["align"] * p["align"]
                values.append(("ptr", ptr))
            else:
                values.append((p["type"], p["value"]))
        out.fill_(float("nan"))
        torch.cuda.synchronize()
        cu.launch(fn, grid3, md.num_warps, md.shared, values,
                  torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        same = torch.equal(out.reshape(-1).view(torch.uint8), want.reshape(-1).view(torch.uint8))
    finally:
        cu.unload(mod)
    if not same:
        raise ValueError("the cubin launched through ctypes with the exported parameter list "
                         "did not reproduce Triton's output bit for bit")
    return sizes


SELFTEST_DONE = False


def selftest_wrong_lists(workload, label, cubin, md, params, roles, grid3, out, want):
    """--export-selftest, on the first kernel exported: two wrong parameter lists must be
    rejected by verify_cubin (the check itself checked): the list without its last entry
    (an older Triton's list, one scratch pointer), and, where the first input and the output
    are buffers of the same size, the list with those two swapped (the inputs restored
    after). Not two inputs: a commutative kernel (vector add) gives the same output for
    swapped inputs, and the self-test failed on it."""
    wrong = [("without its last parameter", params[:-1])]
    ptrs = [i for i, p in enumerate(params) if p["kind"] == "pointer"]
    outs = [i for i in ptrs if roles[params[i]["buffer"]] is out]
    ins = [i for i in ptrs if roles[params[i]["buffer"]] is not out]
    if outs and ins:
        i, o = ins[0], outs[0]
        a = roles[params[i]["buffer"]]
        if a.numel() * a.element_size() == out.numel() * out.element_size():
            swapped = [dict(p) for p in params]
            swapped[i]["buffer"], swapped[o]["buffer"] = params[o]["buffer"], params[i]["buffer"]
            wrong.append((f"with {params[i]['name']} and {params[o]['name']} swapped", swapped))
    saved = {r: t.clone() for r, t in roles.items()}
    try:
        for what, wl in wrong:
            try:
                verify_cubin(cubin, md, wl, roles, grid3, out, want)
            except ValueError as e:
                print(f"  export self-test {workload} {label}: the list {what} was rejected: {e}")
                continue
            raise RuntimeError(f"export self-test: the parameter list {what} was not detected")
    finally:
        for r, t in roles.items():
            t.copy_(saved[r])
        torch.cuda.synchronize()


def export_kernel(res, workload, label, spec, roles, shape, out):
    """Exports one Triton configuration of a workload (the docstring says what and how it is
    checked). Returns "" when exported, else why not (and marks the run failed)."""
    global SELFTEST_DONE
    call, jit, grid, args, kwargs = spec
    try:
        # Triton's own launch into a poisoned output: the reference bits, and the kernel.
        out.fill_(float("nan"))
        k = call[grid](*args, **kwargs)
        compiled = call if hasattr(call, "asm") else k
        if not hasattr(compiled, "asm"):
            compiled = jit.warmup(*args, grid=grid, **kwargs)
        torch.cuda.synchronize()
        want = out.clone()
        md = compiled.metadata
        num_ctas = int(getattr(md, "num_ctas", 1))
        coop = bool(getattr(md, "launch_cooperative_grid", False))
        pdl = bool(getattr(md, "launch_pdl", False))
        if num_ctas != 1 or coop or pdl:
            raise ValueError("clusters, cooperative grids and PDL launches are not exported")
        params = launch_params(compiled, jit, args, kwargs, roles)
        grid3 = [int(g) for g in grid] + [1] * (3 - len(grid))
        cubin = compiled.asm["cubin"]
        sizes = verify_cubin(cubin, md, params, roles, grid3, out, want)
        if ARGS.export_selftest and not SELFTEST_DONE:
            SELFTEST_DONE = True
            selftest_wrong_lists(workload, label, cubin, md, params, roles, grid3, out, want)
        folder = os.path.join(ARGS.export, workload)
        os.makedirs(folder, exist_ok=True)
        base = re.sub(r"[^A-Za-z0-9]+", "_", label).strip("_")
        with open(os.path.join(folder, base + ".cubin"), "wb") as f:
            f.write(cubin)
        # Triton's PTX beside its cubin, to read against tcc's (gpu-run.sh brings both back
        # with their SASS in asm.tgz).
        if compiled.asm.get("ptx"):
            with open(os.path.join(folder, base + ".ptx"), "w") as f:
                f.write(compiled.asm["ptx"])
        regs = spills = None
        try:
            compiled._init_handles()
            regs, spills = int(compiled.n_regs), int(compiled.n_spills)
        except Exception:  # noqa: BLE001 -- older Triton: the figures are left out
            pass
        meta = {"workload": workload, "config": label, "name": md.name, "cubin": base + ".cubin",
                "triton_version": triton.__version__, "num_warps": md.num_warps,
                "num_ctas": num_ctas, "shared": md.shared, "launch_cooperative_grid": coop,
                "launch_pdl": pdl, "registers": regs, "spills": spills, "grid": grid3, "shape": shape, "params": params,
                "checked": "cuFuncGetParamInfo sizes " + ("match" if sizes is not None
                                                          else "unavailable")
                           + "; ctypes launch reproduced Triton's output bit for bit"}
        with open(os.path.join(folder, base + ".json"), "w") as f:
            json.dump(meta, f, indent=1)
        res.setdefault("exported", []).append(f"{workload}/{base}")
        return ""
    except Exception as e:  # noqa: BLE001 -- reported, and the run fails
        why = f"{type(e).__name__}: {str(e)[:300]}"
        print(f"  EXPORT FAILED {workload} {label}: {why}")
        res.setdefault("export_failed", []).append(f"{workload} {label}: {why}")
        res["all_correct"] = False
        return why


# ------------------------------------------------------------------------------------------
# Cold compile: one kernel, default configuration (tcc's default for the example), small
# inputs, in a fresh process whose TRITON_CACHE_DIR is empty.

COLD_KERNELS = ["vector_add", "vector_copy", "copy2d", "transpose", "bias_add", "softmax",
                "layernorm", "matmul", "matmul_bias"]


def cold_compile_child(name):
    M, N = 512, 1024
    if name in ("vector_add", "vector_copy"):
        n = 1 << 20
        x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
        out = torch.empty_like(x)
        fn = elementwise_launcher(name, x, y, out, n, 1024, 4)
    elif name == "copy2d":
        x = torch.rand((M, N), device="cuda")
        out = torch.empty_like(x)
        grid = (cdiv(M, 32), cdiv(N, 32))
        fn = lambda: copy2d_kernel[grid](x, out, M, N, N, 1, N, 1, BM=32, BN=32, num_warps=4)
    else:
        w = {"transpose": Workload("t", "transpose", M, N),
             "bias_add": Workload("b", "bias_add", M, N),
             "softmax": Workload("s", "softmax", M, N),
             "layernorm": Workload("l", "layernorm", M, N),
             "matmul": Workload("m", "matmul", M, N, 256),
             "matmul_bias": Workload("mb", "matmul_bias", M, N, 256)}[name]
        w.setup()
        cfg = {"transpose": dict(BM=32, BN=32, num_warps=4),
               "bias_add": dict(BM=64, BN=64, num_warps=4),
               "softmax": dict(BLOCK=1024, num_warps=4),
               "layernorm": dict(BLOCK=1024, num_warps=4),
               "matmul": dict(BM=128, BN=128, BK=32, num_warps=8),
               "matmul_bias": dict(BM=128, BN=128, BK=32, RELU=True, num_warps=8)}[name]
        fn = w.triton_launcher(cfg)
    torch.cuda.synchronize()
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


# ------------------------------------------------------------------------------------------

def save(res):
    if ARGS.json:
        with open(ARGS.json + ".tmp", "w") as f:
            json.dump(res, f, indent=1)
        os.replace(ARGS.json + ".tmp", ARGS.json)


def skip(res, what, need):
    if left() < need:
        res["skipped"].append(f"{what} ({left():.0f} s left, needs about {need} s)")
        print(f"  skipped {what}: {left():.0f} s left")
        return True
    return False


def run_elementwise(res):
    n = ARGS.n
    g = torch.Generator(device="cuda").manual_seed(0)
    x = rand((n,), gen=g)
    y = rand((n,), gen=g)
    out = torch.empty_like(x)
    refs = {"vector_add": x + y, "vector_copy": x}
    nbytes = {"vector_add": 3 * 4 * n, "vector_copy": 2 * 4 * n}
    for name in ("vector_copy", "vector_add"):
        rows = []
        for block, warps in ELEMENTWISE_CONFIGS:
            if skip(res, f"triton {name} BLOCK={block} w={warps}", 5):
                continue
            fn = elementwise_launcher(name, x, y, out, n, block, warps)
            out.fill_(float("nan"))
            fn()
            torch.cuda.synchronize()
            correct = bool(torch.equal(out, refs[name]))
            res["all_correct"] = res["all_correct"] and correct
            if ARGS.export and correct:
                note = export_kernel(res, f"{name}_{n}", f"BLOCK={block},num_warps={warps}",
                                     elementwise_call(name, x, y, out, n, block, warps),
                                     {"x": x, "y": y, "out": out}, {"n": n}, out)
                if ARGS.export_only:
                    print(f"  triton {name:12s} BLOCK={block:5d} num_warps={warps}: "
                          f"{'exported' if not note else 'NOT exported'}")
            if ARGS.export_only:
                continue
            t = timed(fn)
            t.update(BLOCK=block, num_warps=warps, correct=correct,
                     gbps=nbytes[name] / (t["median_ms"] * 1e-3) / 1e9)
            rows.append(t)
            print(f"  triton {name:12s} BLOCK={block:5d} num_warps={warps}: "
                  f"{t['median_ms']:.4f} ms  {t['gbps']:7.0f} GB/s{'' if correct else '  WRONG'}")
        res["triton"][name] = rows
    if ARGS.export_only:
        return
    torch_ops = {"vector_add": lambda: torch.add(x, y, out=out),
                 "vector_copy": lambda: out.copy_(x)}
    for name, fn in torch_ops.items():
        t = timed(fn)
        t["gbps"] = nbytes[name] / (t["median_ms"] * 1e-3) / 1e9
        res["torch"][name] = t
        print(f"  torch  {name:12s}: {t['median_ms']:.4f} ms  {t['gbps']:7.0f} GB/s")


# The workloads the issues' targets name come first; the others after the cold compiles.
PRIMARY = ("transpose", "softmax", "softmax_persistent")


def run_workloads(res, primary):
    for w in workloads():
        if (w.kernel in PRIMARY) != primary:
            continue
        if ARGS.filter and not any(f in w.name for f in ARGS.filter.split(",")):
            continue
        entry = {"metric": w.metric, "kernel": w.kernel, "triton": [], "torch": None}
        res["workloads"][w.name] = entry
        if skip(res, f"workload {w.name}", 15):
            continue
        w.setup()
        try:
            for cfg in w.configs():
                if skip(res, f"triton {w.name} {cfg}", 5):
                    continue
                label = ",".join(f"{k}={v}" for k, v in cfg.items())
                try:
                    fn = w.triton_launcher(cfg)
                    w.out.fill_(float("nan"))
                    fn()
                    torch.cuda.synchronize()
                    correct = w.correct()
                    if ARGS.export and correct:
                        note = export_kernel(res, w.name, label, w.triton_call(cfg), w.roles(),
                                             {"M": w.M, "N": w.N, "K": w.K}, w.out)
                        if ARGS.export_only:
                            print(f"  triton {w.name:24s} {label:40s} "
                                  f"{'exported' if not note else 'NOT exported'}")
                    if ARGS.export_only:
                        if not correct:
                            print(f"  triton {w.name:24s} {label:40s} WRONG (not exported)")
                            res["all_correct"] = False
                        continue
                    t = timed(fn)
                except Exception as e:  # a config Triton cannot compile or run (resources)
                    print(f"  triton {w.name:24s} {label}: FAILED {type(e).__name__}: "
                          f"{str(e)[:200]}")
                    entry["triton"].append({"config": label, "error": str(e)[:500]})
                    continue
                res["all_correct"] = res["all_correct"] and correct
                t.update(config=label, correct=correct, value=w.rate(t["median_ms"]))
                entry["triton"].append(t)
                print(f"  triton {w.name:24s} {label:40s} {t['median_ms']:.4f} ms "
                      f"{t['value']:8.1f} {w.metric}{'' if correct else '  WRONG'}")
            if ARGS.export_only:
                continue
            t = timed(w.torch_op())
            t["value"] = w.rate(t["median_ms"])
            entry["torch"] = t
            print(f"  torch  {w.name:24s} {'':40s} {t['median_ms']:.4f} ms "
                  f"{t['value']:8.1f} {w.metric}")
        finally:
            w.teardown()
        save(res)


def run_launch(res):
    small = torch.zeros(128, device="cuda")
    sync = torch.cuda.synchronize
    res["launch_us"] = {
        "triton": launch_overhead_us(lambda: tiny_kernel[(1,)](small, 1, BLOCK=128, num_warps=4),
                                     sync, ARGS.launch_count),
        "torch": launch_overhead_us(lambda: small.add_(1.0), sync, ARGS.launch_count),
    }
    print(f"  launch overhead: triton {res['launch_us']['triton']:.2f} us, "
          f"torch {res['launch_us']['torch']:.2f} us per launch")


def run_cold_compile(res):
    res["cold_compile"] = {}
    for name in COLD_KERNELS:
        if skip(res, f"cold compile {name}", 20):
            continue
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, TRITON_CACHE_DIR=cache)
            try:
                p = subprocess.run([sys.executable, os.path.abspath(__file__),
                                    "--cold-compile-child", name],
                                   env=env, capture_output=True, text=True,
                                   timeout=max(20, min(120, left())))
            except subprocess.TimeoutExpired:
                print(f"  cold compile {name}: timed out")
                continue
            if p.returncode != 0:
                print(f"  cold compile {name}: FAILED\n{p.stderr[-2000:]}")
                continue
            r = json.loads(p.stdout.strip().splitlines()[-1])
            res["cold_compile"][name] = r
            print(f"  triton cold compile {name:12s}: first call {r['first_call_s']:.3f} s "
                  f"(second {r['second_call_s'] * 1e3:.2f} ms)")
        save(res)


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write results here")
    ap.add_argument("--n", type=int, default=1 << 28)
    ap.add_argument("--launch-count", type=int, default=10000)
    ap.add_argument("--deadline", type=float, default=0,
                    help="seconds of wall time for the whole script (0: none)")
    ap.add_argument("--skip-cold-compile", action="store_true")
    ap.add_argument("--skip-elementwise", action="store_true")
    ap.add_argument("--skip-workloads", action="store_true")
    ap.add_argument("--skip-launch", action="store_true")
    ap.add_argument("--filter", default="",
                    help="only workloads whose name contains this (A,B: either)")
    ap.add_argument("--export", metavar="DIR",
                    help="write each benchmarked Triton kernel's cubin and launch (JSON) under "
                         "DIR/<workload>/, checked through ctypes, for tcc-bench --triton DIR")
    ap.add_argument("--export-only", action="store_true",
                    help="with --export: compile, check and export only (no timing, no "
                         "PyTorch, no launch overhead or cold compiles)")
    ap.add_argument("--export-selftest", action="store_true",
                    help="with --export: on the first kernel exported, check that two wrong "
                         "parameter lists are rejected (the check checked)")
    ap.add_argument("--cold-compile-child", choices=COLD_KERNELS, help=argparse.SUPPRESS)
    ARGS = ap.parse_args()
    if ARGS.cold_compile_child:
        cold_compile_child(ARGS.cold_compile_child)
        return 0
    if ARGS.export_only and not ARGS.export:
        ap.error("--export-only needs --export DIR")

    if torch is None or triton is None:
        print("triton_bench: torch and triton are needed", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print("triton_bench: no GPU", file=sys.stderr)
        return 1
    res = {
        "device": torch.cuda.get_device_name(),
        "torch_version": torch.__version__,
        "triton_version": triton.__version__,
        "n": ARGS.n,
        "triton": {},
        "torch": {},
        "workloads": {},
        "skipped": [],
        "all_correct": True,
    }
    print(f"device {res['device']}, torch {torch.__version__}, triton {triton.__version__}, "
          f"n = {ARGS.n} fp32, deadline {ARGS.deadline or 'none'}")
    if ARGS.export_only:
        if not ARGS.skip_elementwise:
            run_elementwise(res)
            torch.cuda.empty_cache()
        if not ARGS.skip_workloads:
            run_workloads(res, primary=True)
            run_workloads(res, primary=False)
        save(res)
        print(f"triton_bench: exported {len(res.get('exported', []))} kernels to {ARGS.export}"
              f" in {time.monotonic() - START:.0f} s"
              + (f"; {len(res['export_failed'])} FAILED" if res.get("export_failed") else ""))
        return 0 if res["all_correct"] else 1
    if not ARGS.skip_elementwise:
        run_elementwise(res)
        torch.cuda.empty_cache()  # its 3 GiB of inputs went with its frame
        save(res)
    # In order of what the issues' targets need, so that a short deadline drops the rest.
    if not ARGS.skip_workloads:
        run_workloads(res, primary=True)
    if not ARGS.skip_launch and not skip(res, "launch overhead", 10):
        run_launch(res)
        save(res)
    if not ARGS.skip_cold_compile:
        run_cold_compile(res)
    if not ARGS.skip_workloads:
        run_workloads(res, primary=False)
    save(res)
    print(f"triton_bench: done in {time.monotonic() - START:.0f} s"
          + (f"; skipped: {'; '.join(res['skipped'])}" if res["skipped"] else ""))
    return 0 if res["all_correct"] else 1


ARGS = None

if __name__ == "__main__":
    sys.exit(main())

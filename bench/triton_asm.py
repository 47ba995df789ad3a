"""Writes the PTX and SASS of Triton's matmul (bench/triton_bench.py's port of
lang-examples/matmul.tile) for one configuration, to compare tcc's code with it.

  python3 bench/triton_asm.py OUT_DIR [BM BN BK WARPS STAGES]
"""
import os
import subprocess
import sys

import torch

import triton_bench as tb


def main():
    out = sys.argv[1]
    bm, bn, bk, warps, stages = (int(x) for x in (sys.argv[2:7] or (128, 256, 64, 8, 3)))
    M = N = K = 4096
    a = torch.randn((M, K), device="cuda", dtype=torch.float16)
    b = torch.randn((K, N), device="cuda", dtype=torch.float16)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    grid = (tb.cdiv(M, bm) * tb.cdiv(N, bn),)
    k = tb.matmul_kernel[grid](a, b, c, M, N, K, K, 1, N, 1, N, 1, BM=bm, BN=bn, BK=bk,
                               num_warps=warps, num_stages=stages)
    name = f"triton_matmul_{bm}x{bn}x{bk}_w{warps}_s{stages}"
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, name + ".ptx"), "w") as f:
        f.write(k.asm["ptx"])
    cubin = os.path.join(out, name + ".cubin")
    with open(cubin, "wb") as f:
        f.write(k.asm["cubin"])
    sass = subprocess.run(["cuobjdump", "--dump-sass", cubin], capture_output=True, text=True)
    with open(os.path.join(out, name + ".sass"), "w") as f:
        f.write(sass.stdout)
    os.remove(cubin)
    print(f"{name}: registers {k.n_regs}, spills {k.n_spills}, shared {k.metadata.shared}")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(__file__))
    main()

#!/usr/bin/env python3
"""Picks the GPU tests scripts/gpu-sanitize.sh runs under compute-sanitizer.

Usage: sanitize_select.py TCC_GPU_TESTS ARTIFACTS [--tool TOOL]

Prints --gtest_filter values, one per line (each short enough for one command-line
argument; run one process per line): a representative subset of tcc's own kernels (the nvcc
stand-ins are not ours), every family (elementwise, 2-D, rows, matmul), for each kernel
three configurations spread over its sweep (the first, middle and last in natural order,
so the widest rows and biggest tiles are in), each tensor-core path (a matmul's _sm90 and
_sm90a labels are separate groups), and for each of those the edge shapes (n = 0, 1,
BLOCK - 1, BLOCK, BLOCK + 1, misaligned and strided views) up to a size the sanitizers
run in seconds; then the elementwise case whose byte offsets pass 2^31 (memcheck and
initcheck only: it touches no shared memory) and the small non-parameterised GPU tests
(atomics, generated headers, artifact kinds; not the launch-error tests,
which fault on purpose).
"""
import argparse
import os
import re
import subprocess
import sys

SHAPE = re.compile(r"_(?:n(\d+)|(\d+)x(\d+)(?:x(\d+))?)(?:_[A-Za-z0-9_]+)?$")
SMALL_ELEMENTS = 1 << 22          # rows and 2-D tiles: up to 16 MiB of f32
MATMUL_MN, MATMUL_MNK = 1 << 20, 1 << 28
BIG_N = 1 << 29                   # the past-2^31-bytes elementwise case
PER_LABEL = 12                    # cases of one configuration, spread over its shapes/views
PER_LINE = 300                    # names per filter (a Linux argument holds 128 KiB)
# Not LaunchErrors: it faults on purpose.
OTHER = ["*AtomicAdd.*", "GeneratedHeader.*", "GeneratedHeader2D.*", "ArtifactKinds.*",
         "DefaultBuild.*"]


def natural(s):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def list_tests(binary, art):
    env = dict(os.environ, TCC_ARTIFACTS=art)
    out = subprocess.run([binary, "--gtest_list_tests"], env=env, capture_output=True,
                         text=True, check=True).stdout
    tests, suite = [], None
    for line in out.splitlines():
        if not line.strip():
            continue
        if not line.startswith(" "):
            suite = line.strip()
        else:
            tests.append(suite + line.strip().split()[0])
    return tests


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("artifacts")
    ap.add_argument("--tool", default="memcheck")
    a = ap.parse_args()
    kernels = sorted(os.listdir(os.path.join(a.artifacts, "tcc")), key=len, reverse=True)
    groups = {}  # (suite, kernel, arch) -> {label: [test, ...]}
    chosen = []
    for test in list_tests(a.binary, a.artifacts):
        suite, _, param = test.rpartition("/")
        if not suite.startswith("Artifacts/") or not param.startswith("tcc_"):
            continue
        if suite.startswith("Artifacts/Sass"):
            continue  # reads SASS, launches nothing
        kernel = next((k for k in kernels if param.startswith("tcc_" + k + "_")), None)
        m = SHAPE.search(param)
        if not kernel or not m:
            continue
        label = param[:m.start()]
        dims = [int(d) for d in m.groups() if d is not None]
        elements = 1
        for d in dims:
            elements *= d
        if dims and len(dims) == 1 and dims[0] >= BIG_N:
            if a.tool in ("memcheck", "initcheck"):
                chosen.append(test)
            continue
        if len(dims) == 3:
            small = dims[0] * dims[1] <= MATMUL_MN and elements <= MATMUL_MNK
        else:
            small = elements <= SMALL_ELEMENTS
        if not small:
            continue
        arch = "sm90a" if label.endswith("_sm90a") else "sm90" if label.endswith("_sm90") else ""
        groups.setdefault((suite.split(".")[0], kernel, arch), {}).setdefault(label, []).append(test)
    for key in sorted(groups):
        labels = sorted(groups[key], key=natural)
        picks = sorted({labels[0], labels[len(labels) // 2], labels[-1]}, key=natural)
        for label in picks:
            cases = groups[key][label]
            if len(cases) > PER_LABEL:  # evenly spread, the first and the last included
                step = (len(cases) - 1) / (PER_LABEL - 1)
                cases = [cases[round(i * step)] for i in range(PER_LABEL)]
            chosen.extend(cases)
    names = chosen + OTHER
    for i in range(0, len(names), PER_LINE):
        print(":".join(names[i:i + PER_LINE]))
    print(f"sanitize_select: {len(chosen)} parameterised cases from {len(groups)} kernel groups "
          f"for {a.tool}", file=sys.stderr)


if __name__ == "__main__":
    main()

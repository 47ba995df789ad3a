#!/usr/bin/env python3
"""Times tcc on the default configuration of each example: compile_times.json.

    compile_times.py --tcc TCC --configs timing.tsv --runs N --work DIR -o compile_times.json

timing.tsv (written by the artifacts build from test/gpu/artifacts.cmake): one line per
example, tab-separated: example, configuration, source, then tcc's flags. Each is compiled
N times to a cubin (`tcc SOURCE FLAGS --emit=cubin -o DIR/...`, one process, front end to
ptxas) one after the other; the JSON keeps every run and, per example, the median. A failing
compile fails this step. Standard library only.
"""
import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tcc", required=True)
    ap.add_argument("--configs", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--work", required=True)
    ap.add_argument("-o", dest="out", required=True)
    args = ap.parse_args()
    examples, configs = {}, []
    with open(args.configs) as f:
        lines = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    for fields in lines:
        ex, cfg, src, flags = fields[0], fields[1], fields[2], fields[3:]
        work = os.path.join(args.work, ex)
        secs = []
        for _ in range(max(args.runs, 1)):
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            cmd = [args.tcc, src, *flags, "--emit=cubin", "-o", os.path.join(work, ex + ".cubin")]
            t0 = time.perf_counter()
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            t1 = time.perf_counter()
            if r.returncode != 0:
                print(f"compile_times: {' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}",
                      file=sys.stderr)
                return 1
            secs.append(round(t1 - t0, 4))
        configs.append({"example": ex, "config": cfg, "seconds": secs})
        examples[ex] = {"config": cfg, "median_s": statistics.median(secs), "min_s": min(secs),
                        "runs": len(secs)}
    result = {"what": "wall time of tcc --emit=cubin (front end to ptxas, one process) per "
                      "example, default configuration, median of the runs",
              "host": platform.node(), "cores": os.cpu_count(),
              "load_average": os.getloadavg()[0], "tcc": args.tcc, "examples": examples,
              "configs": configs}
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f, indent=1)
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Prints a kernel's signature, grid and constexprs as tcc-pack options, one per line.

Reads tile IR (what `tcc --emit=tile` prints) on standard input and describes the kernel
KERNEL (default: the only one) the way tcc's own metadata would, so that the nvcc-built
stand-ins of scripts/build-artifacts.sh carry exactly the front end's parameter names, types,
order and grid expressions:

    tcc lang-examples/transpose.tile -D BM=64 --emit=tile | \
        python3 scripts/tile_signature.py [--kernel transpose] [--num-warps 8]

prints  --name transpose --num-warps 8 --grid 'cdiv(M, 64)' ... --param src:*f32 ...
(one token per line). Standard library only.
"""
import argparse
import re
import sys

SCALARS = {"i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"}


def param_type(mlir_type):
    m = re.fullmatch(r"!tile\.ptr<(\w+)>", mlir_type)
    if m and m.group(1) in SCALARS:
        return "*" + m.group(1)
    if mlir_type in SCALARS:
        return mlir_type
    raise ValueError(f"unsupported parameter type {mlir_type}")


def split_top(text, sep=","):
    """Splits on `sep` outside brackets and quotes."""
    parts, depth, quote, cur = [], 0, False, ""
    for ch in text:
        if ch == '"':
            quote = not quote
        elif not quote and ch in "([{<":
            depth += 1
        elif not quote and ch in ")]}>":
            depth -= 1
        if ch == sep and depth == 0 and not quote:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def kernels(ir):
    for m in re.finditer(r"func\.func @(\w+)\((.*?)\)\s+attributes\s+\{(.*)\}\s*\{\s*$", ir,
                         re.MULTILINE):
        name, args, attrs = m.group(1), m.group(2), m.group(3)
        if "tile.kernel" not in attrs:
            continue
        types = []
        for a in split_top(args):
            t = a.split(":", 1)[1].strip()
            t = re.sub(r"\s*\{.*\}$", "", t)  # argument attributes (divisibility)
            types.append(param_type(t))
        names = re.search(r"tile\.arg_names = \[(.*?)\]", attrs)
        names = re.findall(r'"([^"]*)"', names.group(1)) if names else []
        if len(names) != len(types):
            raise ValueError(f"{name}: {len(types)} arguments but {len(names)} names")
        grid = re.search(r"tile\.grid = \[(.*?)\]", attrs)
        grid = re.findall(r'"([^"]*)"', grid.group(1)) if grid else []
        warps = re.search(r"tile\.num_warps = (\d+)", attrs)
        consts = []
        cm = re.search(r"tile\.constexprs = \{(.*?)\}", attrs)
        if cm:
            for item in split_top(cm.group(1)):
                k, v = [s.strip() for s in item.split("=", 1)]
                v = v.split(":")[0].strip()
                v = {"true": "1", "false": "0"}.get(v, v)
                consts.append((k, v))
        yield {"name": name, "params": list(zip(names, types)), "grid": grid,
               "num_warps": int(warps.group(1)) if warps else 4, "constexprs": consts}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernel")
    ap.add_argument("--num-warps", type=int)
    args = ap.parse_args()
    found = [k for k in kernels(sys.stdin.read()) if not args.kernel or k["name"] == args.kernel]
    if len(found) != 1:
        print(f"tile_signature: {len(found)} kernels match {args.kernel or '(any)'}",
              file=sys.stderr)
        return 1
    k = found[0]
    if len(k["grid"]) != 3:
        print(f"tile_signature: {k['name']}: no three grid expressions", file=sys.stderr)
        return 1
    out = ["--name", k["name"], "--num-warps", str(args.num_warps or k["num_warps"])]
    for g in k["grid"]:
        out += ["--grid", g]
    for n, t in k["params"]:
        out += ["--param", f"{n}:{t}"]
    for n, v in k["constexprs"]:
        out += ["--constexpr", f"{n}={v}"]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

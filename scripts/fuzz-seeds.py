#!/usr/bin/env python3
"""Writes the seed corpus of one libFuzzer target (test/fuzz/) into a folder.

Usage: scripts/fuzz-seeds.py TARGET DIR [BUILD]   (TARGET: frontend, pipeline,
interpreter-args, runtime; BUILD: the sanitizer build, default build-asan/, whose lit runs
left metadata, cubins, PTX and .npy files under test/*/Output). Existing files are kept, so
a corpus that grew in earlier runs stays. Each seed is named by a hash of its bytes.
"""
import glob
import hashlib
import json
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write(out, data):
    if isinstance(data, str):
        data = data.encode()
    path = os.path.join(out, hashlib.sha1(data).hexdigest()[:16])
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)


def tile_files():
    files = []
    for top in ("lang-examples", "test"):
        for path in glob.glob(os.path.join(ROOT, top, "**", "*.tile"), recursive=True):
            if "/Output/" not in path:
                files.append(path)
    return sorted(files)


def read(path, limit=1 << 16):
    with open(path, "rb") as f:
        return f.read(limit)


def npy(descr, shape, payload, fortran=False):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, "True" if fortran else "False",
        "".join("%d," % d for d in shape) if len(shape) == 1 else ", ".join(map(str, shape)))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload


def npy_seeds():
    seeds = [
        npy("<f4", (4,), struct.pack("<4f", 1.0, -2.5, 0.0, 3.25)),
        npy("<f4", (2, 3), struct.pack("<6f", *range(6))),
        npy("<f4", (2, 3), struct.pack("<6f", *range(6)), fortran=True),
        npy("<f8", (3,), struct.pack("<3d", 1e300, float("nan"), -0.0)),
        npy("<f2", (2,), struct.pack("<2e", 1.5, -65504.0)),
        npy("<i4", (5,), struct.pack("<5i", -1, 0, 1, 2**31 - 1, -2**31)),
        npy("<i8", (2, 2), struct.pack("<4q", 1, -1, 2**62, -2**63)),
        npy("|i1", (3,), bytes([0, 127, 128])),
        npy("|u1", (3,), bytes([0, 1, 255])),
        npy("|b1", (4,), bytes([0, 1, 1, 0])),
        npy("<i2", (1, 1, 2), struct.pack("<2h", -5, 7)),
        npy("<u4", (2,), struct.pack("<2I", 0, 2**32 - 1)),
        npy("<f4", (0,), b""),
        npy("<f4", (), struct.pack("<f", 42.0)),
        npy("<f4", (1000000000000,), b""),  # claims far more than it holds
        npy(">f4", (1,), b"\0\0\0\0"),  # big-endian: rejected
    ]
    for path in glob.glob(os.path.join(BUILD, "test", "**", "*.npy"), recursive=True):
        seeds.append(read(path, 4096))
    return seeds


def arg_specs():
    specs = {"x=rand:16", "x=randn:2x8", "x=const:1.5:4", "x=full:-2:3x3", "x=zeros:8",
             "x=ones:2x2", "x=arange:2x3", "x=empty:5", "x=data.npy", "x=npy:in.npy",
             "x=1000", "x=-1e30", "x=nan", "x=inf", "x=true", "x=0x10", "x=rand:0",
             "x=rand:4294967296x4294967296", "x=rand:999999999999", "1,2,3", "4,1"}
    for path in glob.glob(os.path.join(ROOT, "test", "**", "*"), recursive=True):
        if os.path.isfile(path) and "/Output/" not in path and not path.endswith(".npy"):
            try:
                text = read(path).decode("utf-8", "replace")
            except OSError:
                continue
            for m in re.finditer(r"--arg[ =]([A-Za-z_0-9]+=[^ \s'\"]+)", text):
                specs.add(m.group(1))
            for m in re.finditer(r"--grid[ =]([0-9,]+)", text):
                specs.add(m.group(1))
    return sorted(specs)


def metadata_files():
    return sorted(p for p in glob.glob(os.path.join(BUILD, "test", "**", "*.json"), recursive=True)
                  if "/Output/" in p)


def seeds_frontend(out):
    for path in tile_files():
        write(out, read(path))


def seeds_pipeline(out):
    for path in tile_files():
        write(out, read(path))
    # The target and --num-warps from a first byte below 0x10 (pipeline_fuzz.cpp).
    for path in sorted(glob.glob(os.path.join(ROOT, "lang-examples", "*.tile"))):
        for option in (0x01, 0x02, 0x03, 0x04, 0x08, 0x0c):
            write(out, bytes([option]) + read(path))


def seeds_interpreter(out):
    npys = npy_seeds()
    specs = arg_specs()
    for i, spec in enumerate(specs):
        for t in (0x07, 0x17, 0x03, 0x13, 0x00, 0x10, 0x16, 0x15, 0x04, 0x18):
            payload = npys[(i + t) % len(npys)] if "npy" in spec else b""
            write(out, bytes([t, i & 255]) + spec.encode() + b"\n" + payload)
    for i, image in enumerate(npys):
        write(out, bytes([0x17 if i % 2 else 0x13, 0]) + b"x=in.npy\n" + image)


def seeds_runtime(out):
    grids = {"1", "cdiv(n, BLOCK)", "cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N)", "min(num_sms, n)",
             "max(1, n // 2) % 7", "-(-n // BLOCK)", "num_sms * occupancy", "(n + 127) // 128"}
    for path in metadata_files():
        text = read(path)
        write(out, b"\x00" + text)
        write(out, b"\x03" + text)
        try:
            for g in json.loads(text).get("grid", []):
                grids.add(g)
        except (ValueError, AttributeError):
            pass
    for g in sorted(grids):
        write(out, b"\x01" + g.encode())
        write(out, b"\x01" + g.encode() + b"\n" + struct.pack("<3q", 1 << 40, -3, 2**63 - 1))
    images = sorted(glob.glob(os.path.join(BUILD, "test", "**", "*.cubin"), recursive=True))
    images += sorted(glob.glob(os.path.join(BUILD, "test", "**", "*.ptx"), recursive=True))
    for path in images[:12] + images[-12:]:
        write(out, b"\x02" + read(path, 16384))
    write(out, b"\x02.version 8.0\n.target sm_90a\n.address_size 64\n")
    write(out, b"\x02" + b"\x7fELF\x02\x01\x01" + b"\0" * 57)  # a header-only ELF
    for j in ('{"a": [1, 2.5, -3e10, true, null, "x\\u00e9\\n"], "b": {}}', "[]", '"\\ud83d\\ude00"'):
        write(out, b"\x03" + j.encode())


TARGETS = {"frontend": seeds_frontend, "pipeline": seeds_pipeline,
           "interpreter-args": seeds_interpreter, "runtime": seeds_runtime}

if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in TARGETS:
        sys.exit(__doc__)
    BUILD = sys.argv[3] if len(sys.argv) == 4 else os.path.join(ROOT, "build-asan")
    os.makedirs(sys.argv[2], exist_ok=True)
    TARGETS[sys.argv[1]](sys.argv[2])
    print("%s: %d seeds in %s" % (sys.argv[1], len(os.listdir(sys.argv[2])), sys.argv[2]))

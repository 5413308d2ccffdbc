#!/usr/bin/env python3
"""Exporting every M3GM of a level as GLB (`assay extract LEVEL --models`) against `assay oni check`
of the same level (issue 27 item 6: within 3x).

Generates level0_Final.dat/.raw with N M3GMs (a GRID x GRID sheet of points each, one strip per row,
its own PNTA/VCRA/VCRA/TXCA/IDXA/IDXA) sharing one 64 x 64 BGR32 TXMP, with the level writer of
bench/oni_check_bench.py (independent of assay's) and the PC v1.0 template checksums of
../shared/specs/oni-templates.txt, so both commands walk it with the built-in layouts.

Usage: python3 bench/oni_m3gm_bench.py path/to/assay [workdir] [models]
"""
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from oni_check_bench import file_id, tag, write_level  # noqa: E402

GRID = 16
ROUNDS = 7
CHECKSUMS = {tag("M3GM"): 0x27A078E436, tag("PNTA"): 0x37676C, tag("VCRA"): 0x54739, tag("TXCA"): 0x9141A,
             tag("IDXA"): 0x2708F, tag("TXMP"): 0x891187581}


def array(count_at, elems):
    """An array instance's payload after the 8-byte header: padding, count, elements."""
    return bytes(count_at - 8) + struct.pack("<I", len(elems)) + b"".join(elems)


def model(base, txmp):
    """M3GM at index base, its arrays at base+1..base+6 (payloads after the instance header)."""
    pts = [(x * 0.1, y * 0.1, 0.0) for y in range(GRID) for x in range(GRID)]
    strips, tris = [], 0
    for y in range(GRID - 1):  # one strip per row: (x, y+1), (x, y) alternating
        row = []
        for x in range(GRID):
            row += [(y + 1) * GRID + x, y * GRID + x]
        row[0] |= 0x80000000
        strips += row
        tris += len(row) - 2
    lo, hi = (0.0, 0.0, 0.0), ((GRID - 1) * 0.1, (GRID - 1) * 0.1, 0.0)
    c = tuple((a + b) / 2 for a, b in zip(lo, hi))
    r = ((hi[0] - c[0]) ** 2 + (hi[1] - c[1]) ** 2) ** 0.5 * 1.001
    pnta = bytes(0x0C) + struct.pack("<10f", *lo, *hi, *c, r) + struct.pack("<I", len(pts)) + b"".join(struct.pack("<3f", *p) for p in pts)
    vn = array(0x1C, [struct.pack("<3f", 0, 0, 1)] * len(pts))
    fn = array(0x1C, [struct.pack("<3f", 0, 0, 1), struct.pack("<3f", 0, 0, -1)])
    uv = array(0x1C, [struct.pack("<2f", p[0], 1 - p[1]) for p in pts])
    st = array(0x1C, [struct.pack("<I", v) for v in strips])
    # strip triangles alternate +z/-z by vertex order; half get the -z face normal (the rule turns them)
    fni = array(0x1C, [struct.pack("<I", k % 2) for k in range(tris)])
    m3gm = bytes(4) + b"".join(struct.pack("<I", (base + k) << 8 | 1) for k in range(1, 7)) + struct.pack("<II", txmp << 8 | 1, 0)
    return [(tag("M3GM"), "M3GMm%d" % base, 0, m3gm), (tag("PNTA"), None, 0, pnta), (tag("VCRA"), None, 0, vn),
            (tag("VCRA"), None, 0, fn), (tag("TXCA"), None, 0, uv), (tag("IDXA"), None, 0, st), (tag("IDXA"), None, 0, fni)]


def generate(folder, n):
    txmp = bytearray(0xAC - 8)  # PC v1.0 TXMP: flags 0x88, width 0x8C, height 0x8E, format 0x90, raw 0x9C
    struct.pack_into("<IHHI", txmp, 0x88 - 8, 0, 64, 64, 8)
    struct.pack_into("<I", txmp, 0x9C - 8, 32)
    insts = [(tag("TXMP"), "TXMPshared", 0, bytes(txmp))]
    for k in range(n):
        insts += model(len(insts), 0)
    write_level(os.path.join(folder, "level0_Final.dat"), file_id(0, "Final"), insts, CHECKSUMS)
    with open(os.path.join(folder, "level0_Final.raw"), "wb") as f:
        f.write(bytes(32) + bytes((i * 37) & 255 for i in range(64 * 64 * 4)))


def best_and_median(cmds):
    walls = {k: [] for k in cmds}
    for _ in range(ROUNDS):  # interleaved, so a noisy stretch of the shared machine hits both
        for label, (cmd, before) in cmds.items():
            if before:
                before()
            t = time.perf_counter()
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            walls[label].append(time.perf_counter() - t)
            if r.returncode != 0:
                sys.exit("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr))
    return {k: (min(v), statistics.median(v)) for k, v in walls.items()}


def main():
    assay = os.path.abspath(sys.argv[1])
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="oni-m3gm-bench-")
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    os.makedirs(work, exist_ok=True)
    generate(work, n)
    level = os.path.join(work, "level0_Final.dat")
    # the GLBs go to a tmpfs when there is one (/dev/shm): the ratio is the export, not the disk
    out = os.path.join("/dev/shm" if os.path.isdir("/dev/shm") else work, "oni-m3gm-bench-glb-%d" % os.getpid())
    cmds = {"oni check": ([assay, "oni", "check", level, "--json", "--threads", "1"], None),
            "extract --models": ([assay, "extract", level, "--models", "-o", out, "-q", "--threads", "1"],
                                 lambda: shutil.rmtree(out, ignore_errors=True))}
    res = best_and_median(cmds)
    glbs = len([f for f in os.listdir(out) if f.endswith(".glb")])
    print("%d M3GMs of %d points (%d GLB written), level %d bytes" % (n, GRID * GRID, glbs, os.path.getsize(level)))
    for k, (b, m) in res.items():
        print("%-18s best %.3f s, median %.3f s" % (k + ":", b, m))
    rb = res["extract --models"][0] / res["oni check"][0]
    rm = res["extract --models"][1] / res["oni check"][1]
    print("ratio extract --models / oni check: best %.2fx, median %.2fx (bar: 3x)" % (rb, rm))
    shutil.rmtree(out, ignore_errors=True)
    return 0 if glbs == n else 1


if __name__ == "__main__":
    sys.exit(main())

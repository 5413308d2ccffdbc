#!/usr/bin/env python3
"""`assay extract MODELS.DFF -o DIR` (every clump to glTF) against `assay rw tree` over the same file.

Usage: python3 bench/rw_model_bench.py [--assay build/<you>/assay] [--rounds 15] [DFF]

Default DFF: Manhunt's mh1_ps2_MODELS.DFF in ../shared/samples/renderware/more (79 clumps, 84
atomics, 29,675 triangles). Runs the two commands in interleaved rounds (extract into a fresh
empty folder each time, tree to /dev/null) and prints the median CPU time (user + system of the
child, from wait4) and peak resident size of each, and the ratio extract / tree. The issue's bar:
the ratio at most 3. Extract runs on one thread, as tree does: with two, the same work costs more
CPU (the kernel's file creation contends) though it ends sooner. The figures go to docs/PERFORMANCE.md ("Models to glTF").
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd):
    """CPU seconds and peak RSS (KiB) of one run of cmd."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(cmd, stdout=null, stderr=null)
        _, status, usage = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--assay", default=os.path.join(ROOT, "build", "default", "assay"))
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("dff", nargs="?",
                    default=os.path.join(ROOT, "..", "shared", "samples", "renderware", "more", "mh1_ps2_MODELS.DFF"))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="rw-model-bench-")
    times = {"extract": [], "tree": []}
    rss = {"extract": 0, "tree": 0}
    try:
        for r in range(a.rounds):
            out = os.path.join(work, f"o{r}")
            for name, cmd in (("tree", [a.assay, "rw", "tree", a.dff]),
                              ("extract", [a.assay, "extract", "-q", "--threads", "1", a.dff, "-o", out])):
                t, m = run(cmd)
                times[name].append(t)
                rss[name] = max(rss[name], m)
            shutil.rmtree(out)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    for k in ("tree", "extract"):
        print(f"{k:8s} median CPU {med[k] * 1000:8.1f} ms   peak RSS {rss[k] / 1024:6.1f} MiB")
    print(f"ratio extract / tree: {med['extract'] / med['tree']:.2f} (bar: 3)")


if __name__ == "__main__":
    main()

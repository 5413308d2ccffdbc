#!/usr/bin/env python3
"""Extracting every texture of skylanders_zap.pak as PNG against extracting the same members as
stored (issue #28 item 5, bar: ratio <= 2).

Usage: python3 bench/igz_texture_bench.py [--assay build/<you>/assay] [--rounds 10] [PAK]

Runs, in interleaved rounds, each into a fresh empty folder:
  raw: assay extract PAK -o OUT 'textures\\*'              (the 22 igz members, inflated)
  png: assay extract PAK -o OUT 'textures\\*' --textures   (their igImage2s as PNG)
and prints the median CPU time (user + system of the child, from wait4) of each and png / raw.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_once(argv, out):
    shutil.rmtree(out, ignore_errors=True)
    devnull = os.open(os.devnull, os.O_WRONLY)
    argv = [w.replace("{out}", out) for w in argv]
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(argv)}")
    return (ru.ru_utime + ru.ru_stime) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--assay", default=os.path.join(ROOT, "build", "default", "assay"))
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("pak", nargs="?", default=os.path.join(ROOT, "..", "shared", "samples", "alchemy", "skylanders_zap.pak"))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="igz-texture-bench-")
    out = os.path.join(work, "out")
    cmds = {"raw": [a.assay, "extract", a.pak, "-o", "{out}", "textures\\*", "-q"],
            "png": [a.assay, "extract", a.pak, "-o", "{out}", "textures\\*", "--textures", "-q"]}
    times = {k: [] for k in cmds}
    for _ in range(a.rounds):
        for k, argv in cmds.items():
            times[k].append(run_once(argv, out))
    shutil.rmtree(work, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"raw {med['raw']:.1f} ms CPU, png {med['png']:.1f} ms CPU (median of {a.rounds})")
    print(f"ratio png / raw: {med['png'] / med['raw']:.2f} (bar 2)")


if __name__ == "__main__":
    main()

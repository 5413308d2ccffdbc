#!/usr/bin/env python3
"""Extracting every texture of skylanders_zap.pak as PNG against extracting the same members as
stored (issue #28 item 5, bar: ratio <= 2 on the user's wall time).

Usage: python3 bench/igz_texture_bench.py [--assay build/<you>/assay] [--rounds 10] [--threads N] [PAK]

Runs, in interleaved rounds, each into a fresh empty folder and both with the same --threads N
(default: every core, as a user's command runs):
  raw: assay extract PAK -o OUT 'textures\\*' --threads N              (the 22 igz members, inflated)
  png: assay extract PAK -o OUT 'textures\\*' --threads N --textures   (their igImage2s as PNG)
and prints for each the median wall time and the median CPU time (user + system of the child, from
wait4), then png / raw of both. The bar is on the wall-time ratio (the time a user waits); the CPU
ratio says how much more work the PNGs are, whatever the cores.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_once(argv, out):
    shutil.rmtree(out, ignore_errors=True)
    devnull = os.open(os.devnull, os.O_WRONLY)
    argv = [w.replace("{out}", out) for w in argv]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, os.environ,
                         file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    wall = (time.perf_counter() - start) * 1e3
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(argv)}")
    return wall, (ru.ru_utime + ru.ru_stime) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--assay", default=os.path.join(ROOT, "build", "default", "assay"))
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="--threads of both commands")
    ap.add_argument("pak", nargs="?", default=os.path.join(ROOT, "..", "shared", "samples", "alchemy", "skylanders_zap.pak"))
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="igz-texture-bench-")
    out = os.path.join(work, "out")
    common = [a.assay, "extract", a.pak, "-o", "{out}", "textures\\*", "-q", "--threads", str(a.threads)]
    cmds = {"raw": common, "png": common + ["--textures"]}
    walls = {k: [] for k in cmds}
    cpus = {k: [] for k in cmds}
    for _ in range(a.rounds):
        for k, argv in cmds.items():
            wall, cpu = run_once(argv, out)
            walls[k].append(wall)
            cpus[k].append(cpu)
    shutil.rmtree(work, ignore_errors=True)
    wall = {k: statistics.median(v) for k, v in walls.items()}
    cpu = {k: statistics.median(v) for k, v in cpus.items()}
    load = os.getloadavg()[0]
    print(f"--threads {a.threads}, median of {a.rounds} rounds, load average {load:.1f} on {os.cpu_count()} cores")
    print(f"raw {wall['raw']:.1f} ms wall, {cpu['raw']:.1f} ms CPU; png {wall['png']:.1f} ms wall, {cpu['png']:.1f} ms CPU")
    print(f"ratio png / raw: wall {wall['png'] / wall['raw']:.2f} (bar 2), CPU {cpu['png'] / cpu['raw']:.2f}")


if __name__ == "__main__":
    main()

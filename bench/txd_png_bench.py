#!/usr/bin/env python3
"""`assay extract X.txd -o DIR` against librw decoding the same dictionary to PNG (issue 29 item 8).

Usage: python3 bench/txd_png_bench.py [--assay build/<you>/assay] [--before OTHER_ASSAY] [--rounds 40]
                                      [--librw GIT_DIR] [--work /tmp/txd-png-bench] [TXD...]

Builds librw (aap/librw, NULL platform, its own CMake, Release) from the git directory --librw
(default: the fetched mirror /work/.mirror/aap+librw/repo) in --work, then the peer driver
bench/librw_txd_png.cpp against it (g++ -O2, libspng): it reads the dictionary with librw
(TexDictionary::streamRead, Raster::toImage on each texture's top level) and writes one PNG per
texture, either with librw's own writePNG (lodepng: indexed for PAL4/PAL8, RGB or RGBA otherwise)
or with libspng at its defaults (indexed + tRNS for PAL4/PAL8, RGB or RGBA otherwise). Then, for
every dictionary (default: every *.txd under ../shared/samples/renderware whose first section is a
texture dictionary), runs the three commands in interleaved rounds, each into a fresh empty folder,
and prints the median CPU time (user + system of the child, from wait4) of each and the ratios
assay / librw. A ratio under 1 means assay used less CPU. Both write the top level of every texture
(assay's default; librw's toImage takes level 0). Never run in CI (it needs librw's source and a
build of it); the figures go to docs/PERFORMANCE.md ("Small textures"). --before runs a second
assay build (e.g. of an earlier commit) in the same interleaved rounds, with its own ratios.
"""
import argparse
import glob
import os
import shutil
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def build_librw(git_dir, work):
    """Returns the path of the built driver (reused when it is already there)."""
    driver = os.path.join(work, "librw_txd_png")
    src, bld = os.path.join(work, "librw-src"), os.path.join(work, "librw-build")
    if os.path.exists(driver) and os.path.getmtime(driver) > os.path.getmtime(os.path.join(HERE, "librw_txd_png.cpp")):
        return driver
    if not os.path.isdir(src):
        os.makedirs(src)
        archive = subprocess.run(["git", "--git-dir", git_dir, "archive", "HEAD"], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", src], input=archive, check=True)
    if not os.path.exists(os.path.join(bld, "src", "liblibrw.a")):
        subprocess.run(["cmake", "-S", src, "-B", bld, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                        "-DLIBRW_PLATFORM=NULL", "-DLIBRW_TOOLS=OFF", "-DLIBRW_INSTALL=OFF"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["nice", "cmake", "--build", bld, "-j2"], check=True, stdout=subprocess.DEVNULL)
    lib = glob.glob(os.path.join(bld, "**", "*librw*.a"), recursive=True)
    if not lib:
        sys.exit("librw build produced no static library under " + bld)
    subprocess.run(["g++", "-std=c++17", "-O2", "-DRW_NULL", "-I", src, "-o", driver,
                    os.path.join(HERE, "librw_txd_png.cpp"), lib[0], "-lspng", "-lz", "-lm", "-lpthread"], check=True)
    return driver


def is_dictionary(path):
    with open(path, "rb") as f:
        head = f.read(12)
    return len(head) == 12 and struct.unpack("<I", head[:4])[0] == 0x16


def run_once(argv, out):
    """CPU milliseconds (user + system) of one run writing into a fresh `out`; exit code."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    devnull = os.open(os.devnull, os.O_WRONLY)
    argv = [w.replace("{out}", out) for w in argv]
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, status, ru = os.wait4(pid, 0)
    os.close(devnull)
    return (ru.ru_utime + ru.ru_stime) * 1e3, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--assay", default=os.path.join(ROOT, "build", "default", "assay"))
    ap.add_argument("--before", help="another assay executable, run in the same rounds (before/after)")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--librw", default="/work/.mirror/aap+librw/repo")
    ap.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "txd-png-bench"))
    ap.add_argument("txd", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    driver = build_librw(a.librw, a.work)
    files = a.txd or sorted(p for p in glob.glob(os.path.join(ROOT, "..", "shared", "samples", "renderware", "**", "*"),
                                                 recursive=True)
                            if p.lower().endswith(".txd") and is_dictionary(p))
    assay = os.path.abspath(a.assay)
    cmds = [("assay", [assay, "extract", None, "-o", "{out}"]),
            ("librw+lodepng", [driver, "--writer", "lodepng", None, "{out}"]),
            ("librw+spng", [driver, "--writer", "spng", None, "{out}"])]
    if a.before:
        cmds.append(("before", [os.path.abspath(a.before), "extract", None, "-o", "{out}"]))
    print(f"{a.rounds} interleaved rounds, median CPU ms (user + sys); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'dictionary':34} {'assay':>8} {'lodepng':>8} {'spng':>8} {'assay/lodepng':>14} {'assay/spng':>11}"
          + (f" {'before':>8} {'before/lodepng':>15} {'before/spng':>12}" if a.before else ""))
    worst = 0.0
    for path in files:
        out = os.path.join(a.work, "out")
        argvs = [[path if w is None else w for w in argv] for _, argv in cmds]
        cpu = [[] for _ in cmds]
        for r in range(a.rounds):
            for k, argv in enumerate(argvs):
                ms, rc = run_once(argv, out)
                if r == 0 and rc != 0:
                    print(f"  note: {cmds[k][0]} exited {rc} on {os.path.basename(path)}")
                cpu[k].append(ms)
        med = [sorted(c)[len(c) // 2] for c in cpu]
        r1, r2 = med[0] / med[1], med[0] / med[2]
        worst = max(worst, r1, r2)
        print(f"{os.path.relpath(path, os.path.join(ROOT, '..', 'shared', 'samples', 'renderware')):34} "
              f"{med[0]:8.2f} {med[1]:8.2f} {med[2]:8.2f} {r1:13.2f}x {r2:10.2f}x"
              + (f" {med[3]:8.2f} {med[3] / med[1]:14.2f}x {med[3] / med[2]:11.2f}x" if a.before else ""))
    print(f"worst ratio {worst:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

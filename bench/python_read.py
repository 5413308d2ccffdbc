#!/usr/bin/env python3
"""Python read benchmark (issue 14, docs/PERFORMANCE.md "## Python"). Not part of ctest.

  /usr/bin/python3 bench/python_read.py [BUILD_DIR] [--mib 64] [--runs 3] [--archive PATH]

Builds a folder of text-like files (one large, several medium, many small; --mib in total),
packs it with `assay pack igarchive` (LZMA, the default), then in the same run measures, best of
--runs each:
  1. `assay extract ARCHIVE -o DIR --force` (the baseline, wall time of the process);
  2. Python: `import assay`, open, `c.read(e)` for every entry, in a fresh interpreter
     (wall time of the process, so both include start-up);
  3. the same with `c.read_many()` (all entries decoded in parallel).
Prints python / extract ratios (target: at most 1.3) and checks that Python's bytes equal the
extracted files."""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

READ_LOOP = """
import sys, assay
c = assay.open(sys.argv[1])
n = 0
for e in c.entries:
    n += len(c.read(e))
print(n)
"""
READ_MANY = """
import sys, assay
c = assay.open(sys.argv[1])
print(sum(len(b) for b in c.read_many()))
"""


def text_like(rng, size):
    """Records with numbers and words: LZMA compresses them about 3x, like game text tables."""
    words = [b"alpha", b"bravo", b"charlie", b"delta", b"echo", b"foxtrot", b"golf", b"hotel", b"india"]
    out = bytearray()
    while len(out) < size:
        out += b"%d,%s,%s,%0.3f;\n" % (rng.randrange(1 << 20), rng.choice(words), rng.choice(words), rng.random())
    return bytes(out[:size])


def make_folder(d, mib, rng):
    mi = 1 << 20
    sizes = [mib * mi * 3 // 8] + [mib * mi // 16] * 6 + [mib * mi // 256] * 64  # 37.5% + 37.5% + 25%
    block = text_like(rng, 4 * mi)
    for i, n in enumerate(sizes):
        sub = "big" if i == 0 else "medium" if i < 7 else "small"
        os.makedirs(os.path.join(d, sub), exist_ok=True)
        with open(os.path.join(d, sub, "file%03d.txt" % i), "wb") as f:
            left, k = n, 0
            while left > 0:  # rotated copies of one random block, so every file differs
                piece = block[(k * 7919 + i * 104729) % len(block):] + block
                f.write(piece[:min(left, mi)])
                left -= min(left, mi)
                k += 1
    return len(sizes), sum(sizes)


def timed(cmd, env=None):
    """Runs cmd; returns (wall seconds, stdout, CPU seconds user+sys of the child, via wait4)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out, err = p.stdout.read(), p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err.decode()))
    return wall, out, ru.ru_utime + ru.ru_stime


def best(runs, fn):
    return min((fn() for _ in range(runs)), key=lambda r: r[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default=os.path.join(HERE, "..", "build", "default"))
    ap.add_argument("--mib", type=int, default=64)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--archive", help="reuse (or create) the archive at this path")
    a = ap.parse_args()
    assay = os.path.join(a.build, "assay")
    env = dict(os.environ, PYTHONPATH=os.path.join(a.build, "python"))
    tmp = tempfile.mkdtemp(prefix="py-bench-")
    try:
        archive = a.archive or os.path.join(tmp, "bench.bld")
        if not os.path.exists(archive):
            folder = os.path.join(tmp, "in")
            n, total = make_folder(folder, a.mib, random.Random(14))
            t, _ = timed([assay, "pack", "igarchive", "-o", archive, folder])
            print("packed %d files, %.1f MiB -> %.1f MiB (LZMA) in %.1f s" % (n, total / 2**20, os.path.getsize(archive) / 2**20, t))
            shutil.rmtree(folder)
        out = os.path.join(tmp, "out")
        extract, _, extract_cpu = best(a.runs, lambda: timed([assay, "-q", "extract", archive, "-o", out, "--force"]))
        loop, got, loop_cpu = best(a.runs, lambda: timed([sys.executable, "-c", READ_LOOP, archive], env))
        many, _, many_cpu = best(a.runs, lambda: timed([sys.executable, "-c", READ_MANY, archive], env))
        total = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(out) for f in fs)
        assert int(got) == total, (got, total)
        check = ("import sys, os, assay\nc = assay.open(sys.argv[1])\n"
                 "assert all(c.read(e) == open(os.path.join(sys.argv[2], e.path), 'rb').read() for e in c.entries)")
        timed([sys.executable, "-c", check, archive, out], env)
        print("cores %d, load %.1f; %.1f MiB decoded; best of %d" % (os.cpu_count(), os.getloadavg()[0], total / 2**20, a.runs))
        print("                          wall            CPU (user+sys)")
        print("assay extract             %.2f s           %.2f s" % (extract, extract_cpu))
        print("python read() loop        %.2f s  x%.2f    %.2f s  x%.2f   (target: wall x <= 1.3)"
              % (loop, loop / extract, loop_cpu, loop_cpu / extract_cpu))
        print("python read_many()        %.2f s  x%.2f    %.2f s  x%.2f" % (many, many / extract, many_cpu, many_cpu / extract_cpu))
        print("python bytes equal the extracted files: yes")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()

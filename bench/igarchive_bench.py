#!/usr/bin/env python3
"""igArchive extract benchmark (issue 2, docs/PERFORMANCE.md "## igarchive"). Not part of ctest.

  python3 bench/igarchive_bench.py [BUILD_DIR] [--mib 256] [--runs 3]

Makes a synthetic LZMA archive (bench_igarchive gen), then in the same run measures:
  1. plain liblzma, one thread, decoding every block of it (bench_igarchive baseline);
  2. `assay extract --threads CORES` (wall time and peak RSS of the process, via wait4);
  3. bench/igarchive_extract.py, a straightforward single-threaded Python extractor;
  4. `assay list --json` and `assay info --json` on a tiny and on the large archive.
Prints the ratios the issue asks for. Best of --runs for each timing."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd):
    """Runs cmd; returns (seconds, peak RSS bytes of the child, CPU seconds of the child)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit('failed: %s\n%s' % (' '.join(cmd), p.stderr.read().decode()))
    return dt, ru.ru_maxrss * 1024, ru.ru_utime + ru.ru_stime


def best(n, fn):
    return min((fn() for _ in range(n)), key=lambda r: r[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('build', nargs='?', default=os.path.join(HERE, '..', 'build', 'default'))
    ap.add_argument('--mib', type=int, default=256)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('--archive', help='reuse (or create) the synthetic archive at this path')
    a = ap.parse_args()
    assay = os.path.join(a.build, 'assay')
    helper = os.path.join(a.build, 'bench', 'bench_igarchive')
    cores = os.cpu_count() or 1
    tmp = tempfile.mkdtemp(prefix='iga-bench-')
    try:
        big, tiny = a.archive or os.path.join(tmp, 'big.bld'), os.path.join(tmp, 'tiny.bld')
        t0 = time.perf_counter()
        if a.archive and os.path.exists(big + '.info'):
            gen = open(big + '.info').read().strip()
        else:
            gen = subprocess.run([helper, 'gen', big, str(a.mib)], check=True, capture_output=True, text=True).stdout.strip()
            if a.archive:
                open(big + '.info', 'w').write(gen)
        print('generated in %.1f s: %s' % (time.perf_counter() - t0, gen))
        subprocess.run([helper, 'tiny', tiny], check=True)
        largest = int(gen.rsplit(' ', 1)[1])
        total = a.mib << 20

        def baseline():
            out = subprocess.run([helper, 'baseline', big], check=True, capture_output=True, text=True).stdout.split()
            return float(out[0]), int(out[1]), float(out[2])
        base_s, base_bytes, base_cpu = best(a.runs, baseline)
        assert base_bytes == total
        single = total / base_s

        def extract(cmd_prefix):
            def go():
                out = os.path.join(tmp, 'out')
                shutil.rmtree(out, ignore_errors=True)
                return run(cmd_prefix + [out])
            return go
        ex_s, ex_rss, ex_cpu = best(a.runs, extract([assay, '-q', 'extract', '--threads', str(cores), big, '-o']))
        py_s, py_rss, py_cpu = best(1, extract([sys.executable, os.path.join(HERE, 'igarchive_extract.py'), big]))
        # Output check: assay and the Python baseline agree byte for byte.
        ref = os.path.join(tmp, 'ref')
        run([sys.executable, os.path.join(HERE, 'igarchive_extract.py'), big, ref])
        mine = os.path.join(tmp, 'out')
        shutil.rmtree(mine, ignore_errors=True)
        run([assay, '-q', 'extract', big, '-o', mine])
        same = subprocess.run(['diff', '-rq', ref, mine]).returncode == 0
        shutil.rmtree(ref, ignore_errors=True)

        def small_cmd(verb, f):
            return lambda: run([assay, verb, '--json', f])
        li_small = best(10, small_cmd('list', tiny))[0]
        li_big = best(10, small_cmd('list', big))[0]
        in_small = best(10, small_cmd('info', tiny))[0]
        in_big = best(10, small_cmd('info', big))[0]

        mib = 1 << 20
        ex_rate = total / ex_s
        print('cores: %d' % cores)
        print('plain liblzma, 1 thread, same blocks: %.1f MiB/s (%.3f s)' % (single / mib, base_s))
        print('assay extract --threads %d:          %.1f MiB/s (%.3f s)' % (cores, ex_rate / mib, ex_s))
        print('  ratio vs cores x single-thread:     %.2f (target >= 0.85)' % (ex_rate / (cores * single)))
        print('  CPU: baseline %.2f s, extract %.2f s (user+sys); CPU-normalised ratio %.2f' % (
            base_cpu, ex_cpu, base_cpu / ex_cpu))
        print('  load average at the end: %.1f' % os.getloadavg()[0])
        print('python3 single-thread extractor:      %.1f MiB/s (%.3f s)' % (total / py_s / mib, py_s))
        print('  assay extract speed-up vs python:   %.2fx (wall); CPU: python %.2f s, so %.2fx with %d idle cores' % (
            py_s / ex_s, py_cpu, py_cpu / (ex_cpu / cores), cores))
        print('outputs identical to the python extractor: %s' % same)
        print('peak RSS of extract: %.1f MiB; largest file + 64 MiB = %.1f MiB (%s)' % (
            ex_rss / mib, (largest + 64 * mib) / mib, 'ok' if ex_rss <= largest + 64 * mib else 'OVER'))
        print('peak RSS of the python extractor: %.1f MiB' % (py_rss / mib))
        print('list --json: tiny %.1f ms, %d MiB archive %.1f ms' % (li_small * 1e3, a.mib, li_big * 1e3))
        print('info --json: tiny %.1f ms, %d MiB archive %.1f ms' % (in_small * 1e3, a.mib, in_big * 1e3))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()

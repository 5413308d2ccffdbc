#!/usr/bin/env python3
"""Runs commands interleaved, round after round, and prints each one's wall time (min, quartiles,
p90) and median CPU (the child's rusage): a noisy shared machine then slows every command alike.

Usage: python3 bench/interleave.py ROUNDS CMD... '|||' [VAR=VALUE] CMD... '|||' ...
  e.g. python3 bench/interleave.py 60 build/a/assay oni check /tmp/oni-bench '|||' /usr/bin/cat /tmp/oni-bench/level0_Final.dat
Commands are started with posix_spawn (give the program's full path), their output discarded;
leading VAR=VALUE words set the command's environment. Used for the interleaved figures of
docs/PERFORMANCE.md#oni. Not part of ctest.
"""
import os
import sys
import time


def parse(args):
    """[(env overrides, argv)] from words separated by '|||'."""
    cmds, cur = [], []
    for a in args + ["|||"]:
        if a != "|||":
            cur.append(a)
            continue
        env, argv = {}, []
        for w in cur:
            if not argv and "=" in w and not w.startswith("/"):
                k, v = w.split("=", 1)
                env[k] = v
            else:
                argv.append(w)
        cmds.append((env, argv))
        cur = []
    return cmds


def run_once(env, argv, devnull):
    """(wall ms, cpu ms) of one run."""
    e = dict(os.environ)
    e.update(env)
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, e, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
    _, _, ru = os.wait4(pid, 0)
    return (time.perf_counter() - t0) * 1e3, (ru.ru_utime + ru.ru_stime) * 1e3


def main():
    rounds = int(sys.argv[1])
    cmds = parse(sys.argv[2:])
    devnull = os.open(os.devnull, os.O_WRONLY)
    res = [[] for _ in cmds]
    for _ in range(rounds):
        for k, (env, argv) in enumerate(cmds):
            res[k].append(run_once(env, argv, devnull))
    for k, (env, argv) in enumerate(cmds):
        w = sorted(x[0] for x in res[k])
        cpu = sorted(x[1] for x in res[k])
        q = lambda a, p: a[int(p * (len(a) - 1))]
        label = " ".join(["%s=%s" % kv for kv in env.items()] + argv)[-60:]
        print("%-60s wall min %.2f p25 %.2f med %.2f p75 %.2f p90 %.2f | cpu med %.2f" %
              (label, w[0], q(w, .25), q(w, .5), q(w, .75), q(w, .9), q(cpu, .5)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

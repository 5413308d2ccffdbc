#!/usr/bin/env python3
"""`assay oni check` against a straightforward single-threaded Python reference walker.

Generates a synthetic 15-level set at the seed's scale (155,232 instances, 358,404 links, each file
walked once) with its own minimal writer (independent of assay's), walks it with the reference
walker below (written from ../shared/specs/oni.md sections 3-7 and docs/cli.md's hash definition),
checks that both agree on every count and the hash, and prints the time ratio.

Usage: python3 bench/oni_check_bench.py path/to/assay [workdir]
       python3 bench/oni_check_bench.py --verify path/to/assay [workdir]
The timing run is not part of ctest. --verify (ctest oni_check_reference) generates the same set at a
twentieth of the scale and only checks that assay (one thread and two) and the reference walker
agree on every count and the hash: the walk hash's definition (docs/cli.md) pinned by an independent
implementation.
"""
import os
import struct
import subprocess
import sys
import tempfile
import time
import json
import resource
import statistics

LEVELS = [0, 1, 2, 3, 4, 6, 8, 9, 10, 11, 12, 13, 14, 18, 19]
TOTAL_INSTANCES = 155232
TOTAL_LINKS = 358404
ROUNDS = 15  # interleaved runs of each command (best and median reported)

LAYOUTS = """# assay layouts v1
# source: synthetic benchmark (spec oni.md#oni-5-3 illustrations, not Oni's layouts)
ZPTS 0x00000000000000a1 6 02 02 05 14 04 06 07 02 05 03 02 06 08 06  # point array
ZTEX 0x00000000000000a2 4 02 02 05 10 04 06 02 03 03 09 4d 4e 41 5a 09 00 00 00 00 0a 06  # texture-like
ZLST 0x00000000000000a3 0x0 02 02 05 16 04 06 07 03 09 00 00 00 00 08 06  # link list
ZANM 0x00000000000000a4 2 02 02 05 18 04 06 06  # leaf
"""


def tag(s):
    return struct.unpack(">I", s.encode())[0]


def suffix_hash(s):
    if s == "Final":
        return 0
    h = 0
    for i, c in enumerate(s, 1):
        o = ord(c)
        if 97 <= o <= 122:
            o -= 32
        h = (h + (o - 0x40) * i) & 0xFFFFFFFF
    return h


def file_id(level, suffix):
    return ((level & 0x7F) << 25) | ((suffix_hash(suffix) & 0xFFFFFF) << 1) | 1


# ---------------------------------------------------------------- generator (own minimal writer)

def write_level(path, fid, insts, checksums):
    """insts: list of (tag, name or None, flags, payload bytes after the 8-byte header or None)."""
    data = bytearray()
    names = bytearray()
    descs = []
    for i, (tg, name, flags, payload) in enumerate(insts):
        noff = 0
        if name is not None:
            noff = len(names)
            names += name.encode() + b"\0"
        else:
            flags |= 1
        if payload is None:
            descs.append((tg, 0, noff, 0, flags))
            continue
        at = len(data)
        body = struct.pack("<II", i << 8 | 1, fid) + payload
        body += bytes((0xAD if (k & 1) == 0 else 0xDE) for k in range(len(body), (len(body) + 31) // 32 * 32))
        data += body
        descs.append((tg, at + 8, noff, len(body), flags))
    order = sorted((n.encode(), i) for i, (t, n, f, p) in enumerate(insts) if n is not None)
    counts = {}
    for t, n, f, p in insts:
        counts[t] = counts.get(t, 0) + 1
    out = bytearray(0x40)
    for d in descs:
        out += struct.pack("<IIIII", *d)
    for _, i in order:
        out += struct.pack("<II", i, 0)
    for t in sorted(counts):
        out += struct.pack("<QII", checksums[t], t, counts[t])
    out += bytes(-len(out) % 32)
    data_at = len(out)
    out += data
    out += bytes(-len(out) % 32)
    names_at = len(out)
    out += names
    struct.pack_into("<QIHHHHIIIIIII", out, 0, 0x0003BCDF33DC271F, 0x56523331, 0x40, 0x14, 0x10, 0x08,
                     len(insts), len(order), len(counts), data_at, len(data), names_at, len(names))
    with open(path, "wb") as f:
        f.write(out)


def generate(folder, scale=1):
    """The set at the seed's scale divided by `scale`."""
    checks = {tag("ZPTS"): 0xA1, tag("ZTEX"): 0xA2, tag("ZLST"): 0xA3, tag("ZANM"): 0xA4}
    n0, l0 = 9347 // scale, 5539 // scale
    rest_n, rest_l = TOTAL_INSTANCES // scale - n0, TOTAL_LINKS // scale - l0
    k = len(LEVELS) - 1
    for li, level in enumerate(LEVELS):
        if level == 0:
            n, m, ph = n0, l0, 43
        else:
            n = rest_n // k + (1 if li - 1 < rest_n % k else 0)
            m = rest_l // k + (1 if li - 1 < rest_l % k else 0)
            ph = 40 + li * 3
        n_lst = n // 5
        n_pts = n // 5
        n_copy = 0 if level == 0 else 50  # own copies of level-0 names: level 0's copy wins
        n_anm = n - n_lst - n_pts - ph - n_copy
        insts = []
        anm = list(range(len(insts), len(insts) + n_anm))
        insts += [(tag("ZANM"), "ZANMa%d_%d" % (level, i), 0, bytes(0x18)) for i in range(n_anm)]
        copies = list(range(len(insts), len(insts) + n_copy))
        insts += [(tag("ZANM"), "ZANMa0_%d" % i, 0, bytes(0x18)) for i in range(n_copy)]
        pts = list(range(len(insts), len(insts) + n_pts))
        insts += [(tag("ZPTS"), None, 0, bytes(0x14) + struct.pack("<I", 1) + bytes(12)) for _ in range(n_pts)]
        phs = list(range(len(insts), len(insts) + ph))
        for j in range(ph):  # level 0: names only a later level has; others: level-0 names or none
            nm = ("ZANMa1_%d" % j) if level == 0 else ("ZANMa0_%d" % (1000 + j) if j % 2 == 0 else "ZANMnone_%d" % j)
            insts.append((tag("ZANM"), nm, 2, None))
        targets = [anm, pts, phs, copies if copies else anm]
        base = len(insts)
        for i in range(n_lst):
            cnt = m // n_lst + (1 if i < m % n_lst else 0)
            links = []
            for j in range(cnt):
                kind = targets[(i + j) % 4]
                links.append(kind[(i * 7 + j) % len(kind)] << 8 | 1)
            payload = bytes(0x16) + struct.pack("<H", cnt) + b"".join(struct.pack("<I", v) for v in links)
            insts.append((tag("ZLST"), "ZLSTl%d_%d" % (level, i), 0, payload))
        assert len(insts) == n and base == n - n_lst
        write_level(os.path.join(folder, "level%d_Final.dat" % level), file_id(level, "Final"), insts, checks)
    with open(os.path.join(folder, "oni-layouts.txt"), "w") as f:
        f.write(LAYOUTS)


# ---------------------------------------------------------------- reference walker (from the spec)

def parse_layouts(text):
    out = {}
    for line in text.splitlines():
        line = line.split("#")[0].split() if not line.lstrip().startswith("#") else []
        if not line:
            continue
        t, ck, fl = line[0], int(line[1], 16), int(line[2], 0)
        out[(tag(t), ck)] = (fl, bytes(int(b, 16) for b in line[3:]))
    return out


class Walk(Exception):
    pass


FIELD_SIZE = {1: 8, 2: 4, 3: 2, 4: 1, 10: 4, 11: 4}
COUNT_SIZE = {1: 8, 2: 4, 3: 2}


def walk(code, flags, inst):
    """Returns (end, [(offset, value, expected_tag)]) per spec oni.md#oni-4-3 / #oni-6-1."""
    links = []
    state = {"cur": 0, "on": not (flags & 2)}

    def skip(i, close):  # to the matching close of the element starting at i
        depth = 0
        while True:
            op = code[i]
            if op in (5, 7):
                depth += 1
                i += 2
            elif op in (6, 8):
                if depth == 0:
                    return i
                depth -= 1
                i += 1
            elif op == 9:
                i += 5
            else:
                i += 1

    def need(n):
        if state["cur"] + n > len(inst):
            raise Walk("field past end")

    def seq(i):  # runs until the 06/08 closing this element; returns that index
        while True:
            op = code[i]
            if op in (1, 2, 3, 4, 10, 11):
                n = FIELD_SIZE[op]
                need(n)
                state["cur"] += n
                i += 1
            elif op == 9:
                need(4)
                v = struct.unpack_from("<I", inst, state["cur"])[0]
                if v and state["on"]:
                    links.append((state["cur"], v, struct.unpack_from("<I", code, i + 1)[0]))
                state["cur"] += 4
                i += 5
            elif op == 5:
                n = code[i + 1]
                end = None
                for _ in range(n):
                    end = seq(i + 2)
                i = end + 1
            elif op == 7:
                cs = COUNT_SIZE[code[i + 1]]
                need(cs)
                cnt = struct.unpack_from("<H" if cs == 2 else "<I", inst, state["cur"])[0]
                state["cur"] += cs
                if flags & 4:
                    state["on"] = False
                if cnt == 0:
                    i = skip(i + 2, 8) + 1
                else:
                    end = None
                    for _ in range(cnt):
                        end = seq(i + 2)
                    i = end + 1
            else:  # 6 or 8
                return i

    seq(0)
    return state["cur"], links


class File:
    def __init__(self, path, layouts):
        self.name = os.path.basename(path)
        b = open(path, "rb").read()
        (self.checksum, ver, hs, ds, ts, ns, self.n, self.nn, self.nt, self.do, self.dl, self.no, self.nl) = \
            struct.unpack_from("<QIHHHHIIIIIII", b, 0)
        lv, suf = self.name[5:].split("_", 1)
        self.file_id = file_id(int(lv), suf.split(".")[0])
        self.desc = [struct.unpack_from("<IIIII", b, 0x40 + i * 0x14) for i in range(self.n)]
        self.names = {}
        for i, (t, d, no, sz, fl) in enumerate(self.desc):
            if not fl & 1:
                s = self.no + no
                self.names[i] = b[s:b.index(b"\0", s)].decode()
        self.byname = {v: k for k, v in self.names.items()}  # same result as the directory's search
        tt = 0x40 + self.n * 0x14 + self.nn * 8
        tmpl = {}
        for k in range(self.nt):
            ck, t, c = struct.unpack_from("<QII", b, tt + k * 16)
            tmpl[t] = layouts.get((t, ck))
        self.walked = []  # (index, tag, end, [(offset, target)])
        for i, (t, d, no, sz, fl) in enumerate(self.desc):
            fl &= 0xFFFF
            if fl & 2 or fl & 4 or tmpl.get(t) is None:
                continue
            lf, code = tmpl[t]
            inst = b[self.do + d - 8: self.do + d - 8 + sz]
            end, links = walk(code, lf, inst)
            self.walked.append((i, t, end, [(off, v >> 8) for off, v, _ in links]))

    def has_data(self, i):
        return not (self.desc[i][4] & 2)


def fnv(h, v):
    """FNV-1a 32 taking a whole u32 per step (docs/cli.md, `oni check`)."""
    return ((h ^ v) * 0x01000193) & 0xFFFFFFFF


def reference(folder):
    layouts = parse_layouts(open(os.path.join(folder, "oni-layouts.txt")).read())
    files = {lv: File(os.path.join(folder, "level%d_Final.dat" % lv), layouts) for lv in LEVELS}
    h = 0x811C9DC5
    rows, total_links = [], 0
    for lv in LEVELS:
        loaded = [files[lv]] if lv == 0 else [files[0], files[lv]]
        f = loaded[-1]
        links = unresolved = into0 = 0
        fh = fnv(0x811C9DC5, f.file_id)  # the file's own hash, folded into the set's below
        for (i, t, end, ls) in f.walked:
            ih = 0x811C9DC5  # the instance's own hash, folded into the file's below
            for x in (i, t, end, len(ls)):
                ih = fnv(ih, x)
            for off, target in ls:
                links += 1
                res = None
                if f.desc[target][4] & 1:
                    res = (f, target)
                else:
                    nm = f.names[target]
                    for g in loaded:
                        j = g.byname.get(nm)
                        if j is not None and g.has_data(j):
                            res = (g, j)
                            break
                ih = fnv(ih, off)
                if res is None:
                    unresolved += 1
                    ih = fnv(fnv(ih, 0), 0)
                else:
                    if lv != 0 and res[0] is files[0]:
                        into0 += 1
                    ih = fnv(fnv(ih, res[0].file_id), res[1])
            fh = fnv(fh, ih)
        h = fnv(h, fh)
        total_links += links
        rows.append(dict(level=lv, instances=f.n, placeholders=sum(1 for d in f.desc if d[4] & 2),
                         links=links, into_level0=None if lv == 0 else into0, unresolved=unresolved))
    for r in rows[1:]:
        r["links"] += rows[0]["links"]
        r["unresolved"] += rows[0]["unresolved"]
    return rows, dict(levels=len(rows), instances=sum(f.n for f in files.values()), links=total_links, hash=h)


def agree(j, rc, rows, all_):
    ok = rc == 0 and j["all"] == all_
    for a, b in zip(j["levels"], rows):
        for k in b:
            ok = ok and a[k] == b[k]
    return ok


def verify(assay, work):
    generate(work, scale=20)
    rows, all_ = reference(work)
    ok = True
    for threads in ("1", "2"):
        out = subprocess.run([assay, "oni", "check", work, "--json", "--threads", threads], capture_output=True, text=True)
        j = json.loads(out.stdout)
        good = agree(j, out.returncode, rows, all_)
        print("threads %s: assay hash %08x, reference %08x, links %d/%d: %s" %
              (threads, j["all"]["hash"], all_["hash"], j["all"]["links"], all_["links"], "agree" if good else "DIFFER"))
        ok = ok and good
    return 0 if ok else 1


def main():
    if sys.argv[1] == "--verify":
        work = sys.argv[3] if len(sys.argv) > 3 else tempfile.mkdtemp(prefix="oni-verify-")
        os.makedirs(work, exist_ok=True)
        return verify(os.path.abspath(sys.argv[2]), work)
    assay = os.path.abspath(sys.argv[1])
    work = sys.argv[2] if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="oni-bench-")
    os.makedirs(work, exist_ok=True)
    t = time.perf_counter()
    generate(work)
    print("generated %s in %.1f s" % (work, time.perf_counter() - t))
    # assay (all threads, then one) and the floor, a process that reads every file's bytes once
    # (cat, page cache warm like assay's runs), interleaved round by round so that a noisy stretch
    # of a shared machine hits all three alike; best and median of ROUNDS.
    files = sorted(os.path.join(work, n) for n in os.listdir(work) if n.startswith("level"))
    cmds = {"assay (all threads)": [assay, "oni", "check", work, "--json"],
            "assay --threads 1": [assay, "oni", "check", work, "--json", "--threads", "1"],
            "cat": ["cat"] + files}
    walls = {k: [] for k in cmds}
    cpus = {k: [] for k in cmds}
    outs = {}
    for _ in range(ROUNDS):
        for label, cmd in cmds.items():
            c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            if label == "cat":  # its output, the 13.5 MB, goes nowhere (assay's, a small JSON, is read)
                out = subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
            else:
                out = subprocess.run(cmd, capture_output=True, text=True)
            walls[label].append(time.perf_counter() - t)
            c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[label].append((c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime))
            if label != "cat":
                outs[label] = (json.loads(out.stdout), out.returncode)
    best = {k: (min(walls[k]), min(cpus[k])) for k in cmds}
    med = {k: (statistics.median(walls[k]), statistics.median(cpus[k])) for k in cmds}
    runs = {k: (best[k],) + outs[k] for k in outs}
    rbest, rcpu = best["cat"]
    # Process start-up alone, measured the same way, so the ratio can also be given for the work itself.
    def best_cpu(cmd, runs=5):
        out = None
        for _ in range(runs):
            c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            dc = (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)
            out = dc if out is None else min(out, dc)
        return out
    start_assay = best_cpu([assay, "--version"])
    start_cat = best_cpu(["cat", "/dev/null"])
    t = time.perf_counter()
    n = sum(len(open(f, "rb").read()) for f in files)
    inproc = time.perf_counter() - t
    t = time.perf_counter()
    c = time.process_time()
    rows, all_ = reference(work)
    py = time.perf_counter() - t
    pycpu = time.process_time() - c
    _, j, rc = runs["assay --threads 1"]
    ok = agree(j, rc, rows, all_)
    print("reference: %d levels, %d instances, %d links, hash %08x" % (all_["levels"], all_["instances"], all_["links"], all_["hash"]))
    print("assay:     %d levels, %d instances, %d links, hash %08x, exit %d" %
          (j["all"]["levels"], j["all"]["instances"], j["all"]["links"], j["all"]["hash"], rc))
    print("counts and hash agree: %s" % ok)
    print("python reference walker: wall %.3f s, cpu %.3f s" % (py, pycpu))
    for label, ((dt, dc), _, _) in runs.items():
        print("%-22s wall %.3f s (ratio %.1fx), cpu %.3f s (ratio %.1fx)" % (label + ":", dt, py / dt, dc, pycpu / max(dc, 1e-6)))
    print("read the %d files' %d bytes once: cat wall %.3f s, cpu %.3f s; in-process read %.4f s" % (len(files), n, rbest, rcpu, inproc))
    (dt1, dc1), _, _ = runs["assay --threads 1"]
    (dt2, dc2), _, _ = runs["assay (all threads)"]
    print("assay / cat (best of %d): wall %.1fx (1 thread) %.1fx (all threads); cpu %.1fx (1 thread) %.1fx (all threads)" %
          (ROUNDS, dt1 / rbest, dt2 / rbest, dc1 / max(rcpu, 1e-6), dc2 / max(rcpu, 1e-6)))
    m1, m2, mc = med["assay --threads 1"], med["assay (all threads)"], med["cat"]
    print("assay / cat (medians):   wall %.1fx (1 thread) %.1fx (all threads); cpu %.1fx (1 thread) %.1fx (all threads)" %
          (m1[0] / mc[0], m2[0] / mc[0], m1[1] / max(mc[1], 1e-6), m2[1] / max(mc[1], 1e-6)))
    net = max(rcpu - start_cat, 1e-4)
    print("process start-up cpu: assay --version %.4f s, cat /dev/null %.4f s; net of start-up: assay / cat cpu %.1fx (1 thread), "
          "assay / in-process read %.1fx" % (start_assay, start_cat, (dc1 - start_assay) / net, (dc1 - start_assay) / inproc))
    print("load average: %.1f %.1f %.1f on %d cores" % (os.getloadavg() + (os.cpu_count(),)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

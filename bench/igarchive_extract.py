#!/usr/bin/env python3
"""A straightforward single-threaded igArchive extractor (versions 8-0x0B, u16 LE prefix, LZMA /
deflate / raw blocks), the baseline bench/igarchive_bench.py compares `assay extract` with.
Usage: igarchive_extract.py ARCHIVE OUTDIR. Standard library only (lzma FORMAT_RAW, zlib)."""
import lzma
import os
import struct
import sys
import zlib


def main(path, out):
    data = open(path, 'rb').read()
    bo = '<' if data[:4] == b'IGA\x1a' else '>'
    version, toc, n, sector = struct.unpack_from(bo + '4I', data, 4)
    if version == 8:
        div, slop, nto, nts, nl, nm, ns, flags = struct.unpack_from(bo + '8I', data, 0x14)
        hs, fi = 0x34, 12
    else:
        div, slop, nl, nm, ns = struct.unpack_from(bo + '5I', data, 0x14)
        nto, = struct.unpack_from(bo + 'Q', data, 0x28)
        nts, flags = struct.unpack_from(bo + '2I', data, 0x30)
        hs, fi = 0x38, 16
    tables = {}
    t = hs + n * (4 + fi)
    tables['large'] = (t, 4, 'I', 0x80000000); t += 4 * nl
    tables['medium'] = (t, 2, 'H', 0x8000); t += 2 * nm
    tables['small'] = (t, 1, 'B', 0x80)
    for i in range(n):
        noff, = struct.unpack_from(bo + 'I', data, nto + 4 * i)
        s = nto + noff
        end = data.index(b'\0', s)
        name = data[s:end].decode()
        if version >= 0x0B:
            s2 = end + 1
            name = data[s2:data.index(b'\0', s2)].decode()
        at = hs + 4 * n + fi * i
        if fi == 12:
            off, length, word = struct.unpack_from(bo + '3I', data, at)
        else:
            oo, length, word = struct.unpack_from(bo + 'Q2I', data, at)
            off = oo & 0xFFFFFFFFFF
        parts = []
        if word == 0xFFFFFFFF:
            parts.append(data[off:off + length])
        else:
            codec, first = word >> 28, word & 0x0FFFFFFF
            S = sector
            kind = 'small' if length <= 0x7F * S else 'medium' if length <= 0x7FFF * S else 'large'
            tab, eb, fmt, flag = tables[kind]
            blocks = (length + 0x7FFF) >> 15
            for j in range(blocks):
                e, = struct.unpack_from(bo + fmt, data, tab + (first + j) * eb)
                start = off + (e & ~flag) * S
                usize = min(0x8000, length - j * 0x8000)
                if not e & flag:
                    parts.append(data[start:start + usize])
                    continue
                c, = struct.unpack_from('<H', data, start)
                if codec == 2:
                    props = data[start + 2]
                    dict_size, = struct.unpack_from('<I', data, start + 3)
                    lc, lp, pb = props % 9, (props // 9) % 5, props // 45
                    d = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[
                        {'id': lzma.FILTER_LZMA1, 'lc': lc, 'lp': lp, 'pb': pb, 'dict_size': dict_size}])
                    parts.append(d.decompress(data[start + 7:start + 7 + c], max_length=usize))
                elif codec == 1:
                    parts.append(zlib.decompressobj(-15).decompress(data[start + 2:start + 2 + c], usize))
                else:
                    raise SystemExit('codec %d not supported by this baseline' % codec)
        blob = b''.join(parts)
        assert len(blob) == length, name
        dest = os.path.join(out, name)
        os.makedirs(os.path.dirname(dest) or out, exist_ok=True)
        with open(dest, 'wb') as f:
            f.write(blob)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])

"""A minimal PNG decoder (stdlib zlib only, no PIL) for the tests: 8-bit RGBA or RGB, or palette
indices of 1, 2, 4 or 8 bits with PLTE and tRNS (ISO 15948, 11.2.3, 11.3.2.1), no interlace; the five
filter types of the PNG spec (9.2). Independent of assay's libspng."""
import struct
import zlib


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode(png):
    """Returns (width, height, rgba bytes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, plte, trns = 8, b"", None, b"", b""
    while pos < len(png):
        n, kind = struct.unpack_from(">I4s", png, pos)
        body = png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth == 8 and ctype in (2, 6) or depth in (1, 2, 4, 8) and ctype == 3) and interlace == 0, \
                (depth, ctype, interlace)
        elif kind == b"PLTE":
            plte = body
        elif kind == b"tRNS":
            trns = body
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3 if ctype == 2 else 1
    raw = zlib.decompress(idat)
    stride = width * bpp if ctype != 3 else (width * depth + 7) // 8
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            line[x] = (line[x] + (0, a, b, (a + b) // 2, _paeth(a, b, c))[f]) & 0xFF
        out += line
        prev = line
    if ctype == 3:  # indices, the leftmost in the high bits; alpha from tRNS, 255 past its end
        rows, out = out, bytearray()
        for y in range(height):
            for x in range(width):
                bit = x * depth
                k = (rows[y * stride + bit // 8] >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
                out += plte[3 * k:3 * k + 3] + bytes([trns[k] if k < len(trns) else 255])
    elif bpp == 3:
        out = bytearray(b"".join(bytes(out[i:i + 3]) + b"\xff" for i in range(0, len(out), 3)))
    return width, height, bytes(out)

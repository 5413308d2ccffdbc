"""Python messages name Python keywords, not the CLI's options (issue 29 item 6): force=True for
--force, in_place=True for --in-place, resize=True / png_size=True for a PNG of another size than
the texture; a JPEG given for a PNG says so. The PNGs are written here with zlib alone (RFC 2083
layout), the JPEG is its magic bytes (ITU T.81 SOI + a JFIF APP0)."""
import struct
import zlib

import pytest

import assay
from conftest import run_cli


def png_bytes(w, h):
    """An 8-bit RGBA PNG of w x h made with zlib only: signature, IHDR, IDAT (filter 0 rows), IEND."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\0" + bytes((x * 8 + y) & 0xFF for x in range(w) for _ in range(4)) for y in range(h))
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


JPEG = bytes([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + b"JFIF\x00\x01\x02\x00\x00\x01\x00\x01\x00\x00\xFF\xD9"


def test_existing_output_names_force_true(samples, tmp_path):
    src = samples / "demo_v8_lzma.bld"
    out = tmp_path / "o.bld"
    out.write_bytes(b"already here")
    with pytest.raises(FileExistsError) as e:
        assay.replace(src, {"levels.txt": b"x"}, out=out)
    assert "force=True" in str(e.value) and "--force" not in str(e.value), str(e.value)
    assert out.read_bytes() == b"already here"
    with pytest.raises(FileExistsError) as e:
        assay.pack("igarchive", {"a.txt": b"a"}, out=out)
    assert "force=True" in str(e.value) and "--force" not in str(e.value), str(e.value)
    # the CLI keeps its own spelling
    (tmp_path / "n.txt").write_bytes(b"x")
    p = run_cli("replace", src, f"levels.txt={tmp_path / 'n.txt'}", "-o", out, check=False)
    assert p.returncode == 2 and b"--force" in p.stderr, p.stderr


def test_output_is_input_names_in_place_true(samples, tmp_path):
    src = tmp_path / "copy.bld"
    src.write_bytes((samples / "demo_v8_lzma.bld").read_bytes())
    with pytest.raises(ValueError) as e:
        assay.replace(src, {"levels.txt": b"x"}, out=src)
    assert "in_place=True" in str(e.value) and "--in-place" not in str(e.value), str(e.value)


def test_texture_png_size_and_kind(samples, tmp_path):
    src = samples / "rw_ps2.txd"
    tex = assay.open(src).texture("checker_pal4")
    w, h = tex.width, tex.height
    big = tmp_path / "big.png"
    big.write_bytes(png_bytes(2 * w, 2 * h))
    with pytest.raises(ValueError) as e:
        assay.replace(src, {"checker_pal4": big}, out=tmp_path / "o.txd")
    msg = str(e.value)
    assert f"big.png is {2 * w} x {2 * h}, the texture 'checker_pal4' is {w} x {h}" in msg, msg
    assert "resize=True" in msg and "png_size=True" in msg and "--resize" not in msg, msg
    assert not (tmp_path / "o.txd").exists()
    assay.replace(src, {"checker_pal4": big}, out=tmp_path / "r.txd", resize=True)
    t = assay.open(tmp_path / "r.txd").texture("checker_pal4")
    assert (t.width, t.height) == (w, h)
    assay.replace(src, {"checker_pal4": big}, out=tmp_path / "p.txd", png_size=True)
    t = assay.open(tmp_path / "p.txd").texture("checker_pal4")
    assert (t.width, t.height) == (2 * w, 2 * h)
    with pytest.raises(ValueError):
        assay.replace(src, {"checker_pal4": big}, out=tmp_path / "x.txd", resize=True, png_size=True)
    # a JPEG: named by its file when given as a path, as "the data for NAME" when given as bytes
    jpg = tmp_path / "photo.jpg"
    jpg.write_bytes(JPEG)
    with pytest.raises(ValueError) as e:
        assay.replace(src, {"checker_pal4": jpg}, out=tmp_path / "j.txd")
    assert "photo.jpg is a JPEG, not a PNG" in str(e.value), str(e.value)
    with pytest.raises(ValueError) as e:
        assay.replace(src, {"checker_pal4": JPEG}, out=tmp_path / "j.txd")
    assert "the data for checker_pal4 is a JPEG, not a PNG" in str(e.value), str(e.value)
    assert not (tmp_path / "j.txd").exists()

"""Container.texture() on an igz texture inside an igArchive (issue #28): zap.pak's
textures\\colormap_zap_e_11.igz is 512 x 512 DXT1 with 5 levels (its igImage2 bytes at 0x9BC:
0200 0200 0001 0005); the block at file offset 0x17EC (a8 3b 83 19 55 ff aa 00), hand-decoded in
tests/formats/igz/image_test.cc, covers pixels 192..195 x 12..15: rows (24,48,24), (35,71,38),
(46,94,52), (57,117,66)."""
import assay
from conftest import require_sample


def test_zap_texture():
    pak = require_sample("alchemy/skylanders_zap.pak")
    c = assay.open(str(pak) + "::textures\\colormap_zap_e_11.igz")
    e = [e for e in c.entries if e.kind == "texture"]
    assert len(e) == 1 and e[0].details["format"] == "dxt1_tile_big_ps3" and e[0].details["mips"] == 5
    img = c.texture(e[0])
    assert (img.width, img.height) == (512, 512)
    px = img.tobytes()
    rows = [(24, 48, 24), (35, 71, 38), (46, 94, 52), (57, 117, 66)]
    for dy, rgb in enumerate(rows):
        for x in range(192, 196):
            at = ((12 + dy) * 512 + x) * 4
            assert tuple(px[at:at + 4]) == rgb + (255,)
    assert (c.texture(e[0], 4).width, c.texture(e[0], 4).height) == (32, 32)


def test_replace_image_inside_the_archive(tmp_path):
    """assay.replace with a MEMBER::IMAGE name, as the CLI takes it: the member's image takes the
    PNG (a flat grey, which DXT1 keeps exactly: every texel reads back 128,128,128,255)."""
    import struct
    import zlib
    pak = require_sample("alchemy/skylanders_zap.pak")
    row = b"\x00" + b"\x80\x80\x80\xff" * 512
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 512, 512, 8, 6, 0, 0, 0)) +
           chunk(b"IDAT", zlib.compress(row * 512)) + chunk(b"IEND", b""))
    out = tmp_path / "z2.pak"
    assay.replace(str(pak), {"textures\\colormap_zap_e_11.igz::_Zap_E": png}, out=str(out))
    c = assay.open(str(out) + "::textures\\colormap_zap_e_11.igz")
    e = [e for e in c.entries if e.kind == "texture"][0]
    px = c.texture(e).tobytes()
    assert px[:4] == b"\x80\x80\x80\xff" and px[-4:] == b"\x80\x80\x80\xff"
    assert set(px[k:k + 4] for k in range(0, len(px), 4 * 997)) == {b"\x80\x80\x80\xff"}

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

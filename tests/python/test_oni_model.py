"""Container.model() on an Oni M3GM entry (issue 27): the GLB `assay extract --models` writes, whose
own JSON chunk holds the golden counts of M3GMcube (24 vertices, 12 triangles; goldens
oni/models/json) and the TXMPgrad_bgr32 texture as one PNG image."""
import json
import struct

import assay
from conftest import require_sample, run_cli


def test_oni_m3gm_model_is_the_extracted_glb(tmp_path):
    level = require_sample("oni/GameDataFolder/level0_Final.dat")
    out = tmp_path / "x"
    run_cli("extract", level, "-o", out, "--models")
    c = assay.open(level)
    models = [e for e in c.entries if e.kind == "model"]
    assert [e.name for e in models] == ["M3GMcube"]
    assert models[0].details["vertices"] == 24 and models[0].details["triangles"] == 12
    glb = c.model(models[0])
    assert glb == (out / "M3GMcube.glb").read_bytes()
    magic, version, length = struct.unpack_from("<III", glb, 0)
    assert (magic, version, length) == (0x46546C67, 2, len(glb))
    size, kind = struct.unpack_from("<II", glb, 12)
    assert kind == 0x4E4F534A  # JSON
    doc = json.loads(glb[20:20 + size])
    prim = doc["meshes"][0]["primitives"][0]
    assert doc["accessors"][prim["attributes"]["POSITION"]]["count"] == 24
    assert doc["accessors"][prim["indices"]]["count"] == 12 * 3
    assert len(doc["images"]) == 1 and doc["images"][0]["mimeType"] == "image/png"


def test_level1_m3gm_takes_its_placeholder_texture_from_level0():
    """M3GMpyramid in level 1 names TXMPcheck_bgra32, a placeholder there (samples/oni/README.md:
    level 1's 4 placeholders); the engine takes level 0's copy, and so does the GLB: one PNG of
    level 0's TXMPcheck_bgra32 size."""
    level1 = require_sample("oni/GameDataFolder/level1_Final.dat")
    level0 = require_sample("oni/GameDataFolder/level0_Final.dat")
    c = assay.open(level1)
    glb = c.model(c.find("M3GMpyramid"))
    size, _ = struct.unpack_from("<II", glb, 12)
    doc = json.loads(glb[20:20 + size])
    assert doc["materials"][0]["extras"]["texture"] == "TXMPcheck_bgra32"
    assert len(doc["images"]) == 1
    view = doc["bufferViews"][doc["images"][0]["bufferView"]]
    bin_at = 20 + size + 8
    png = glb[bin_at + view.get("byteOffset", 0):bin_at + view.get("byteOffset", 0) + view["byteLength"]]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    w, h = struct.unpack_from(">II", png, 16)
    t = assay.open(level0).find("TXMPcheck_bgra32")
    assert (w, h) == (t.details["width"], t.details["height"])

"""Container.model() on an igz model entry (issue #28 item 3): the Wii U igModelTool_model.igz's
igModelInfo (object 1, _name "igSceneInfo0") as the GLB `assay extract` writes; its two draw calls
hold 10494 and 828 vertices (igVertexBuffer _vertexCount 0x28FE at file 0xC88 and 0x33C at 0xE98),
with as many 16-bit indices (igIndexBuffer _indexCount at 0xDD4 and 0xFE4)."""
import json
import struct

import assay
from conftest import require_sample, run_cli


def test_igz_model_is_the_extracted_glb(tmp_path):
    igz = require_sample("alchemy/igModelTool_model.igz")
    out = tmp_path / "x"
    run_cli("extract", igz, "-o", out)
    c = assay.open(str(igz))
    models = [e for e in c.entries if e.kind == "model"]
    assert [e.path for e in models] == ["0001_igSceneInfo0.glb"]
    assert [d["vertices"] for d in models[0].details["model"]["draw_calls"]] == [10494, 828]
    glb = c.model(models[0])
    assert glb == (out / "0001_igSceneInfo0.glb").read_bytes()
    magic, version, length = struct.unpack_from("<III", glb, 0)
    assert (magic, version, length) == (0x46546C67, 2, len(glb))
    size, kind = struct.unpack_from("<II", glb, 12)
    assert kind == 0x4E4F534A  # JSON
    doc = json.loads(glb[20:20 + size])
    counts = []
    for mesh in doc["meshes"]:
        prim = mesh["primitives"][0]
        counts.append((doc["accessors"][prim["attributes"]["POSITION"]]["count"], doc["accessors"][prim["indices"]]["count"]))
    assert counts == [(10494, 10494), (828, 828)]


def test_edge_model_from_the_archive_carries_its_material_texture():
    """zap.pak's models\\...\\zapwave.igz opened inside the archive: its material
    (materialinstances\\zapwave_igb_materials.igz) binds textures\\colormap_watercaustic02_11.igz at
    unit 0, whose 256 x 256 igImage2 (`assay list` of that igz) becomes the GLB's one image, a PNG."""
    pak = require_sample("alchemy/skylanders_zap.pak")
    c = assay.open(str(pak) + "::models\\characters\\skylanders\\zap\\zapwave.igz")
    model = [e for e in c.entries if e.kind == "model"][0]
    assert model.details["materials"][0]["base_color_texture"] == "ColorMap_WaterCaustic02_11.igz"
    glb = c.model(model)
    size, _ = struct.unpack_from("<II", glb, 12)
    doc = json.loads(glb[20:20 + size])
    assert len(doc["images"]) == 1 and doc["images"][0]["mimeType"] == "image/png"
    assert doc["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"] == 0
    view = doc["bufferViews"][doc["images"][0]["bufferView"]]
    png = glb[20 + size + 8 + view.get("byteOffset", 0):][:view["byteLength"]]
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack_from(">II", png, 16)
    tex = assay.open(str(pak) + "::textures\\colormap_watercaustic02_11.igz")
    image = [e for e in tex.entries if e.kind == "texture"][0]
    assert (width, height) == (image.details["width"], image.details["height"])

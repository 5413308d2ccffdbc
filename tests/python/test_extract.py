"""read() bytes equal what `assay extract` writes, texture() pixels equal the PNGs it writes
(decoded here by tests/python/pngread.py, stdlib zlib only) and the pixels peer tools decoded
(librw's RGBA hashes, OniSplit's PNGs); two threads reading one Container at once."""
import hashlib
import json
import os
import threading

import pytest

import assay
import pngread
from conftest import SANITIZED, require_sample, run_cli


def extracted(tmp_path, source, *opts):
    out = tmp_path / "x"
    run_cli("extract", source, "-o", out, *opts)
    return out


@pytest.mark.parametrize("name", ["demo_v8_lzma.bld", "demo_v11_be_deflate.arc", "sample_v9_be.igz",
                                  "sample_v8_le64.igz", "warriors/WARRIORS.DIR", "warriors_level1.lev"])
def test_read_equals_cli_extract(samples, tmp_path, name):
    out = extracted(tmp_path, samples / name)
    c = assay.open(samples / name)
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert files == sorted(e.path for e in c.entries if e.path)
    for e in c.entries:
        data = c.read(e)
        assert len(data) == e.size
        # a Warriors clump chunk is written as its model (glTF), the other entries as their bytes
        want = c.model(e) if e.path.endswith(".glb") else data
        assert want == (out / e.path).read_bytes(), e.path
    assert c.read_many() == [c.read(e) for e in c.entries]


@pytest.mark.parametrize("name", ["rw_ps2.txd", "rw_pc_dxt1.txd"])
def test_textures_equal_cli_pngs(samples, tmp_path, name):
    out = extracted(tmp_path, samples / name, "--mips")
    c = assay.open(samples / name)
    checked = 0
    for e in c.entries:
        for mip in range(e.details["mips"]):
            img = c.texture(e, mip)
            png = out / e.path if mip == 0 else None
            if png is None:  # --mips writes NAME.mipN.png beside the base level
                cands = [p for p in out.iterdir() if p.name.startswith(e.name + ".") and p.name != e.path
                         and f"{mip}" in p.name[len(e.name):]]
                assert len(cands) == 1, sorted(p.name for p in out.iterdir())
                png = cands[0]
            w, h, rgba = pngread.decode(png.read_bytes())
            assert (img.width, img.height) == (w, h)
            assert img.tobytes() == rgba
            assert img.to_png() == png.read_bytes() or pngread.decode(img.to_png())[2] == rgba
            checked += 1
    assert checked == sum(e.details["mips"] for e in c.entries) >= 1


def test_image_buffer_protocol(samples):
    c = assay.open(samples / "rw_ps2.txd")
    img = c.texture("checker_pal4")
    assert repr(img) == "<assay.Image 32x32 RGBA>"
    m = img.rgba
    assert (m.shape, m.format, m.itemsize, m.readonly) == ((32, 32, 4), "B", 1, True)
    assert m.tobytes() == img.tobytes() == bytes(memoryview(img))
    assert bytes(m.tolist()[1][2]) == img.tobytes()[(1 * 32 + 2) * 4:(1 * 32 + 2) * 4 + 4]
    del c, img
    assert len(m.tobytes()) == 32 * 32 * 4  # the view keeps the pixels alive
    try:
        import numpy
    except ImportError:
        return
    a = numpy.asarray(assay.open(samples / "rw_ps2.txd").texture(0))
    assert a.shape == (32, 32, 4) and a.dtype == numpy.uint8


def test_ps2_textures_equal_librw():
    # librw (a peer) decoded every level of this PS2 dictionary; its RGBA SHA-256s are in the JSON.
    txd = require_sample("renderware/librw-ps2/ps2_v36003.txd")
    ref = json.load(open(require_sample("renderware/librw-ps2/ps2_v36003.librw-rgba.json")))["textures"]
    c = assay.open(txd)
    assert len(c) == len(ref) == 40
    for name, t in ref.items():
        for lv in t["level_rgba_sha256"]:
            img = c.texture(name, lv["level"])
            assert (img.width, img.height) == (lv["width"], lv["height"])
            assert hashlib.sha256(img.rgba).hexdigest() == lv["sha256"], (name, lv["level"])


def test_oni_textures_equal_onisplit():
    # OniSplit -extract:png wrote these; 32-bit formats decode exactly (samples/oni/README.md).
    dat = require_sample("oni/GameDataFolder/level0_Final.dat")
    c = assay.open(dat)
    assert c.find("TXMPgrad_bgr32").kind == "texture"
    for name in ("TXMPgrad_bgr32", "TXMPcheck_bgra32"):
        w, h, rgba = pngread.decode(open(require_sample(f"oni/onisplit_view/png_level0/{name}.png"), "rb").read())
        img = c.texture(name)
        assert (img.width, img.height) == (w, h)
        assert img.tobytes() == rgba


def test_two_threads_read_at_once(samples):
    c = assay.open(samples / "demo_v8_lzma.bld")
    expected = [c.read(e) for e in c.entries]
    results, errors = {}, []
    start = threading.Barrier(2)

    def worker(k):
        try:
            start.wait()
            got = []
            for _ in range(3 if SANITIZED else 20):
                got = [c.read(e) for e in reversed(c.entries)][::-1]
                img = assay.open(samples / "rw_ps2.txd").texture("ramp_pal8", 1)
                assert (img.width, img.height) == (32, 32)
            results[k] = got
        except Exception as x:  # reported below, in the main thread
            errors.append(x)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert results[0] == expected and results[1] == expected


def test_skylanders_archive():
    # samples/alchemy/README.md: igArchive version 0x0A, big-endian, 88 files. (It says "LZMA
    # blocks", but the words read 0x1....... = codec 1, raw deflate (spec alchemy.md#iga-file-info),
    # as in the other Swap Force/Trap Team era files; the blocks inflate, so the README is wrong there.)
    c = assay.open(require_sample("alchemy/skylanders_zap.pak"))
    info = c.info()
    assert (info["version"], info["byte_order"], info["num_files"]) == (0x0A, "big", 88)
    assert len(c) == 88
    assert sum(1 for e in c.entries if e.name.endswith(".igz")) >= 59
    assert [p for p in c.verify() if p.severity != "note"] == []


def test_skylanders_bytes_equal_cli_extract(tmp_path):
    pak = require_sample("alchemy/skylanders_zap.pak")
    out = extracted(tmp_path, pak)
    c = assay.open(pak)
    for e, data in zip(c.entries, c.read_many()):
        assert data == (out / e.path.replace("\\", "/")).read_bytes(), e.path  # extract writes '/'
    assert len(list(out.rglob("*.igz"))) == sum(1 for e in c.entries if e.name.endswith(".igz"))


def test_crash_archive_nested():
    # samples/alchemy/README.md: version 0x0B little-endian, 2 LZMA files: a .hkx and a v10 igz.
    pak = require_sample("alchemy/crash_nst_L332_CollisionTemplate.pak")
    c = assay.open(pak)
    assert (c.info()["version"], c.info()["byte_order"], len(c)) == (0x0B, "little", 2)
    [hkx] = [e.name for e in c.entries if e.name.endswith(".hkx")]
    [igz_name] = [e.name for e in c.entries if e.name.endswith(".igz")]
    igz = assay.open(f"{pak}::{igz_name}")
    assert igz.format == "igz" and igz.info()["version"] == 10
    assert c.read(igz_name)[:4] == b"\x01ZGI"
    assert c.open(hkx) is not None if assay.identify(f"{pak}::{hkx}") else True


def test_oni_levels_match_onisplit_counts():
    # samples/oni/README.md: level 0 has 31 instances (TXMP 16, TXAN 2, TStr 3, IDXA 2, VCRA 2, M3GM,
    # PNTA, SUBT, StNA, TXCA, TXMA 1 each); level 1 has 19, 4 of them placeholders.
    l0 = assay.open(require_sample("oni/GameDataFolder/level0_Final.dat"))
    tags = {}
    for e in l0.entries:
        tags[e.details["tag"]] = tags.get(e.details["tag"], 0) + 1
    assert len(l0) == 31
    assert tags == {"TXMP": 16, "TXAN": 2, "TStr": 3, "IDXA": 2, "VCRA": 2, "M3GM": 1, "PNTA": 1, "SUBT": 1,
                    "StNA": 1, "TXCA": 1, "TXMA": 1}
    l1 = assay.open(require_sample("oni/GameDataFolder/level1_Final.dat"))
    assert len(l1) == 19
    assert sorted(e.name for e in l1.entries if e.details["placeholder"]) == sorted(
        ["TXMPanim_fire", "TXMPgrad_bgr32", "TXMPcheck_bgra32", "TStrgreeting"])


def test_renderware_real_dictionaries():
    # samples/renderware/README.md: infernus.txd 3 textures; imgfactory_generic.txd 115 of 64 x 64.
    assert len(assay.open(require_sample("renderware/rw-parser/infernus.txd"))) == 3
    g = assay.open(require_sample("renderware/more/imgfactory_generic.txd"))
    assert len(g) == 115
    assert {(e.details["width"], e.details["height"]) for e in g.entries} == {(64, 64)}
    img = g.texture(g.entries[0])
    assert (img.width, img.height) == (64, 64)
    assert assay.identify(require_sample("renderware/more/mh2_ps2_DSFE.TXD")) is None  # not RenderWare


def test_model_equals_cli_glb(tmp_path):
    """Container.model() gives the GLB `assay extract` writes; the samples README's counts (990
    vertices, 1,218 triangles, one skin of 32 joints) read from the GLB's own JSON chunk."""
    import struct
    dff = require_sample("renderware/rw-parser/wuzimu.dff")
    out = extracted(tmp_path, dff)
    c = assay.open(dff)
    models = [e for e in c.entries if e.kind == "model"]
    assert [e.path for e in models] == ["wuzimu.glb"]
    glb = c.model(models[0])
    assert glb == (out / "wuzimu.glb").read_bytes()
    magic, version, length = struct.unpack_from("<4sII", glb)
    assert (magic, version, length) == (b"glTF", 2, len(glb))
    json_length, kind = struct.unpack_from("<I4s", glb, 12)
    assert kind == b"JSON"
    doc = json.loads(glb[20:20 + json_length])
    prim = doc["meshes"][0]["primitives"]
    assert doc["accessors"][prim[0]["attributes"]["POSITION"]]["count"] == 990
    assert sum(doc["accessors"][p["indices"]]["count"] for p in prim) == 3 * 1218
    assert len(doc["skins"][0]["joints"]) == 32
    with pytest.raises(assay.FormatError):
        c.model(next(e for e in c.entries if e.kind == "atomic"))

"""assay.pack and assay.replace/add/remove (issue 14): the files written equal the CLI's, read
back with the bytes put in, and carry the hashes the specs define (computed here in pure Python)."""
import errno
import os
import shutil
import zlib

import pytest

import assay
from conftest import run_cli


def fnv1a32(s):
    """FNV-1a 32 (spec alchemy.md#iga-hash), independent of assay."""
    h = 0x811C9DC5
    for b in s.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "in"
    (d / "sub").mkdir(parents=True)
    (d / "a.txt").write_bytes(b"alpha " * 5000)
    (d / "sub" / "b.bin").write_bytes(bytes(range(256)) * 300)
    (d / "empty").write_bytes(b"")
    return d


def test_pack_igarchive_equals_cli(folder, tmp_path):
    data = assay.pack("igarchive", folder)
    run_cli("pack", "igarchive", "-o", tmp_path / "cli.bld", folder)
    assert data == (tmp_path / "cli.bld").read_bytes()
    c = assay.open(data)
    assert (c.info()["version"], c.info()["byte_order"]) == (0x0B, "little")
    assert sorted(e.name for e in c.entries) == ["a.txt", "empty", "sub/b.bin"]
    for e in c.entries:
        assert c.read(e) == (folder / e.name).read_bytes()
        assert e.details["hash"] == fnv1a32(e.name)


def test_pack_igarchive_options_and_dict(tmp_path):
    files = {"x/one.txt": b"1" * 70000, "two.txt": tmp_path}  # a path value is read from disk
    (tmp_path / "two.bin").write_bytes(b"two")
    files["two.txt"] = tmp_path / "two.bin"
    out = tmp_path / "o.arc"
    assert assay.pack("igarchive", files, out=out, version=8, compression="deflate", big_endian=True) is None
    c = assay.open(out)
    assert (c.info()["version"], c.info()["byte_order"]) == (8, "big")
    assert c.read("x/one.txt") == b"1" * 70000 and c.read("two.txt") == b"two"
    assert c.find("x/one.txt").details["compression"] == "deflate"
    with pytest.raises(FileExistsError):
        assay.pack("igarchive", files, out=out)
    assay.pack("igarchive", files, out=out, force=True, case_insensitive=True)
    assert assay.open(out).find("two.txt").details["hash"] == fnv1a32("two.txt")  # already lower case
    with pytest.raises(ValueError):
        assay.pack("igarchive", files, version=9)
    with pytest.raises(ValueError):
        assay.pack("zip", files)


def test_replace_add_remove_equal_cli(samples, tmp_path):
    src = samples / "demo_v8_lzma.bld"
    new = tmp_path / "new.txt"
    new.write_bytes(b"replaced levels\n" * 100)
    rep = assay.replace(src, {"levels.txt": new}, out=tmp_path / "py.bld")
    run_cli("replace", src, f"levels.txt={new}", "-o", tmp_path / "cli.bld")
    assert (tmp_path / "py.bld").read_bytes() == (tmp_path / "cli.bld").read_bytes()
    assert rep["changes"][0]["op"] == "replace" and rep["changes"][0]["new_size"] == 1600
    c = assay.open(tmp_path / "py.bld")
    old = assay.open(src)
    assert c.read("levels.txt") == new.read_bytes()
    assert c.read("JAPANESE.pak") == old.read("JAPANESE.pak") and c.read("readme.txt") == old.read("readme.txt")

    assay.add(src, {"extra/hello.txt": b"hello"}, out=tmp_path / "add.bld")
    a = assay.open(tmp_path / "add.bld")
    assert len(a) == 4 and a.read("extra/hello.txt") == b"hello"
    assert a.find("extra/hello.txt").details["hash"] == fnv1a32("extra/hello.txt")

    r = assay.remove(src, ["readme.txt"], out=tmp_path / "rm.bld")
    assert r["files"] == 2
    assert sorted(e.name for e in assay.open(tmp_path / "rm.bld").entries) == ["JAPANESE.pak", "levels.txt"]


def test_edit_errors(samples, tmp_path):
    src = samples / "demo_v8_lzma.bld"
    with pytest.raises(ValueError):
        assay.replace(src, {"levels.txt": b"x"})  # neither out= nor in_place=True
    with pytest.raises(ValueError):
        assay.replace(src, {"levels.txt": b"x"}, out=tmp_path / "o", in_place=True)
    with pytest.raises((ValueError, KeyError)):
        assay.replace(src, {"no-such-file": b"x"}, out=tmp_path / "o")
    assert not (tmp_path / "o").exists()  # nothing left behind on failure
    with pytest.raises(TypeError):
        assay.remove(src, "readme.txt", out=tmp_path / "o")
    with pytest.raises(FileNotFoundError):
        assay.replace(src, {"levels.txt": tmp_path / "absent"}, out=tmp_path / "o")


def test_in_place(samples, tmp_path):
    work = tmp_path / "w.bld"
    shutil.copy(samples / "demo_v8_lzma.bld", work)
    assay.replace(work, {"readme.txt": b"in place"}, in_place=True)
    assert assay.open(work).read("readme.txt") == b"in place"
    assert [p.name for p in tmp_path.iterdir()] == ["w.bld"]  # no temporary left


def test_warriors_resource_hash_is_crc32_of_name():
    # spec warriors.md#wr-3-4: a resource's id is the crc32 of its name as given.
    data = assay.pack("warriors-container", {0x28: b"bones!", 0x2A: b"t" * 20}, name="zap_bones")
    c = assay.open(data)
    assert c.format == "warriors" and c.info()["header"]["id"] == zlib.crc32(b"zap_bones")
    assert [e.details["type"] for e in c.entries] == [0x28, 0x2A]
    # chunk data is zero-padded to 16 bytes (spec warriors.md C4)
    assert c.read(0) == b"bones!" + bytes(10) and c.read(1) == b"t" * 20 + bytes(12)
    pack = assay.pack("warriors-container", [data, data])
    assert assay.open(pack).format == "warriors"


def test_pack_oni_round_trip(samples, tmp_path):
    layouts = samples / "oni-layouts.txt"
    run_cli("extract", samples / "level0_Final.dat", "-o", tmp_path / "oni")
    st = assay.pack("oni", tmp_path / "oni", out=tmp_path / "level0_Final.dat", layouts=layouts)
    assert st["oni_files"] == len(list((tmp_path / "oni").glob("*.oni")))
    orig = assay.open(samples / "level0_Final.dat", layouts=layouts)
    again = assay.open(tmp_path / "level0_Final.dat", layouts=layouts)
    assert sorted(filter(None, (e.name for e in again.entries))) == sorted(filter(None, (e.name for e in orig.entries)))
    assert sorted(e.size or 0 for e in again.entries) == sorted(e.size or 0 for e in orig.entries)
    # the same folder packed by the CLI: the same bytes (instance ids and links are renumbered by
    # the pack, so the instances' bytes are not the original's)
    (tmp_path / "cli").mkdir()
    run_cli("pack", "oni", "-o", tmp_path / "cli" / "level0_Final.dat", "--layouts", layouts, tmp_path / "oni")
    for ext in (".dat", ".raw"):
        assert (tmp_path / f"level0_Final{ext}").read_bytes() == (tmp_path / "cli" / f"level0_Final{ext}").read_bytes()


def test_pack_igarchive_like_keeps_unchanged_files(folder, tmp_path):
    orig = tmp_path / "orig.bld"
    assay.pack("igarchive", folder, out=orig, compression="deflate")
    (folder / "a.txt").write_bytes(b"changed " * 100)
    (folder / "new.txt").write_bytes(b"new")
    r = assay.pack("igarchive", folder, out=tmp_path / "like.bld", like=orig)
    # 3 files of the original (one changed) and one new: the two unchanged keep their stored bytes
    assert (r["files"], r["kept"], r["encoded"], r["added"], r["converted"]) == (4, 2, 1, ["new.txt"], False)
    c = assay.open(tmp_path / "like.bld")
    assert {e.name: c.read(e) for e in c.entries}["a.txt"] == b"changed " * 100
    o = assay.open(orig)
    stored = {e.name: e.details["compression"] for e in o.entries}
    assert {e.name: e.details["compression"] for e in c.entries if e.name in stored} == stored
    r = assay.pack("igarchive", folder, out=tmp_path / "conv.bld", like=orig, version=8)
    assert r["converted"] and assay.open(tmp_path / "conv.bld").info()["version"] == 8
    with pytest.raises(ValueError):
        assay.pack("igarchive", {"a": b"1"}, out=tmp_path / "x.bld", like=orig)

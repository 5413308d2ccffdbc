"""The API of `import assay` over every family (issue 14): info/entries equal the CLI's JSON,
hashes equal published test vectors, errors carry the offsets the spec's layouts imply."""
import os
import struct
import zlib

import pytest

import assay
from conftest import require_sample, run_cli

# One demo file per family, written by `assay make-samples` (and what identify must say).
FAMILY_FILES = {
    "demo_v8_lzma.bld": "igarchive",
    "demo_v11_be_deflate.arc": "igarchive",
    "sample_v9_be.igz": "igz",
    "sample_v8_le64.igz": "igz",
    "warriors/WARRIORS.DIR": "warriors",
    "warriors_level1.lev": "warriors",
    "level0_Final.dat": "oni",
    "rw_ps2.txd": "renderware",
    "rw_pc_dxt1.txd": "renderware",
    "rw_model.dff": "renderware",
}


@pytest.mark.parametrize("name,family", sorted(FAMILY_FILES.items()))
def test_every_family_matches_the_cli(samples, cli_json, name, family):
    path = os.path.join(samples, name)
    assert assay.identify(path) == family
    c = assay.open(path)
    assert c.format == family
    assert isinstance(c, assay.Container)
    assert c.info() == cli_json("info", "--json", path)
    listed = cli_json("list", "--json", path)
    assert [e.to_dict() for e in c.entries] == listed["entries"]
    assert len(c) == len(listed["entries"]) and len(c) > 0
    for e, j in zip(c, listed["entries"]):
        assert (e.index, e.name, e.path, e.offset, e.size, e.kind) == (
            j["index"], j["name"], j["path"], j["offset"], j["size"], j["kind"])
        assert e.stored_size == j.get("stored_size")
        assert e.container is c
        assert repr(e).startswith("<assay.Entry #%d " % e.index)
        assert c.find(f"#{e.index}").index == e.index
    assert repr(c) == f"<assay.Container {family} '{path}' entries={len(c)}>"


def test_open_bytes_and_path_like(samples):
    path = samples / "demo_v8_lzma.bld"  # a pathlib.Path
    data = path.read_bytes()
    for src in (data, bytearray(data), memoryview(data)):
        c = assay.open(src)
        assert c.format == "igarchive" and c.name == "<bytes>"
        assert [e.name for e in c.entries] == ["JAPANESE.pak", "levels.txt", "readme.txt"]
    assert assay.identify(data) == "igarchive"
    assert assay.identify(b"not a container") is None
    assert assay.open(path, format="igarchive").format == "igarchive"


def test_hashes_are_the_published_vectors():
    # CRC-32 check value (zlib.crc32 of "123456789") and FNV-1a 32 vectors (Fowler/Noll/Vo).
    assert assay.hash.crc32("123456789") == 0xCBF43926 == zlib.crc32(b"123456789")
    assert assay.hash.crc32(b"") == 0
    assert assay.hash.crc32(b"6789", seed=assay.hash.crc32(b"12345")) == 0xCBF43926
    assert assay.hash.fnv1a("") == 0x811C9DC5
    assert assay.hash.fnv1a("a") == 0xE40C292C
    assert assay.hash.fnv1a("foobar") == 0xBF9CF968
    assert assay.hash.fnv1a("FooBar", lowercase=True) == 0xBF9CF968
    # Oni: file id = level << 25 | (suffix hash & 0xFFFFFF) << 1 | 1, "Final" hashes to 0
    # (spec oni.md#oni-2-2): level1_Final.dat -> 0x02000001.
    assert assay.hash.oni_file_id("level1_Final.dat") == 0x02000001
    with pytest.raises(assay.FormatError):
        assay.hash.oni_file_id("notalevel.txt")


@pytest.mark.parametrize("algo,text", [("crc32", "bootstrap.bld"), ("fnv1a", "Maggs_Staff"),
                                       ("warriors", "WARRIORS.WAD"), ("oni-file-id", "level3_Marketplace.dat")])
def test_hashes_equal_the_cli(algo, text):
    fn = getattr(assay.hash, algo.replace("-", "_"))
    assert f"{fn(text):08x}" == run_cli("hash", algo, text).stdout.decode().split()[-1]


@pytest.fixture(scope="module")
def nested(samples, tmp_path_factory):
    """outer.arc holds inner.bld (which holds rw_ps2.txd) and sample_v9_be.igz: packed by the CLI."""
    d = tmp_path_factory.mktemp("nested")
    (d / "in").mkdir()
    (d / "out").mkdir()
    (d / "in" / "rw_ps2.txd").write_bytes((samples / "rw_ps2.txd").read_bytes())
    run_cli("pack", "igarchive", "-o", d / "out" / "inner.bld", d / "in")
    (d / "out" / "sample_v9_be.igz").write_bytes((samples / "sample_v9_be.igz").read_bytes())
    run_cli("pack", "igarchive", "--compression", "deflate", "-o", d / "outer.arc", d / "out")
    return d / "outer.arc"


def test_nested_paths(samples, nested):
    txd = assay.open(f"{nested}::inner.bld::rw_ps2.txd")
    assert txd.format == "renderware" and txd.name == f"{nested}::inner.bld::rw_ps2.txd"
    assert [e.name for e in txd.entries] == [e.name for e in assay.open(samples / "rw_ps2.txd").entries]
    assert assay.identify(f"{nested}::sample_v9_be.igz") == "igz"
    assert assay.open(f"{nested}::sample_v9_be.igz").read(0) == assay.open(samples / "sample_v9_be.igz").read(0)
    outer = assay.open(nested)
    child = outer.open(outer.find("inner.bld"))
    assert child.format == "igarchive"
    grandchild = child.open("rw_ps2.txd")
    assert [e.to_dict() for e in grandchild.entries] == [e.to_dict() for e in txd.entries]
    # A child keeps its parent alive: drop every other reference first.
    entries = grandchild.entries
    del outer, child, grandchild
    import gc
    gc.collect()
    assert entries[0].container.texture(entries[0]).width == 32


def test_problems_and_verify(samples):
    c = assay.open(samples / "demo_v8_lzma.bld")
    assert c.verify() == [] and c.verify(deep=True) == []
    [p] = assay.verify(samples / "level0_Final.raw")  # a .raw alone is no container
    assert (p.severity, p.message) == ("error", "unrecognised file format")
    assert "unrecognised file format" in repr(p)


def test_keyword_options_are_checked(samples):
    with pytest.raises(TypeError, match="no_such_option"):
        assay.open(samples / "demo_v8_lzma.bld", no_such_option=1)
    with pytest.raises(ValueError):
        assay.open(samples / "demo_v8_lzma.bld", igz_pointer_size=5)
    assert len(assay.open(samples / "demo_v8_lzma.bld", threads=1, igarchive_max_member="1M")) == 3


def test_missing_file_is_oserror(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        assay.open(tmp_path / "absent.bld")
    assert e.value.errno == 2 and e.value.filename == str(tmp_path / "absent.bld")


def test_missing_entry_is_keyerror(samples):
    c = assay.open(samples / "demo_v8_lzma.bld")
    assert c.find("nope.txt") is None
    with pytest.raises(KeyError):
        c.read("nope.txt")
    with pytest.raises(IndexError):
        c.read(3)
    with pytest.raises(ValueError, match="no entry named 'nope.txt'"):
        assay.open(f"{samples}/demo_v8_lzma.bld::nope.txt")
    other = assay.open(samples / "demo_v8_lzma.bld")
    with pytest.raises(ValueError):
        c.read(other.entries[0])  # an entry of another Container


def test_truncated_header_names_the_field(samples):
    data = (samples / "demo_v8_lzma.bld").read_bytes()
    # spec alchemy.md#iga-header-v8: a 0x34-byte header; tocSize at 0x08 and nameTableOffset at
    # 0x1C, both read here by hand.
    magic, version, toc_size = struct.unpack_from("<4sII", data, 0)
    name_table, = struct.unpack_from("<I", data, 0x1C)
    assert (magic, version) == (b"IGA\x1a", 8)
    with pytest.raises(assay.FormatError) as e:
        assay.open(data[:0x10])
    assert isinstance(e.value, ValueError)
    assert (e.value.format, e.value.structure, e.value.offset) == ("igarchive", "header", 0)
    with pytest.raises(assay.FormatError) as e:
        assay.open(data[:0x40])  # the TOC (0x34 + tocSize) no longer fits
    assert (e.value.structure, e.value.offset) == ("header", 0x08)
    assert f"{toc_size:#x}" in e.value.message
    # Cut right where the name table starts: the files' data are whole, so the archive opens as
    # 7-Zip opens a cut archive (issue 29 item 4): every file listed by its hash, the lost name
    # table an error of verify.
    c = assay.open(data[:name_table])
    n_files, = struct.unpack_from("<I", data, 0x0C)
    assert len(c.entries) == n_files
    assert all(e.name is None or e.name.endswith(".bin") for e in c.entries)
    assert any(p.severity == "error" for p in c.verify())


def test_corrupt_block_error_and_problem_at_the_block(samples, tmp_path, cli_json):
    data = bytearray((samples / "demo_v8_lzma.bld").read_bytes())
    # Where levels.txt's first block starts, by hand (spec alchemy.md#iga-file-info,
    # #iga-block-tables, #iga-assembly): v8 file infos are {u32 offset, u32 size, u32 word} after
    # the N hashes; the small (u8) block table follows the large and medium ones; an entry's low
    # 7 bits count sectors from the file's offset.
    n, sector = struct.unpack_from("<II", data, 0x0C)
    n_large, n_medium = struct.unpack_from("<II", data, 0x24)
    names = [e.name for e in assay.open(bytes(data)).entries]
    i = names.index("levels.txt")
    info_at = 0x34 + 4 * n + 12 * i
    offset, size, word = struct.unpack_from("<III", data, info_at)
    assert word >> 28 == 2  # LZMA
    small_table = 0x34 + 16 * n + 4 * n_large + 2 * n_medium
    block = offset + (data[small_table + (word & 0x0FFFFFFF)] & 0x7F) * sector
    for k in range(block + 9, block + 200):  # keep the size prefix and LZMA properties, break the payload
        data[k] ^= 0x5A
    c = assay.open(bytes(data))
    assert c.read("readme.txt") == assay.open(samples / "demo_v8_lzma.bld").read("readme.txt")
    with pytest.raises(assay.FormatError) as e:
        c.read("levels.txt")
    assert e.value.offset == block and "block 0" in e.value.structure
    errors = [p for p in c.verify() if p.severity == "error"]
    assert [p.offset for p in errors] == [block]
    (tmp_path / "bad.bld").write_bytes(bytes(data))
    assert assay.verify(tmp_path / "bad.bld")[0].offset == block
    p = run_cli("verify", "--json", tmp_path / "bad.bld", check=False)
    assert p.returncode == 1
    import json
    cli = json.loads(p.stdout)["files"][0]["problems"]
    assert [(x["severity"], x["code"], x["structure"], x["offset"], x["message"]) for x in cli] == [
        (x.severity, x.code, x.structure, x.offset, x.message) for x in c.verify()]


def test_type_stubs_cover_the_extension():
    """python/assay/_assay.pyi names every public function, class and member of the extension."""
    import ast
    import assay._assay as ext
    tree = ast.parse(open(os.path.join(os.path.dirname(assay.__file__), "_assay.pyi")).read())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name if isinstance(n, ast.FunctionDef) else n.target.id
                                  for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign))}
    assert top == {n for n in dir(ext) if not n.startswith("_")} | {"__version__"}
    for cls in ("Container", "Entry", "Problem", "Image"):
        public = {n for n in dir(getattr(ext, cls)) if not n.startswith("_")}
        assert members[cls] - {"__len__", "__iter__"} == public, cls
    assert os.path.exists(os.path.join(os.path.dirname(assay.__file__), "py.typed"))

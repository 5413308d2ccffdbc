"""Names that are not UTF-8, bad option values and unknown keywords (a user's bug report).

- An entry name holding a 0xFF byte: the module gives str with U+FFFD (as the CLI's JSON,
  docs/cli.md#escaping), the raw bytes beside it (Entry.name_bytes; "name_bytes" hex in dicts,
  exactly as `assay list --json`), and extract() returns paths that open (os.fsdecode, surrogate
  escapes). Before the fix every one of these raised UnicodeDecodeError.
- A bad option value is a ValueError naming the keyword (docs/python.md#the-api "Errors"), not
  pybind11's cast error or its TypeError signature dump.
- An unknown keyword is Python's own TypeError ("pack() got an unexpected keyword argument 'x'");
  before the fix pack() ignored a misspelt compresion= and wrote LZMA.
"""
import json
import os
import stat
import subprocess
import zlib

import pytest

import assay
from conftest import CLI, run_cli

BAD = b"bad\xffname.txt"               # not UTF-8: 0xFF never appears in UTF-8
SHOWN = "bad\ufffdname.txt"            # the CLI's replacement: one U+FFFD per invalid byte
CONTENT = b"hello\n"


@pytest.fixture
def bad_archive(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    with open(os.path.join(os.fsencode(src), BAD), "wb") as f:
        f.write(CONTENT)
    arc = tmp_path / "u.arc"
    run_cli("pack", "igarchive", "-o", arc, src)
    return arc


def test_entry_name_not_utf8_is_replaced_and_kept_as_bytes(bad_archive):
    c = assay.open(bad_archive)
    [e] = c.entries
    assert e.name == SHOWN and e.path == SHOWN
    assert e.name_bytes == BAD and e.path_bytes == BAD
    assert SHOWN in repr(e)
    # the entry can be named by its bytes (or by the str os.fsdecode gives for them)
    assert c.read(e.name_bytes) == CONTENT and c.read(os.fsdecode(BAD)) == CONTENT
    assert c.find(BAD).index == 0


def test_dicts_have_the_cli_json_shape(bad_archive):
    c = assay.open(bad_archive)
    cli = json.loads(run_cli("list", "--json", bad_archive).stdout)
    assert c.list() == cli
    d = c.entries[0].to_dict()
    assert d == cli["entries"][0]
    # docs/cli.md#escaping: "<key>" with U+FFFD and "<key>_bytes" the original bytes in hex
    assert (d["name"], d["name_bytes"]) == (SHOWN, BAD.hex())
    assert (d["path"], d["path_bytes"]) == (SHOWN, BAD.hex())
    assert d["name_bytes"] == "626164ff6e616d652e747874"


def test_extract_returns_paths_that_open(bad_archive, tmp_path):
    out = tmp_path / "out"
    [p] = assay.extract(bad_archive, out)
    assert os.fsencode(p) == os.path.join(os.fsencode(out), BAD)  # surrogate escapes: the bytes
    with open(p, "rb") as f:
        assert f.read() == CONTENT
    assert os.listdir(out) == [os.path.basename(p)]  # the same str os.listdir gives
    # the str goes back into assay as a path too (a text file: no family)
    assert assay.identify(p) is None


def test_errors_naming_a_bad_name_are_readable(bad_archive):
    c = assay.open(bad_archive)
    inner = str(bad_archive) + "::" + os.fsdecode(BAD)
    # an inner path of a text file: not a container; the message names it with U+FFFD
    with pytest.raises(assay.FormatError) as e:
        assay.open(inner)
    assert "\ufffd" in str(e.value) or SHOWN in str(e.value)
    assert [p.message for p in assay.verify(inner)]  # Problems are str, never UnicodeDecodeError
    with pytest.raises(KeyError):
        c.read(b"absent\xff")


@pytest.mark.parametrize("call, keyword", [
    (lambda a: assay.open(a, threads=-5), "threads"),
    (lambda a: assay.verify(a, depth=-1), "depth"),
    (lambda a: assay.verify(a, deep=True, depth=2**70), "depth"),
    (lambda a: assay.open(a).verify(deep=True, depth=-1), "depth"),
    (lambda a: assay.open(a).texture(0, mip=-1), "mip"),
    (lambda a: assay.open(a).read(0, threads=-1), "threads"),
    (lambda a: assay.open(a).read_many(threads=-1), "threads"),
    (lambda a: assay.hash.crc32(b"", seed=-1), "seed"),
    (lambda a: assay.hash.crc32(b"", seed=2**32), "seed"),
    (lambda a: assay.pack("igarchive", {"a.txt": b"x"}, threads=-1), "threads"),
    (lambda a: assay.pack("igarchive", {"a.txt": b"x"}, version=-1), "version"),
    (lambda a: assay.pack("igarchive", {"a.txt": b"x"}, version=9), "version"),
    (lambda a: assay.extract(a, os.path.dirname(a), threads=-3), "threads"),
])
def test_bad_option_values_are_value_errors_naming_the_keyword(bad_archive, call, keyword):
    with pytest.raises(ValueError) as e:
        call(str(bad_archive))
    msg = str(e.value)
    assert type(e.value) is ValueError and msg.startswith(keyword + " must be"), msg


def test_option_of_the_wrong_type_is_a_type_error_naming_it(bad_archive):
    for call, keyword in [(lambda: assay.open(bad_archive, threads="two"), "threads"),
                          (lambda: assay.open(bad_archive).texture(0, mip=1.5), "mip"),
                          (lambda: assay.pack("igarchive", {"a": b""}, compression=1), "compression")]:
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value).startswith(keyword + " must be"), str(e.value)


def test_good_option_values_still_work(bad_archive):
    assert assay.hash.crc32(b"abc", seed=0xFFFFFFFF) == zlib.crc32(b"abc", 0xFFFFFFFF)
    assert assay.hash.crc32(b"abc") == zlib.crc32(b"abc") == 0x352441C2
    c = assay.open(bad_archive, threads=0)
    assert c.read(0, threads=1) == CONTENT and c.read_many(threads=2) == [CONTENT]
    assert c.verify(deep=True, depth=0) == [] and assay.verify(bad_archive, depth=3) == []


def test_unknown_keyword_is_pythons_type_error(tmp_path, bad_archive):
    with pytest.raises(TypeError) as e:
        assay.pack("igarchive", {"a.txt": b"x" * 4096}, compresion="none")
    assert str(e.value) == "pack() got an unexpected keyword argument 'compresion'"
    # spelt right, it is honoured: stored, not LZMA
    arc = assay.pack("igarchive", {"a.txt": b"x" * 4096}, compression="none")
    assert assay.open(arc).entries[0].details["compression"] == "none"


@pytest.mark.parametrize("name, call", [
    ("open", lambda a, t: assay.open(a, bogus=1)),
    ("verify", lambda a, t: assay.verify(a, bogus=1)),
    ("extract", lambda a, t: assay.extract(a, t / "x", bogus=1)),
    ("oni_check", lambda a, t: assay.oni_check([a], bogus=1)),
    ("warriors_load", lambda a, t: assay.warriors_load(a, bogus=1)),
    ("igz_dump", lambda a, t: assay.igz_dump(a, bogus=1)),
    ("replace", lambda a, t: assay.replace(a, {BAD: b"y"}, out=t / "r.arc", bogus=1)),
    ("add", lambda a, t: assay.add(a, {"n.txt": b"y"}, out=t / "r.arc", bogus=1)),
    ("remove", lambda a, t: assay.remove(a, [BAD], out=t / "r.arc", bogus=1)),
    ("pack", lambda a, t: assay.pack("oni", t, out=t / "level1_X.dat", bogus=1)),
    ("pack", lambda a, t: assay.pack("oni", t, out=t / "level1_X.dat", compression="lzma")),  # another format's
    ("pack", lambda a, t: assay.pack("warriors", t, out=t / "w", like=a, bogus=1)),
    ("pack", lambda a, t: assay.pack("warriors-container", {1: b""}, bogus=1)),
    ("pack", lambda a, t: assay.pack("igarchive", t, out=t / "l.arc", like=a, bogus=1)),
])
def test_every_keyword_function_rejects_unknown_keywords(bad_archive, tmp_path, name, call):
    with pytest.raises(TypeError) as e:
        call(bad_archive, tmp_path)
    key = "compression" if "compression" in repr(call.__code__.co_consts) else "bogus"
    assert str(e.value) == f"{name}() got an unexpected keyword argument '{key}'"
    assert not (tmp_path / "r.arc").exists() and not (tmp_path / "x").exists()  # nothing done


def test_in_place_on_a_read_only_file_matches_the_cli(bad_archive, tmp_path):
    """`assay replace --in-place` on a 0444 file (as any user who may write the folder: the new
    file is renamed over the old one) rewrites it and keeps its mode; Python does exactly the same."""
    new = tmp_path / "new.txt"
    new.write_bytes(b"new\n")
    cli_copy, py_copy = tmp_path / "cli.arc", tmp_path / "py.arc"
    for p in (cli_copy, py_copy):
        p.write_bytes(bad_archive.read_bytes())
        p.chmod(0o444)
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    r = subprocess.run([CLI, "replace", os.fsencode(cli_copy), os.fsencode(BAD) + b"=" + os.fsencode(new), "--in-place"],
                       capture_output=True, env=env)
    try:
        report = assay.replace(py_copy, {BAD: new}, in_place=True)
        py_ok = True
    except OSError:
        py_ok = False
    assert py_ok == (r.returncode == 0), r.stderr
    assert cli_copy.read_bytes() == py_copy.read_bytes()
    assert stat.S_IMODE(cli_copy.stat().st_mode) == stat.S_IMODE(py_copy.stat().st_mode) == 0o444
    if py_ok:
        assert report["in_place"] is True and assay.open(py_copy).read(BAD) == b"new\n"

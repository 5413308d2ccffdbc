"""The library operations the CLI and Python share (include/assay/ops.h): assay.extract writes what
`assay extract` writes and returns those paths; oni_check, warriors_load, igz_dump and rw_tree return
the dicts `--json` prints, and agree with facts the samples' READMEs give."""
import os

import pytest

import assay
from conftest import SHARED, require_sample, run_cli


def files_of(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, fs in os.walk(root) for f in fs)


def test_extract_returns_what_it_wrote(samples, tmp_path):
    src = samples / "demo_v8_lzma.bld"
    written = assay.extract(src, tmp_path / "py")
    run_cli("extract", src, "-o", tmp_path / "cli")
    assert files_of(tmp_path / "py") == files_of(tmp_path / "cli") != []
    assert sorted(os.path.relpath(p, tmp_path / "py") for p in written) == files_of(tmp_path / "py")
    for rel in files_of(tmp_path / "cli"):
        assert (tmp_path / "py" / rel).read_bytes() == (tmp_path / "cli" / rel).read_bytes()
    # again: nothing is overwritten without force, and an existing file is named
    with pytest.raises(assay.FormatError) as e:
        assay.extract(src, tmp_path / "py")
    assert "exists" in str(e.value)
    assert assay.extract(src, tmp_path / "py", skip_existing=True) == []
    assert len(assay.extract(src, tmp_path / "py", force=True)) == len(written)


def test_extract_patterns_select(samples, tmp_path):
    src = samples / "demo_v8_lzma.bld"
    names = [e.path for e in assay.open(src).entries]
    one = assay.extract(src, tmp_path / "one", names[0])
    assert [os.path.relpath(p, tmp_path / "one") for p in one] == [names[0]]
    with pytest.raises(assay.FormatError):
        assay.extract(src, tmp_path / "none", "no-such-entry")


def test_rw_tree_matches_readme():
    path = require_sample("renderware/rw-parser/infernus.txd")
    t = assay.rw_tree(path)
    # README: 9,640 bytes of stream, then zeros up to 10,240
    assert t["format"] == "renderware" and t["stream_end"] == 9640 and t["padding"] == 10240 - 9640
    assert t["sections"][0]["name"] == "Texture Dictionary" and t["sections"][0]["depth"] == 0
    assert t == __import__("json").loads(run_cli("rw", "tree", "--json", path).stdout)


def test_oni_check_matches_onisplit_counts():
    folder = require_sample("oni/GameDataFolder")
    r = assay.oni_check(folder)
    levels = {l["level"]: l for l in r["levels"]}
    # README (OniSplit's counts): level 0 31 instances, 0 placeholders; level 1 19 and 4
    assert (levels[0]["instances"], levels[0]["placeholders"]) == (31, 0)
    assert (levels[1]["instances"], levels[1]["placeholders"]) == (19, 4)
    assert r == __import__("json").loads(run_cli("oni", "check", "--json", folder).stdout)


def test_igz_dump_and_warriors_load_are_the_cli_json(samples):
    import json
    igz = samples / "sample_v9_be.igz"
    assert assay.igz_dump(igz) == json.loads(run_cli("igz", "dump", "--json", igz).stdout)
    lev = samples / "warriors_level1.lev"
    assert assay.warriors_load(lev) == json.loads(run_cli("warriors", "load", "--json", lev).stdout)
    with pytest.raises(ValueError):
        assay.warriors_load(lev, shape="sideways")
    with pytest.raises(ValueError):
        assay.igz_dump(samples / "demo_v8_lzma.bld")  # not an igz: a usage error

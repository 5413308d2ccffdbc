"""A --layouts / --exe file that cannot be opened (layouts=, exe=) is an I/O error naming it: the
library's container_options refuses it, Python raises FileNotFoundError through the existing
error translation (tests/cli/option_files_test.cc is the CLI's side)."""
import pytest

import assay


@pytest.mark.parametrize("option", ["layouts", "exe"])
def test_missing_option_file_raises(samples, tmp_path, option):
    missing = tmp_path / "nonexist"
    with pytest.raises(FileNotFoundError) as e:
        assay.open(samples / "level0_Final.dat", **{option: missing})
    assert e.value.errno == 2 and e.value.filename == str(missing)
    # the file make-samples writes beside the level is a layouts file: still read
    assert len(assay.open(samples / "level0_Final.dat", layouts=samples / "oni-layouts.txt")) == 6

"""The documentation runs (issue 14): every ```python block of docs/python.md, in a folder holding
`assay make-samples samples`, and the README's install command really installs the module."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import assay
from conftest import SOURCE_DIR, run_cli


def blocks(path, lang):
    text = open(path, encoding="utf-8").read()
    return re.findall(r"^```" + lang + r"\n(.*?)^```", text, flags=re.S | re.M)


DOC_BLOCKS = blocks(os.path.join(SOURCE_DIR, "docs", "python.md"), "python")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("docs")
    run_cli("make-samples", d / "samples")
    return d


def test_docs_have_the_five_tasks():
    text = open(os.path.join(SOURCE_DIR, "docs", "python.md"), encoding="utf-8").read()
    for task in ("List an archive", "Extract textures", "Find which archive holds a name", "Verify a folder of files",
                 "Replace one file"):
        assert f". {task}" in text
    assert len(DOC_BLOCKS) >= 7


@pytest.mark.parametrize("index", range(len(DOC_BLOCKS)))
def test_doc_example_runs(workdir, index):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(assay.__file__))
    p = subprocess.run([sys.executable, "-c", DOC_BLOCKS[index]], cwd=workdir, env=env, capture_output=True, text=True)
    assert p.returncode == 0, f"docs/python.md python block {index}:\n{DOC_BLOCKS[index]}\n{p.stderr}"
    assert p.stdout  # every example prints what it found


def test_readme_install_command(tmp_path):
    """The README's one-line install (a copy into the user site-packages, no network) works."""
    [cmd] = [line for b in blocks(os.path.join(SOURCE_DIR, "README.md"), "sh") for line in b.splitlines()
             if "--user-site" in line]
    package_dir = os.path.dirname(os.path.dirname(assay.__file__))  # <build>/python
    cmd = cmd.replace("build/default/python", package_dir).replace("/usr/bin/python3", sys.executable)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONUSERBASE"] = str(tmp_path / "userbase")
    subprocess.run(["sh", "-c", cmd], check=True, env=env, cwd=SOURCE_DIR)
    p = subprocess.run([sys.executable, "-c", "import assay; print(assay.__file__); print(assay.hash.crc32('123456789'))"],
                       env=env, cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    where, crc = p.stdout.split()
    assert where.startswith(str(tmp_path / "userbase")) and int(crc) == 0xCBF43926

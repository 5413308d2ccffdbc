"""Fixtures for the `assay` Python module's tests (issue 14), run by CTest through run.py.

The environment (python/tests.cmake) gives ASSAY_CLI (the built `assay` tool), ASSAY_SHARED_SAMPLES
(../shared/samples) and ASSAY_SOURCE_DIR. Fixture files are made by `assay make-samples`, i.e.
by assay's own writers; real third-party files are read in place from the shared samples.
"""
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("ASSAY_SOURCE_DIR", os.path.normpath(os.path.join(HERE, "..", "..")))
CLI = os.environ.get("ASSAY_CLI", os.path.join(SOURCE_DIR, "build", "default", "assay"))
SHARED = os.environ.get("ASSAY_SHARED_SAMPLES", os.path.join(SOURCE_DIR, "..", "shared", "samples"))
SANITIZED = os.environ.get("ASSAY_SANITIZED") == "1"


def on_ci():
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require_sample(rel):
    """Path of a shared sample; skips when absent, fails under CI=true (as ASSAY_REQUIRE_SAMPLE)."""
    path = os.path.join(SHARED, rel)
    if not os.path.exists(path):
        msg = f"shared sample {rel} not found under {SHARED}"
        if on_ci():
            pytest.fail(msg + " (CI=true: samples are required)")
        pytest.skip(msg)
    return path


def run_cli(*args, check=True, cwd=None):
    """Runs the built CLI; returns the CompletedProcess (stdout as bytes)."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)  # the CLI is a sanitized executable itself
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, cwd=cwd, env=env)
    if check and p.returncode != 0:
        raise AssertionError(f"assay {' '.join(map(str, args))} failed ({p.returncode}): {p.stderr.decode()}")
    return p


@pytest.fixture(scope="session")
def samples(tmp_path_factory):
    """A folder of the demo files `assay make-samples` writes (every family)."""
    d = tmp_path_factory.mktemp("samples")
    run_cli("make-samples", d)
    return d


@pytest.fixture(scope="session")
def cli_json():
    import json

    def run(*args):
        return json.loads(run_cli(*args).stdout)
    return run


sys.path.insert(0, HERE)

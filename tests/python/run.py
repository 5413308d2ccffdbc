"""Runs one pytest file for CTest (python/tests.cmake) with this interpreter.

Exit 77 (CTest: skipped) when pytest is not installed, except under CI=true where a missing
pytest is a failure: the Python tests must run on CI.
"""
import os
import sys

try:
    import pytest
except ImportError:
    ci = os.environ.get("CI", "").lower() in ("1", "true", "yes")
    print(f"{sys.executable}: pytest is not installed (Debian: apt install python3-pytest)", file=sys.stderr)
    sys.exit(1 if ci else 77)

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-rs", *sys.argv[1:]]))

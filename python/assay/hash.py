"""The hashes of `assay hash ALGO STRING`, as ints (format with f"{h:08x}" to print like the CLI).

A str is hashed as its UTF-8 bytes; bytes-like objects as they are.
"""
from typing import Union

from ._assay import hash as _h

_Data = Union[str, bytes, bytearray, memoryview]


def fnv1a(data: _Data, lowercase: bool = False) -> int:
    """FNV-1a 32 (Alchemy names); lowercase=True folds A-Z first (the archive's case-insensitive flag)."""
    return _h.fnv1a(data, lowercase)


def crc32(data: _Data, seed: int = 0) -> int:
    """CRC-32 as zlib.crc32 (seed continues a previous crc)."""
    return _h.crc32(data, seed)


def warriors(name: _Data) -> int:
    """The Warriors' WAD name hash (spec warriors.md)."""
    return _h.warriors(name)


def oni_file_id(file_name: str) -> int:
    """Oni's file id of a level file name such as 'level1_Final.dat' (spec oni.md#oni-2-2)."""
    return _h.oni_file_id(file_name)


__all__ = ["fnv1a", "crc32", "warriors", "oni_file_id"]

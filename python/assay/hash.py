"""The hashes of `assay hash ALGO STRING`, as ints (format with f"{h:08x}" to print like the CLI).

fnv1a(data, lowercase=False), crc32(data, seed=0), warriors(name), oni_file_id(file_name).
A str is hashed as its UTF-8 bytes.
"""
from ._assay import hash as _h

fnv1a = _h.fnv1a
crc32 = _h.crc32
warriors = _h.warriors
oni_file_id = _h.oni_file_id

__all__ = ["fnv1a", "crc32", "warriors", "oni_file_id"]

"""Type stubs of the extension assay._assay (python/src/*.cc); docs/python.md documents the API."""
import os
from types import ModuleType
from typing import Any, Iterable, Iterator, Optional, Union

_Path = Union[str, "os.PathLike[str]"]
_Bytes = Union[bytes, bytearray, memoryview]
_EntryRef = Union["Entry", str, int]

__version__: str
formats: tuple[str, ...]

class FormatError(ValueError):
    file: Optional[str]
    format: Optional[str]
    structure: Optional[str]
    offset: Optional[int]
    message: str
    unsupported: bool

class Entry:
    index: int
    name: Optional[str]
    path: Optional[str]
    offset: Optional[int]
    size: Optional[int]
    stored_size: Optional[int]
    kind: str
    nested: bool
    details: dict[str, Any]
    container: "Container"
    def to_dict(self) -> dict[str, Any]: ...

class Problem:
    severity: str
    code: Optional[str]
    structure: Optional[str]
    offset: Optional[int]
    message: str
    file: Optional[str]

class Image:
    width: int
    height: int
    rgba: memoryview
    def tobytes(self) -> bytes: ...
    def to_png(self) -> bytes: ...

class Container:
    format: str
    name: str
    entries: list[Entry]
    def info(self) -> dict[str, Any]: ...
    def list(self) -> dict[str, Any]: ...
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Entry]: ...
    def find(self, name: str) -> Optional[Entry]: ...
    def read(self, entry: _EntryRef, threads: Optional[int] = None) -> bytes: ...
    def read_many(self, entries: Optional[Iterable[_EntryRef]] = None, threads: int = 0) -> list[bytes]: ...
    def open(self, entry: _EntryRef) -> "Container": ...
    def verify(self, deep: bool = False, depth: int = 1) -> list[Problem]: ...
    def texture(self, entry: _EntryRef, mip: int = 0) -> Image: ...

def open(source: Union[_Path, _Bytes], *, format: str = "", **options: Any) -> Container: ...
def identify(source: Union[_Path, _Bytes]) -> Optional[str]: ...
def verify(path: _Path, deep: bool = False, depth: int = 1, **options: Any) -> list[Problem]: ...
def extract(source: _Path, out_dir: _Path, patterns: Union[None, str, list[str]] = None, *, mips: bool = False,
            stored: bool = False, force: bool = False, skip_existing: bool = False,
            exclude: Union[None, str, list[str]] = None, **options: Any) -> list[str]: ...
def oni_check(paths: Union[_Path, list[_Path]], **options: Any) -> dict[str, Any]: ...
def warriors_load(path: _Path, *, shape: str = "auto", **options: Any) -> dict[str, Any]: ...
def igz_dump(path: _Path, **options: Any) -> dict[str, Any]: ...
def rw_tree(path: _Path) -> dict[str, Any]: ...
def pack(format: str, source: Any, out: Optional[_Path] = None, **options: Any) -> Any: ...
def replace(archive: _Path, changes: dict[str, Union[_Bytes, _Path]], *, out: Optional[_Path] = None,
            in_place: bool = False, force: bool = False, compression: Optional[str] = None,
            **options: Any) -> dict[str, Any]: ...
def add(archive: _Path, changes: dict[str, Union[_Bytes, _Path]], *, out: Optional[_Path] = None,
        in_place: bool = False, force: bool = False, compression: Optional[str] = None,
        **options: Any) -> dict[str, Any]: ...
def remove(archive: _Path, names: Iterable[str], *, out: Optional[_Path] = None, in_place: bool = False,
           force: bool = False, **options: Any) -> dict[str, Any]: ...

hash: ModuleType  # the extension's hash functions; use assay.hash (python/assay/hash.py)

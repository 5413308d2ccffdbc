"""assay: read, verify, extract and edit the asset containers of The Warriors (PS2 / RenderWare),
Oni and Alchemy (igArchive / igz), on the same C++ readers as the `assay` command line tool.

    import assay
    c = assay.open("bootstrap.bld")            # a file, "A::B::C" inner path, or bytes
    for e in c.entries:
        data = c.read(e)                       # bytes (the GIL is released while decoding)

See docs/python.md for the whole API and examples.
"""
from ._assay import (  # noqa: F401
    Container,
    Entry,
    FormatError,
    Image,
    Problem,
    Sound,
    __version__,
    add,
    extract,
    formats,
    identify,
    igz_dump,
    oni_check,
    open,
    pack,
    remove,
    replace,
    rw_tree,
    verify,
    warriors_load,
)
from . import hash  # noqa: F401

__all__ = [
    "Container", "Entry", "FormatError", "Image", "Problem", "Sound", "add", "extract", "formats", "hash", "identify",
    "igz_dump", "oni_check", "open", "pack", "remove", "replace", "rw_tree", "verify", "warriors_load",
]

// The `assay` Python module's extension, assay._assay. The package's __init__.py
// re-exports it; docs/python.md documents the API.
#include "assay/family.h"
#include "assay/core/hash.h"
#include "assay/formats/oni/names.h"
#include "assay/formats/warriors/disc.h"
#include "bindings.h"

namespace assay::python {

namespace {

// A str is hashed as its UTF-8 bytes; bytes-like objects as they are.
std::string text_of(const py::handle& s) {
  if (py::isinstance<py::str>(s)) return name_of(s, "data");  // UTF-8 (surrogate escapes: their bytes)
  const ByteBuffer b = bytes_of(s);
  return std::string(b.begin(), b.end());
}

void register_hashes(py::module_& m) {
  auto h = m.def_submodule("hash", "The hashes of `assay hash ALGO STRING` (as ints; f'{h:08x}' prints like the CLI).");
  h.def("fnv1a", [](const py::object& s, bool lowercase) { return fnv1a32(text_of(s), lowercase); }, py::arg("data"),
        py::arg("lowercase") = false, "FNV-1a 32 (Alchemy names; lowercase=True folds A-Z first, the case-insensitive flag)");
  h.def("crc32", [](const py::object& s, const py::object& seed) {
    const auto v = static_cast<std::uint32_t>(uint_arg(seed, "seed", 0xFFFFFFFFu, "an integer from 0 to 0xFFFFFFFF (a previous CRC-32)"));
    return crc32(text_of(s), v);
  }, py::arg("data"), py::arg("seed") = py::int_(0), "CRC-32 as zlib.crc32 (seed continues a previous crc)");
  h.def("warriors", [](const py::object& s) { return warriors::name_hash(text_of(s)); }, py::arg("name"),
        "The Warriors' WAD name hash (spec warriors.md)");
  h.def("oni_file_id", [](const std::string& name) { return unwrap(oni::parse_level_file_name(name)).file_id; },
        py::arg("file_name"), "Oni's file id of a level file name such as 'level1_Final.dat' (spec oni.md#oni-2-2; FormatError if not one)");
}

}  // namespace

PYBIND11_MODULE(_assay, m) {
  m.doc() = "assay: read, verify, extract and edit the asset containers of The Warriors (PS2), Oni and Alchemy";
  m.attr("__version__") = ASSAY_VERSION;
  register_errors(m);
  register_container(m);
  register_writers(m);
  register_ops(m);
  register_hashes(m);
  py::list fams;
  for (const Family* f : families()) fams.append(py::str(std::string(f->name)));
  m.attr("formats") = py::tuple(fams);
}

}  // namespace assay::python

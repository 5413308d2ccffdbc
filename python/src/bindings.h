// Shared pieces of the `assay` Python module: how assay's Error becomes a Python
// exception, JSON values become Python objects, and Python option keywords become ReadOptions.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "assay/container.h"
#include "formats/serialise.h"

namespace assay::python {

namespace py = pybind11;

// Thrown by the bindings; translated to assay.FormatError (data/unsupported), OSError (io) or
// TypeError/ValueError (usage) by the module's exception translator.
struct ErrorException {
  Error error;
};
[[noreturn]] inline void raise(Error e) { throw ErrorException{std::move(e)}; }
template <class T>
T unwrap(Result<T> r) {
  if (!r) raise(std::move(r).error());
  return std::move(r).value();
}
void register_errors(py::module_& m);

// Text from files (entry names, paths, messages) -> str. pybind11's default std::string -> str
// conversion is a strict UTF-8 decode, and names in files are whatever bytes the file holds, so
// every such string goes through one of these (docs/python.md#text):
//  - text(): each byte of an ill-formed UTF-8 sequence becomes U+FFFD, exactly as the CLI's JSON
//    (docs/cli.md#escaping; core/text.h utf8_replace_invalid);
//  - fs_path(): a path on this machine, decoded as os.fsdecode() does (surrogateescape on Linux),
//    so open()/os.fsencode() get the original bytes back;
//  - shown(): the same replacement for a message built in C++ (exception text).
py::str text(std::string_view s);
py::object opt_text(const std::optional<std::string>& s);
py::str fs_path(std::string_view s);
std::string shown(std::string_view s);

// nlohmann JSON -> dict/list/int/float/str/bool/None (recursively), after the CLI's JSON rule
// (docs/cli.md#escaping): an object member "<key>" that is not UTF-8 gets U+FFFD replacements and
// a sibling "<key>_bytes" with the original bytes in hex, as `--json` prints it.
py::object to_python(Json j);

// Bytes of a bytes-like object (bytes, bytearray, memoryview), copied.
ByteBuffer bytes_of(const py::handle& obj);
// str or os.PathLike -> a path string (os.fsencode: a str from os.listdir or extract() with
// surrogate escapes gives back its original bytes); other objects are a TypeError.
std::string path_of(const py::handle& obj);
bool is_path_like(const py::handle& obj);
// An entry name given by Python: bytes as they are, a str as UTF-8 (surrogate escapes give back
// their bytes). `what` names the argument in the TypeError for other objects.
std::string name_of(const py::handle& obj, const char* what = "name");

// Checked option values: a bad value is a ValueError naming the keyword ("threads must be 0 (all
// cores) or a positive integer, got -5"), a value of the wrong type a TypeError naming it, never
// pybind11's cast error. `range` is the text after "must be".
std::uint64_t uint_arg(const py::handle& v, const char* name, std::uint64_t max, std::string_view range);
std::string str_arg(const py::handle& v, const char* name);
bool flag_arg(const py::handle& v);  // Python truthiness
// Python's own wording for a keyword the function does not take:
// TypeError("pack() got an unexpected keyword argument 'compresion'").
[[noreturn]] void unexpected_keyword(std::string_view function, std::string_view key);

// Python keywords -> the CLI's reading options: names=[...], threads=N, and family options by
// their CLI names with '_' for '-' (igarchive_max_member="1M", igz_pointer_size=4, layouts=...,
// exe=..., textures=True). An unknown keyword is a TypeError naming it and `function`.
ReadOptions read_options_of(const py::kwargs& kw, std::string_view function);
ContainerOptions container_options_of(const py::kwargs& kw, std::string_view function);

void register_container(py::module_& m);
void register_writers(py::module_& m);
void register_ops(py::module_& m);

}  // namespace assay::python

// Shared pieces of the `assay` Python module: how assay's Error becomes a Python
// exception, JSON values become Python objects, and Python option keywords become ReadOptions.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

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

// nlohmann JSON -> dict/list/int/float/str/bool/None (recursively).
py::object to_python(const Json& j);

// Bytes of a bytes-like object (bytes, bytearray, memoryview), copied.
ByteBuffer bytes_of(const py::handle& obj);
// str or os.PathLike -> a path string; other objects are a TypeError.
std::string path_of(const py::handle& obj);
bool is_path_like(const py::handle& obj);

// Python keywords -> the CLI's reading options: names=[...], threads=N, and family options by
// their CLI names with '_' for '-' (igarchive_max_member="1M", igz_pointer_size=4, layouts=...,
// exe=..., textures=True). An unknown keyword is a TypeError naming it.
ReadOptions read_options_of(const py::kwargs& kw);
ContainerOptions container_options_of(const py::kwargs& kw);

void register_container(py::module_& m);
void register_writers(py::module_& m);
void register_ops(py::module_& m);

}  // namespace assay::python

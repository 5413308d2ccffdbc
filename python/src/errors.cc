// assay.FormatError and the translation of assay's Error to Python exceptions (issue 14):
// data/unsupported -> FormatError(ValueError) with .file .format .structure .offset .message;
// io -> OSError(errno, message, file); usage -> ValueError.
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "bindings.h"

namespace assay::python {

namespace {

PyObject* g_format_error = nullptr;  // the class object, owned by the module (never freed)

// The errno an io Error stands for: assay's messages carry strerror() text or fixed wording.
int errno_of(const Error& e) {
  for (int code : {ENOENT, EACCES, EISDIR, ENOTDIR, EEXIST, ENOSPC, EROFS, ELOOP, EPERM, EMFILE, EIO})
    if (e.message.find(std::strerror(code)) != std::string::npos) return code;
  if (e.message.find("exists (use --force") != std::string::npos) return EEXIST;
  if (e.message.find("is a directory") != std::string::npos) return EISDIR;
  std::error_code ec;
  if (!e.file.empty() && !std::filesystem::exists(e.file, ec)) return ENOENT;
  return 0;
}

void set_format_error(const Error& e) {
  py::object cls = py::reinterpret_borrow<py::object>(g_format_error);
  py::object exc = cls(py::str(e.str()));
  exc.attr("file") = e.file.empty() ? py::object(py::none()) : py::object(py::str(e.file));
  exc.attr("format") = e.format.empty() ? py::object(py::none()) : py::object(py::str(e.format));
  exc.attr("structure") = e.structure.empty() ? py::object(py::none()) : py::object(py::str(e.structure));
  exc.attr("offset") = e.offset == kNoOffset ? py::object(py::none()) : py::object(py::int_(e.offset));
  exc.attr("message") = py::str(e.message);
  exc.attr("unsupported") = py::bool_(e.kind == ErrorKind::unsupported);
  PyErr_SetObject(g_format_error, exc.ptr());
}

void set_os_error(const Error& e) {
  const int code = errno_of(e);
  py::object exc = e.file.empty() ? py::reinterpret_borrow<py::object>(PyExc_OSError)(code, e.message)
                                  : py::reinterpret_borrow<py::object>(PyExc_OSError)(code, e.message, e.file);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exc.ptr())), exc.ptr());
}

}  // namespace

void register_errors(py::module_& m) {
  py::dict ns;
  ns["__doc__"] = py::str(
      "A file assay cannot read: .file, .format, .structure (e.g. 'file-info[3]'), .offset (absolute "
      "byte offset, or None) and .message say where and what, as the CLI's error line does.");
  g_format_error = PyErr_NewException("assay.FormatError", PyExc_ValueError, ns.ptr());
  for (const char* a : {"file", "format", "structure", "offset", "message"})
    PyObject_SetAttrString(g_format_error, a, Py_None);
  m.add_object("FormatError", py::handle(g_format_error));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const ErrorException& x) {
      const Error& e = x.error;
      if (e.kind == ErrorKind::io) return set_os_error(e);
      if (e.kind == ErrorKind::usage) return PyErr_SetString(PyExc_ValueError, e.str().c_str());
      set_format_error(e);
    }
  });
}

}  // namespace assay::python

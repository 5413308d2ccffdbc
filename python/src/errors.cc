// assay.FormatError and the translation of assay's Error to Python exceptions:
// data/unsupported -> FormatError(ValueError) with .file .format .structure .offset .message;
// io -> OSError(errno, message, file); usage -> ValueError.
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <utility>

#include "bindings.h"

namespace assay::python {

namespace {

PyObject* g_format_error = nullptr;  // the class object, owned by the module (never freed)

// The library's messages name the CLI's options ("use --force to overwrite"); in Python they
// name the keyword arguments instead ("use force=True to overwrite").
std::string python_names(const std::string& msg) {
  static const std::pair<std::string_view, std::string_view> kNames[] = {
      {"--force", "force=True"},
      {"--in-place", "in_place=True"},
      {"-o OUTDIR", "out=FOLDER"},
      {"-o OUT", "out=PATH"},
      {"--resize", "resize=True"},
      {"--png-size", "png_size=True"},
      {"--sep", "sep=True"},
      {"--textures", "textures=True"},
      {"--models", "models=True"},
      {"--sounds", "sounds=True"},
      {"--adpcm", "adpcm=True"},
      {"--layouts FILE", "layouts=PATH"},
      {"--exe Oni.exe", "exe='Oni.exe'"},
      {"--compression", "compression"},
      {"--format", "texture_format"},
      {"--dither", "dither"},
      {"--igarchive-max-member", "igarchive_max_member"},
      {"--igz-pointer-size", "igz_pointer_size"},
      {"--layouts", "layouts"},
      {"--exe", "exe"},
      {"--names", "names"},
      {"--threads", "threads"},
  };
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  std::string out;
  for (std::size_t i = 0; i < msg.size();) {
    std::string_view hit, py;
    if (msg[i] == '-' && (i == 0 || !word_char(msg[i - 1])))
      for (const auto& [c, p] : kNames) {
        const std::size_t end = i + c.size();
        if (msg.compare(i, c.size(), c) == 0 && (end >= msg.size() || !word_char(msg[end]))) {
          hit = c, py = p;
          break;
        }
      }
    if (hit.empty()) {
      out += msg[i++];
    } else {
      out += py;
      i += hit.size();
    }
  }
  return out;
}

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
  // Text from files may not be UTF-8: U+FFFD as the CLI's JSON; .file is the path as given.
  py::object exc = cls(text(python_names(e.str())));
  exc.attr("file") = e.file.empty() ? py::object(py::none()) : py::object(fs_path(e.file));
  exc.attr("format") = e.format.empty() ? py::object(py::none()) : py::object(text(e.format));
  exc.attr("structure") = e.structure.empty() ? py::object(py::none()) : py::object(text(e.structure));
  exc.attr("offset") = e.offset == kNoOffset ? py::object(py::none()) : py::object(py::int_(e.offset));
  exc.attr("message") = text(python_names(e.message));
  exc.attr("unsupported") = py::bool_(e.kind == ErrorKind::unsupported);
  PyErr_SetObject(g_format_error, exc.ptr());
}

void set_os_error(const Error& e) {
  const int code = errno_of(e);
  const py::str message = text(python_names(e.message));
  py::object exc = e.file.empty() ? py::reinterpret_borrow<py::object>(PyExc_OSError)(code, message)
                                  : py::reinterpret_borrow<py::object>(PyExc_OSError)(code, message, fs_path(e.file));
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
      if (e.kind == ErrorKind::usage) return PyErr_SetString(PyExc_ValueError, shown(python_names(e.str())).c_str());
      set_format_error(e);
    }
  });
}

}  // namespace assay::python

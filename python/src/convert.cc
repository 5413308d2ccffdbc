// Conversions between assay's C++ values and Python objects.
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "assay/core/text.h"
#include "bindings.h"
#include "core/json_text.h"
#include "formats/serialise.h"

namespace assay::python {

py::str text(std::string_view s) {
  if (valid_utf8(s)) return py::str(s.data(), s.size());
  const std::string r = utf8_replace_invalid(s);
  return py::str(r.data(), r.size());
}

py::object opt_text(const std::optional<std::string>& s) { return s ? py::object(text(*s)) : py::object(py::none()); }

py::str fs_path(std::string_view s) {
  PyObject* o = PyUnicode_DecodeFSDefaultAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

std::string shown(std::string_view s) { return valid_utf8(s) ? std::string(s) : utf8_replace_invalid(s); }

namespace {

// The JSON tree after the CLI's rule (make_json_utf8 leaves a clean tree untouched, unchanged).
py::object json_to_python(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return py::none();
    case Json::value_t::boolean: return py::bool_(j.get<bool>());
    case Json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case Json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case Json::value_t::number_float: return py::float_(j.get<double>());
    case Json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case Json::value_t::array: {
      py::list l;
      for (const auto& v : j) l.append(json_to_python(v));
      return l;
    }
    case Json::value_t::object: {
      py::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[py::str(it.key())] = json_to_python(it.value());
      return d;
    }
    default: return py::none();  // binary/discarded: never produced by assay's serialisers
  }
}

}  // namespace

py::object to_python(Json j) {
  make_json_utf8(j);  // docs/cli.md#escaping: U+FFFD and "<key>_bytes", as `--json` prints
  return json_to_python(j);
}

ByteBuffer bytes_of(const py::handle& obj) {
  if (py::isinstance<py::str>(obj)) throw py::type_error("expected a bytes-like object, got str");
  py::buffer b = py::reinterpret_borrow<py::buffer>(obj);
  py::buffer_info info = b.request();  // raises TypeError for objects without the buffer protocol
  const auto* p = static_cast<const std::uint8_t*>(info.ptr);
  const auto n = static_cast<std::size_t>(info.size * info.itemsize);
  return ByteBuffer(p, p + n);
}

bool is_path_like(const py::handle& obj) {
  return py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__");
}

std::string path_of(const py::handle& obj) {
  if (!is_path_like(obj)) throw py::type_error("expected a path (str or os.PathLike)");
  // os.fsencode: a str with surrogate escapes (os.listdir, extract()) gives back its bytes.
  py::object p = py::module_::import("os").attr("fsencode")(obj);
  return p.cast<std::string>();
}

std::string name_of(const py::handle& obj, const char* what) {
  if (py::isinstance<py::bytes>(obj)) return obj.cast<std::string>();
  if (!py::isinstance<py::str>(obj))
    throw py::type_error(fmt::format("{} must be a str or bytes, not {}", what, Py_TYPE(obj.ptr())->tp_name));
  PyObject* b = PyUnicode_AsEncodedString(obj.ptr(), "utf-8", "surrogateescape");
  if (b == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::bytes>(b).cast<std::string>();
}

std::uint64_t uint_arg(const py::handle& v, const char* name, std::uint64_t max, std::string_view range) {
  PyObject* i = PyNumber_Index(v.ptr());  // int, bool or anything with __index__
  if (i == nullptr) {
    PyErr_Clear();
    throw py::type_error(fmt::format("{} must be an integer, not {}", name, Py_TYPE(v.ptr())->tp_name));
  }
  const py::object n = py::reinterpret_steal<py::object>(i);
  int overflow = 0;
  const long long x = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
  if (overflow != 0 || x < 0 || static_cast<unsigned long long>(x) > max)
    throw py::value_error(fmt::format("{} must be {}, got {}", name, range, py::repr(n).cast<std::string>()));
  return static_cast<std::uint64_t>(x);
}

std::string str_arg(const py::handle& v, const char* name) {
  if (!py::isinstance<py::str>(v))
    throw py::type_error(fmt::format("{} must be a str, not {}", name, Py_TYPE(v.ptr())->tp_name));
  return v.cast<std::string>();
}

bool flag_arg(const py::handle& v) {
  const int t = PyObject_IsTrue(v.ptr());
  if (t < 0) throw py::error_already_set();
  return t != 0;
}

void unexpected_keyword(std::string_view function, std::string_view key) {
  throw py::type_error(fmt::format("{}() got an unexpected keyword argument '{}'", function, key));
}

namespace {

std::string option_text(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "1" : "";
  if (is_path_like(v)) return path_of(v);
  return py::str(v).cast<std::string>();
}

}  // namespace

ReadOptions read_options_of(const py::kwargs& kw, std::string_view function) {
  static const char* const kFamily[] = {"igarchive_max_member", "igz_pointer_size", "layouts", "exe", "textures",
                                        "models",               "sounds",           "adpcm"};
  ReadOptions ro;
  for (const auto& [k, v] : kw) {
    const std::string key = k.cast<std::string>();
    bool known = key == "names" || key == "threads";
    for (const char* f : kFamily) known = known || key == f;
    if (!known) unexpected_keyword(function, key);
    if (v.is_none()) continue;
    if (key == "names") {
      if (is_path_like(v)) ro.names_files.push_back(path_of(v));
      else
        for (const auto& n : v) ro.names_files.push_back(path_of(n));
      continue;
    }
    if (key == "threads") {
      ro.threads = static_cast<unsigned>(uint_arg(v, "threads", 0xFFFFFFFFu, "0 (all cores) or a positive integer"));
      continue;
    }
    std::string cli_name = key;
    for (char& c : cli_name) c = c == '_' ? '-' : c;
    const std::string value = option_text(v);
    if (!value.empty()) ro.family[cli_name] = value;
  }
  return ro;
}

ContainerOptions container_options_of(const py::kwargs& kw, std::string_view function) {
  return unwrap(container_options(read_options_of(kw, function)));
}

}  // namespace assay::python

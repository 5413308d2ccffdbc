// Conversions between assay's C++ values and Python objects.
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "bindings.h"
#include "formats/serialise.h"

namespace assay::python {

py::object to_python(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null: return py::none();
    case Json::value_t::boolean: return py::bool_(j.get<bool>());
    case Json::value_t::number_integer: return py::int_(j.get<std::int64_t>());
    case Json::value_t::number_unsigned: return py::int_(j.get<std::uint64_t>());
    case Json::value_t::number_float: return py::float_(j.get<double>());
    case Json::value_t::string: return py::str(j.get_ref<const std::string&>());
    case Json::value_t::array: {
      py::list l;
      for (const auto& v : j) l.append(to_python(v));
      return l;
    }
    case Json::value_t::object: {
      py::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[py::str(it.key())] = to_python(it.value());
      return d;
    }
    default: return py::none();  // binary/discarded: never produced by assay's serialisers
  }
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
  py::object p = py::module_::import("os").attr("fspath")(obj);
  if (py::isinstance<py::bytes>(p)) return p.cast<std::string>();
  return p.cast<std::string>();
}

namespace {

std::string option_text(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "1" : "";
  if (is_path_like(v)) return path_of(v);
  return py::str(v).cast<std::string>();
}

}  // namespace

ReadOptions read_options_of(const py::kwargs& kw) {
  static const char* const kFamily[] = {"igarchive_max_member", "igz_pointer_size", "layouts", "exe", "textures",
                                        "models",               "sounds",           "adpcm"};
  ReadOptions ro;
  for (const auto& [k, v] : kw) {
    const std::string key = k.cast<std::string>();
    if (v.is_none()) continue;
    if (key == "names") {
      if (is_path_like(v)) ro.names_files.push_back(path_of(v));
      else
        for (const auto& n : v) ro.names_files.push_back(path_of(n));
      continue;
    }
    if (key == "threads") {
      ro.threads = v.cast<unsigned>();
      continue;
    }
    bool known = false;
    for (const char* f : kFamily) known = known || key == f;
    if (!known) throw py::type_error("unexpected keyword argument '" + key + "'");
    std::string cli_name = key;
    for (char& c : cli_name) c = c == '_' ? '-' : c;
    const std::string text = option_text(v);
    if (!text.empty()) ro.family[cli_name] = text;
  }
  return ro;
}

ContainerOptions container_options_of(const py::kwargs& kw) { return unwrap(container_options(read_options_of(kw))); }

}  // namespace assay::python

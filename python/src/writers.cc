// assay.pack(format, ...) and assay.replace/add/remove(archive, ...): the library
// calls `assay pack` (tools/assay/family_*.cc) and `assay replace|add|remove`
// (tools/assay/edit.cc, Format::edit) make, with the GIL released while writing.
#include <fmt/format.h>

#include <map>
#include <set>

#include "assay/family.h"
#include "assay/core/folder.h"
#include "assay/core/hash.h"
#include "assay/formats/edit_input.h"
#include "assay/formats/igarchive/pack.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/writer.h"
#include "assay/ops.h"
#include "bindings.h"
#include "formats/serialise.h"

namespace assay::python {

namespace {

py::bytes to_bytes(const ByteBuffer& b) { return py::bytes(reinterpret_cast<const char*>(b.data()), b.size()); }

// The new bytes of one change: bytes-like as given, or the contents of a path.
ByteBuffer change_data(const py::handle& v) {
  if (is_path_like(v)) return unwrap(read_regular_file(path_of(v)));
  return bytes_of(v);
}

// Writes `data` to `out` (atomically, no overwrite unless force) or returns it as bytes.
py::object deliver(ByteBuffer data, const py::object& out, bool force) {
  if (out.is_none()) return to_bytes(data);
  const std::string path = path_of(out);
  Result<void> w;
  {
    py::gil_scoped_release nogil;
    w = write_file_atomic(path, data, force);
  }
  if (!w) raise(w.error());
  return py::none();
}

// pack()'s shared options, checked (docs/python.md: a bad value is a ValueError naming it).
std::uint32_t version_of(const py::handle& v) {
  return static_cast<std::uint32_t>(uint_arg(v, "version", 0xFFFFFFFFu, "4, 8, 10, 11, 12 or 13"));
}
unsigned pack_threads(const py::dict& o) {
  if (!o.contains("threads") || o["threads"].is_none()) return 0;
  return static_cast<unsigned>(uint_arg(o["threads"], "threads", 0xFFFFFFFFu, "0 (all cores) or a positive integer"));
}
bool force_of(const py::dict& o) { return o.contains("force") && flag_arg(o["force"]); }

// pack("igarchive", source, out=None, version=11, compression="lzma", big_endian=False,
// case_insensitive=False, threads=0, force=False): source is a folder, or {name: bytes|path}.
// pack("igarchive", folder, out=PATH, like=ORIGINAL, [converting options], threads=, force=): as
// `assay pack igarchive --like`; returns {"files", "bytes", "kept", "encoded", "added", "converted"}.
py::object pack_igarchive_like(const py::object& source, const py::object& out, const py::dict& o) {
  if (out.is_none() || py::isinstance<py::dict>(source))
    throw py::value_error("pack('igarchive', folder, out=PATH, like=ORIGINAL): like= takes a folder and out=");
  IgArchivePack p;
  p.out = path_of(out);
  p.dir = path_of(source);
  p.like = path_of(o["like"]);
  if (o.contains("compression")) p.compression = str_arg(o["compression"], "compression");
  if (o.contains("version")) p.version = version_of(o["version"]);
  if (o.contains("big_endian")) p.big_endian = flag_arg(o["big_endian"]);
  if (o.contains("case_insensitive")) p.case_insensitive = flag_arg(o["case_insensitive"]);
  p.threads = pack_threads(o);
  p.force = force_of(o);
  Result<PackReport> r = Error{};
  {
    py::gil_scoped_release nogil;
    r = pack_igarchive(p);
  }
  const PackReport rep = unwrap(std::move(r));
  py::dict d;
  d["files"] = rep.files;
  d["bytes"] = rep.bytes;
  d["kept"] = rep.kept;
  d["encoded"] = rep.encoded;
  d["added"] = rep.added;
  d["converted"] = rep.converted;
  return d;
}

py::object pack_igarchive(const py::object& source, const py::object& out, const py::dict& o) {
  namespace iga = igarchive;
  if (o.contains("like")) return pack_igarchive_like(source, out, o);
  const std::string comp_text = o.contains("compression") ? str_arg(o["compression"], "compression") : "lzma";
  auto comp = iga::compression_from_string(comp_text);
  if (!comp) throw py::value_error("compression must be lzma, deflate, lz4, none or stored");
  iga::WriterOptions opt;
  opt.version = o.contains("version") ? version_of(o["version"]) : 0x0B;
  if (!iga::is_known_version(opt.version)) throw py::value_error("version must be 4, 8, 10, 11, 12 or 13");
  opt.endian = o.contains("big_endian") && flag_arg(o["big_endian"]) ? Endian::big : Endian::little;
  opt.flags = o.contains("case_insensitive") && flag_arg(o["case_insensitive"]) ? iga::kFlagCaseInsensitive : 0;
  opt.threads = pack_threads(o);
  std::vector<iga::WriterFile> files;
  if (py::isinstance<py::dict>(source)) {
    for (const auto& [k, v] : source.cast<py::dict>())
      files.push_back(iga::WriterFile{.name = name_of(k, "a file name"), .data = change_data(v), .compression = *comp});
  } else {
    files = unwrap(iga::files_from_directory(path_of(source), *comp));
  }
  Result<ByteBuffer> bytes = Error{};
  {
    py::gil_scoped_release nogil;
    bytes = iga::write_archive(files, opt);
  }
  return deliver(unwrap(std::move(bytes)), out, force_of(o));
}

// pack("oni", folder, out="levelN_X.dat", sep=False, force=False, layouts=None, exe=None)
py::object pack_oni(const py::object& source, const py::object& out, const py::dict& o) {
  if (out.is_none()) throw py::value_error("pack('oni', ...) writes files: give out='level<N>_<suffix>.dat'");
  const std::string dir = path_of(source), dat = path_of(out);
  std::map<std::string, std::string> fam;
  if (o.contains("layouts")) fam["layouts"] = path_of(o["layouts"]);
  if (o.contains("exe")) fam["exe"] = path_of(o["exe"]);
  oni::PackOptions po;
  po.sep = o.contains("sep") && flag_arg(o["sep"]);
  po.force = force_of(o);
  Diagnostics diags;
  Result<oni::PackStats> st = Error{};
  {
    py::gil_scoped_release nogil;
    auto layouts = oni::layouts_for(fam, dir);
    st = layouts ? oni::pack_level(dir, dat, *layouts, po, diags) : Result<oni::PackStats>(layouts.error());
  }
  const auto& s = unwrap(std::move(st));
  py::dict r;
  r["instances"] = s.instances;
  r["placeholders"] = s.placeholders;
  r["oni_files"] = s.oni_files;
  return r;
}

// pack("warriors-container", {type: bytes|path, ...}, out=None, name="resource") -> a resource;
// pack("warriors-container", [resource bytes|path, ...], out=None) -> a pack of resources.
py::object pack_warriors_container(const py::object& source, const py::object& out, const py::dict& o) {
  Result<ByteBuffer> r = Error{};
  if (py::isinstance<py::dict>(source)) {
    const std::string name = o.contains("name") ? name_of(o["name"], "name") : "resource";
    const std::uint32_t h = warriors_resource_hash(name);
    std::vector<warriors::ChunkSpec> chunks;
    for (const auto& [k, v] : source.cast<py::dict>())
      chunks.push_back(warriors::ChunkSpec{
          static_cast<std::uint32_t>(uint_arg(k, "a chunk type", 0xFFFFFFFFu, "an integer from 0 to 0xFFFFFFFF")), h,
          change_data(v), 0});
    py::gil_scoped_release nogil;
    r = warriors::write_resource(h, chunks);
  } else {
    std::vector<ByteBuffer> res;
    for (const auto& v : source) res.push_back(change_data(v));
    py::gil_scoped_release nogil;
    r = warriors::write_pack(res);
  }
  return deliver(unwrap(std::move(r)), out, force_of(o));
}

// pack("warriors", files_folder, out=folder, like=disc, force=False): WARRIORS.DIR/.WAD rebuilt.
py::object pack_warriors_disc(const py::object& source, const py::object& out, const py::dict& o) {
  if (out.is_none() || !o.contains("like")) throw py::value_error("pack('warriors', FILES, out=FOLDER, like=DISC)");
  const std::string like = path_of(o["like"]), files = path_of(source), dir = path_of(out);
  const bool force = force_of(o);
  Result<warriors::RepackStats> st = Error{};
  {
    py::gil_scoped_release nogil;
    st = [&]() -> Result<warriors::RepackStats> {
      ASSAY_TRY(Input in, Input::open(like));
      ASSAY_TRY(auto disc, warriors::Disc::open(in));
      ASSAY_TRY(auto rep, warriors::collect_replacements(disc, files));
      return warriors::repack(disc, rep, dir, force);
    }();
  }
  const auto& s = unwrap(std::move(st));
  py::dict r;
  r["replaced"] = s.replaced;
  r["wad_size"] = s.wad_size;
  return r;
}

// The keywords each pack format takes: any other is Python's TypeError, before anything is done.
const std::set<std::string>* pack_keywords(const std::string& format) {
  static const std::map<std::string, std::set<std::string>> kKeys = {
      {"igarchive", {"version", "compression", "big_endian", "case_insensitive", "threads", "force", "like"}},
      {"oni", {"sep", "force", "layouts", "exe"}},
      {"warriors-container", {"name", "force"}},
      {"warriors", {"like", "force"}},
  };
  const auto it = kKeys.find(format);
  return it == kKeys.end() ? nullptr : &it->second;
}

py::object pack(const std::string& format, const py::object& source, const py::object& out, const py::kwargs& kw) {
  const std::set<std::string>* keys = pack_keywords(format);
  if (keys == nullptr)
    throw py::value_error(shown("pack: format must be igarchive, oni, warriors or warriors-container (got '" + format + "')"));
  py::dict o;
  for (const auto& [k, v] : kw) {
    const std::string key = k.cast<std::string>();
    if (keys->count(key) == 0) unexpected_keyword("pack", key);
    o[k] = v;
  }
  if (format == "igarchive") return pack_igarchive(source, out, o);
  if (format == "oni") return pack_oni(source, out, o);
  if (format == "warriors-container") return pack_warriors_container(source, out, o);
  return pack_warriors_disc(source, out, o);
}

// replace/add/remove: Format::edit with an EditRequest, as `assay replace|add|remove`.
py::object edit(EditOp op, const char* function, const py::object& archive, const py::object& changes, const py::object& out, bool in_place,
                bool force, const std::optional<std::string>& compression, const py::kwargs& kw) {
  EditRequest req;
  // Texture options (the CLI's --resize, --png-size, --format, --dither) are
  // family options of the edit, not reading options.
  py::kwargs rest;
  bool resize = false, png_size = false;
  for (const auto& [k, v] : kw) {
    const std::string key = k.cast<std::string>();
    if (key == "resize") resize = flag_arg(v);
    else if (key == "png_size") png_size = flag_arg(v);
    else if ((key == "texture_format" || key == "dither") && !v.is_none()) req.read.family[key] = py::str(v).cast<std::string>();
    else rest[k] = v;
  }
  if (resize && png_size) throw py::value_error("give at most one of resize=True and png_size=True");
  const auto family = std::move(req.read.family);
  req.read = read_options_of(rest, function);
  req.read.family.insert(family.begin(), family.end());
  if (resize) req.read.family["size"] = "resize";  // assay/formats/edit_input.h
  if (png_size) req.read.family["size"] = "png";
  if (compression) req.read.family["compression"] = *compression;
  req.in_place = in_place;
  req.force = force;
  if (in_place == !out.is_none()) throw py::value_error("give exactly one of out=PATH and in_place=True");
  if (!out.is_none()) req.output = path_of(out);
  if (op == EditOp::remove) {
    if (py::isinstance<py::str>(changes)) throw py::type_error("remove: give a list of names");
    for (const auto& n : changes) req.changes.push_back(EditChange{op, name_of(n), {}});
  } else {
    if (!py::isinstance<py::dict>(changes)) throw py::type_error("changes: a dict {name: bytes or path}");
    for (const auto& [k, v] : changes.cast<py::dict>()) {
      req.changes.push_back(EditChange{op, name_of(k), change_data(v)});
      if (is_path_like(v)) req.read.family[edit_source_key(req.changes.back().name)] = path_of(v);  // for messages
    }
  }
  if (req.changes.empty()) throw py::value_error("no changes given");
  const std::string spec = path_of(archive);
  Result<Json> j = Error{};
  {
    py::gil_scoped_release nogil;
    j = [&]() -> Result<Json> {
      ASSAY_TRY(ContainerOptions copt, container_options(req.read));
      ASSAY_TRY(Input in, resolve_path(spec, copt));
      const Family* f = identify_family(in);
      if (f == nullptr) return unrecognised_error(spec);
      if (f->edit == nullptr)
        return usage_error(fmt::format("{}: {} files cannot be edited with replace/add/remove", spec, f->name));
      NestedEdit scratch;  // MEMBER::NAME changes, edited by the member's family first
      ASSAY_CHECK(fold_nested_changes(in, req, scratch));
      ASSAY_TRY(JsonDocument doc, f->edit(in, req));
      return std::move(json_of(doc));
    }();
  }
  return to_python(unwrap(std::move(j)));
}

}  // namespace

void register_writers(py::module_& m) {
  m.def("pack", &pack, py::arg("format"), py::arg("source"), py::arg("out") = py::none(),
        "Builds a container as `assay pack FORMAT`: 'igarchive' (source: folder or {name: bytes|path}; "
        "version=, compression=, big_endian=, case_insensitive=, threads=; returns bytes when out is None), "
        "'oni' (folder of .oni -> out=levelN_X.dat; sep=, layouts=, exe=), 'warriors' (folder of replacements, "
        "out=FOLDER, like=DISC), 'warriors-container' ({type: bytes} resource, name=; or [resources] pack).");
  const char* doc_changes = "changes: {name: bytes or path}. Exactly one of out= and in_place=True. Textures from PNG: "
                            "resize=True scales a PNG of another size to the texture's, png_size=True gives the texture "
                            "the PNG's size (else refused); texture_format=, dither=. Returns the report `assay replace "
                            "--json` prints (dict).";
  for (auto [name, op] : {std::pair{"replace", EditOp::replace}, std::pair{"add", EditOp::add}}) {
    m.def(name, [op](const py::object& archive, const py::object& changes, const py::object& out, bool in_place, bool force,
                     const std::optional<std::string>& compression, const py::kwargs& kw) {
      return edit(op, op == EditOp::replace ? "replace" : "add", archive, changes, out, in_place, force, compression, kw);
    }, py::arg("archive"), py::arg("changes"), py::kw_only(), py::arg("out") = py::none(), py::arg("in_place") = false,
       py::arg("force") = false, py::arg("compression") = py::none(), doc_changes);
  }
  m.def("remove", [](const py::object& archive, const py::object& names, const py::object& out, bool in_place, bool force,
                     const py::kwargs& kw) {
    return edit(EditOp::remove, "remove", archive, names, out, in_place, force, std::nullopt, kw);
  }, py::arg("archive"), py::arg("names"), py::kw_only(), py::arg("out") = py::none(), py::arg("in_place") = false,
     py::arg("force") = false, "Removes entries (a list of names); as `assay remove`. Returns the report (dict).");
}

}  // namespace assay::python

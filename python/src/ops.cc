// assay.extract, assay.oni_check, assay.warriors_load, assay.igz_dump and assay.rw_tree: the
// library operations of include/assay/ops.h, as the CLI calls them; reports come back as the
// dicts `--json` prints. The GIL is released while they run.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>
#include <sys/stat.h>

#include "assay/core/glob.h"
#include "assay/ops.h"
#include "bindings.h"
#include "formats/ops_json.h"

namespace assay::python {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> strings_of(const py::object& o) {
  std::vector<std::string> out;
  if (o.is_none()) return out;
  if (py::isinstance<py::str>(o) || is_path_like(o)) return {path_of(o)};
  for (const auto& x : o) out.push_back(path_of(x));
  return out;
}

// Every file under `root` with its inode: a file extract writes is linked in anew (a new inode),
// one it leaves alone keeps its own.
std::map<std::string, ino_t> files_under(const fs::path& root) {
  std::map<std::string, ino_t> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    struct stat st {};
    if (it->is_regular_file(ec) && ::lstat(it->path().c_str(), &st) == 0) out[it->path().string()] = st.st_ino;
  }
  return out;
}

// extract(source, out_dir, patterns=None, *, mips=False, stored=False, force=False,
// skip_existing=False, exclude=None, **options) -> the written paths, sorted.
py::list extract_to(const py::object& source, const py::object& out_dir, const py::object& patterns, bool mips,
                 bool stored, bool force, bool skip_existing, const py::object& exclude, const py::kwargs& kw) {
  if (force && skip_existing) throw py::value_error("force=True and skip_existing=True exclude each other");
  const ContainerOptions opt = container_options_of(kw, "extract");
  const std::string spec = path_of(source);
  const fs::path root = path_of(out_dir);
  ExtractOptions x;
  x.globs = strings_of(patterns);
  x.excludes = strings_of(exclude);
  x.mips = mips;
  x.stored = stored;
  x.skip_existing = skip_existing;
  Result<ExtractStats> st = Error{};
  Diagnostics findings;
  std::map<std::string, ino_t> before, after;
  {
    py::gil_scoped_release nogil;
    before = files_under(root);
    auto c = open_path(spec, opt);
    st = c ? extract(**c, x, OutputDir(root, force), findings) : Result<ExtractStats>(c.error());
    after = files_under(root);
  }
  if (!st) raise(st.error().in_file(spec));
  std::vector<std::string> problems;
  for (const Diagnostic& d : findings.items())
    if (d.severity == Severity::error) problems.push_back(d.where.message);
  for (const ExtractFailure& f : st->failed) problems.push_back(f.name + ": " + f.error.message);
  if (!st->unmatched.empty()) problems.push_back(fmt::format("no entry matches {}", fmt::join(st->unmatched, ", ")));
  if (!problems.empty()) {
    Error e = make_error("", "", kNoOffset,
                         fmt::format("{} problem(s); the other entries were written: {}", problems.size(),
                                     fmt::join(problems, "; ")));
    e.file = spec;
    raise(std::move(e));
  }
  py::list written;
  for (const auto& [path, inode] : after)
    if (auto it = before.find(path); it == before.end() || it->second != inode)
      written.append(fs_path(path));  // os.fsdecode: a name that is not UTF-8 still opens (surrogate escapes)
  return written;
}

py::dict report_dict(Result<Report> r) {
  Report rep = unwrap(std::move(r));
  return to_python(std::move(json_of(rep.document)));  // moved: to_python takes the tree by value
}

std::vector<fs::path> paths_of(const py::object& o) {
  std::vector<fs::path> out;
  for (const std::string& s : strings_of(o)) out.emplace_back(s);
  return out;
}

}  // namespace

void register_ops(py::module_& m) {
  m.def("extract", &extract_to, py::arg("source"), py::arg("out_dir"), py::arg("patterns") = py::none(), py::kw_only(),
        py::arg("mips") = false, py::arg("stored") = false, py::arg("force") = false, py::arg("skip_existing") = false,
        py::arg("exclude") = py::none(),
        "Extracts a file or 'A::B' path into out_dir as `assay extract` does (textures as PNG, ...; stored=True: "
        "the bytes as stored); patterns: names or globs. Returns the paths written. An entry that cannot be "
        "extracted raises FormatError after the others are written.");
  m.def("oni_check", [](const py::object& paths, const py::kwargs& kw) {
    const ReadOptions ro = read_options_of(kw, "oni_check");
    const auto in = paths_of(paths);
    Result<Report> r = Error{};
    {
      py::gil_scoped_release nogil;
      r = oni_check(in, ro);
    }
    return report_dict(std::move(r));
  }, py::arg("paths"), "`assay oni check --json`: a GameDataFolder and/or level files (layouts=, exe=)");
  m.def("warriors_load", [](const py::object& path, const std::string& shape, const py::kwargs& kw) {
    if (shape != "auto" && shape != "flat" && shape != "grouped") throw py::value_error("shape must be 'auto', 'flat' or 'grouped'");
    const ReadOptions ro = read_options_of(kw, "warriors_load");
    const std::string spec = path_of(path);
    const LoadShape s = shape == "flat" ? LoadShape::flat : shape == "grouped" ? LoadShape::grouped : LoadShape::automatic;
    Result<Report> r = Error{};
    {
      py::gil_scoped_release nogil;
      r = warriors_load(spec, s, ro);
    }
    return report_dict(std::move(r));
  }, py::arg("path"), py::kw_only(), py::arg("shape") = "auto",
     "`assay warriors load --json`: 'DISC::NAME', 'DISC::0xHASH' or a container file");
  m.def("igz_dump", [](const py::object& path, const py::kwargs& kw) {
    const ReadOptions ro = read_options_of(kw, "igz_dump");
    const std::string spec = path_of(path);
    Result<Report> r = Error{};
    {
      py::gil_scoped_release nogil;
      r = igz_dump(spec, ro);
    }
    Report rep = unwrap(std::move(r));
    return to_python(with_problems(std::move(json_of(rep.document)), rep.diags));
  }, py::arg("path"), "`assay igz dump --json` of an igz file or 'ARCHIVE::x.igz' (igz_pointer_size=)");
  m.def("rw_tree", [](const py::object& path) {
    const std::string spec = path_of(path);
    Result<Report> r = Error{};
    {
      py::gil_scoped_release nogil;
      r = rw_tree(spec);
    }
    return report_dict(std::move(r));
  }, py::arg("path"), "`assay rw tree --json` of a RenderWare stream or 'A::B'");
}

}  // namespace assay::python

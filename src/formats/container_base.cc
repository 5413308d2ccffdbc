// The family-independent part of the container model: options, entry lookup, slicing and the
// one JSON serialiser (docs/cli.md#json). Dispatch to the families: src/formats/container.cc.
#include "assay/container.h"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "assay/core/codes.h"
#include "assay/core/glob.h"
#include "assay/core/suggest.h"
#include "json_object.h"
#include "json_printer.h"

namespace assay {

// ---- options ----
Result<std::uint64_t> parse_size(std::string_view text) {
  std::string_view s = text;
  std::uint64_t value = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || p == s.data())
    return usage_error(fmt::format("'{}' is not a size (examples: 4096, 64K, 1M, 2G)", text));
  std::string_view unit = s.substr(static_cast<std::size_t>(p - s.data()));
  unsigned shift = 0;
  if (!unit.empty()) {
    switch (std::toupper(static_cast<unsigned char>(unit.front()))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      case 'B': shift = 0; break;
      default: return usage_error(fmt::format("'{}': unknown size unit (use K, M or G)", text));
    }
    if (std::toupper(static_cast<unsigned char>(unit.front())) != 'B') unit.remove_prefix(1);
    if (unit == "iB" || unit == "ib" || unit == "B" || unit == "b") unit = {};
    if (!unit.empty()) return usage_error(fmt::format("'{}': unknown size unit (use K, M or G)", text));
  }
  if (shift != 0 && value > (~std::uint64_t{0} >> shift)) return usage_error(fmt::format("'{}': size too large", text));
  return value << shift;
}

namespace {

// --layouts FILE and --exe FILE are read when a level is walked, which a verb may never do (list):
// a file that cannot be opened is an I/O error naming it now, for every verb and for Python,
// never a silent fall back to the layouts beside the level or the built-in ones.
Result<void> option_file_opens(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return io_error(path, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  const bool folder = ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
  ::close(fd);
  if (folder) return io_error(path, std::string("cannot open: ") + std::strerror(EISDIR));
  return {};
}

}  // namespace

Result<ContainerOptions> container_options(const ReadOptions& ro) {
  ContainerOptions o;
  o.names_files = ro.names_files;
  o.threads = ro.threads;
  o.progress = ro.progress;
  auto get = [&](const char* k) -> const std::string* {
    auto it = ro.family.find(k);
    return it == ro.family.end() || it->second.empty() ? nullptr : &it->second;
  };
  if (const std::string* v = get("igarchive-max-member")) {
    auto n = parse_size(*v);
    if (!n) return usage_error("--igarchive-max-member: " + n.error().message);
    o.igarchive.member_cap = *n;
  }
  if (const std::string* v = get("igz-pointer-size")) {
    if (*v != "4" && *v != "8") return usage_error(fmt::format("--igz-pointer-size: '{}' is not 4 or 8", *v));
    o.igz.pointer_size = static_cast<unsigned>(std::stoul(*v));
  }
  if (const std::string* v = get("layouts")) {
    ASSAY_CHECK(option_file_opens(*v));
    o.oni.layouts = *v;
  }
  if (const std::string* v = get("exe")) {
    ASSAY_CHECK(option_file_opens(*v));
    o.oni.exe = *v;
  }
  if (const std::string* v = get("textures")) o.textures = *v == "1";
  if (const std::string* v = get("models")) o.models = *v == "1";
  if (const std::string* v = get("sounds")) o.oni.sounds = *v == "1";
  if (const std::string* v = get("adpcm")) o.oni.adpcm = *v == "1";
  if (const std::string* v = get("txd"))
    for (std::size_t at = 0; at <= v->size();) {
      const std::size_t end = std::min(v->find('\n', at), v->size());
      o.renderware.txd.push_back(v->substr(at, end - at));
      at = end + 1;
    }
  return o;
}

ReadOptions ContainerOptions::read_options() const {
  ReadOptions ro;
  ro.names_files = names_files;
  ro.threads = threads;
  ro.progress = progress;
  if (igarchive.member_cap != (std::uint64_t{1} << 30))
    ro.family["igarchive-max-member"] = std::to_string(igarchive.member_cap);
  if (igz.pointer_size != 0) ro.family["igz-pointer-size"] = std::to_string(igz.pointer_size);
  if (!oni.layouts.empty()) ro.family["layouts"] = oni.layouts;
  if (!oni.exe.empty()) ro.family["exe"] = oni.exe;
  if (textures) ro.family["textures"] = "1";
  if (models) ro.family["models"] = "1";
  if (oni.sounds) ro.family["sounds"] = "1";
  if (oni.adpcm) ro.family["adpcm"] = "1";
  for (const std::string& t : renderware.txd) ro.family["txd"] += (ro.family["txd"].empty() ? "" : "\n") + t;
  return ro;
}

// ---- entries ----
std::string_view entry_kind_name(EntryKind k) {
  static constexpr std::string_view kNames[] = {"file",    "instance", "object", "section",   "chunk",
                                                "atomic",  "texture",  "model",  "animation", "sound"};
  return kNames[static_cast<std::size_t>(k)];
}

Container::Container(std::string_view format, Input in, ContainerOptions opt)
    : format_(format), input_(std::move(in)), options_(std::move(opt)) {}

void Container::set_entries(std::vector<Entry> entries) {
  entries_ = std::move(entries);
  by_name_.clear();
  by_name_.reserve(entries_.size() * 2);
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    entries_[i].index = i;
    if (entries_[i].name) by_name_.emplace(*entries_[i].name, i);  // the first of equal names wins
  }
  for (std::size_t i = 0; i < entries_.size(); ++i)
    if (!entries_[i].path.empty()) by_name_.emplace(entries_[i].path, i);
}

const Entry* Container::find(std::string_view name) const {
  if (auto it = by_name_.find(std::string(name)); it != by_name_.end()) return &entries_[it->second];
  if (name.size() > 1 && name.front() == '#') {
    std::uint64_t i = 0;
    const auto [p, ec] = std::from_chars(name.data() + 1, name.data() + name.size(), i);
    if (ec == std::errc() && p == name.data() + name.size() && i < entries_.size()) return &entries_[i];
  }
  return find_alias(name);
}

std::string suggest_entry(const Container& c, std::string_view selector) {
  std::vector<std::string> spellings;
  spellings.reserve(c.entries().size() * 2);
  for (const Entry& e : c.entries()) {  // the path first: it is shown with '/'
    if (!e.path.empty()) spellings.push_back(e.path);
    if (e.name) spellings.push_back(*e.name);
  }
  return suggest_selector(selector, spellings, GlobOptions{c.case_insensitive()});
}

Error Container::entry_error(const Entry& e, std::string message, ErrorKind kind) const {
  Error err = make_error(format_, e.name ? *e.name : e.path, e.offset.value_or(kNoOffset), std::move(message));
  err.file = input_.name;
  err.kind = kind;
  return err;
}

Result<Input> Container::slice(const Entry& e) const {
  if (!e.offset || !e.size) return entry_error(e, "has no bytes of its own", ErrorKind::unsupported);
  if (!range_ok(*e.offset, *e.size, input_.bytes.size()))
    return entry_error(e, fmt::format("{:#x} bytes at {:#x} run past the end of the file ({:#x} bytes)", *e.size,
                                      *e.offset, input_.bytes.size()));
  Input out;
  out.name = input_.name + "::" + (e.name ? *e.name : e.path);
  out.bytes = input_.bytes.subspan(*e.offset, *e.size);
  out.owner = input_.owner;
  return out;
}

Result<Input> Container::read(const Entry& e, unsigned) const { return slice(e); }

Result<ExtractCount> Container::write_entry(const Entry& e, const OutputDir& dir, const WriteOptions& w) const {
  const std::string path = w.stored ? stored_path(e) : e.path;
  if (path.empty()) return ExtractCount{};  // nothing of its own to write
  ASSAY_TRY(Input in, read(e, w.threads));
  ASSAY_CHECK(dir.write(path, in.bytes));
  return ExtractCount{1, in.bytes.size()};
}

Result<image::Rgba> Container::texture(const Entry& e, unsigned) const {
  return entry_error(e, fmt::format("an entry of kind '{}' is not a texture", e.kind_name()), ErrorKind::unsupported);
}

Result<ByteBuffer> Container::model(const Entry& e) const {
  return entry_error(e, fmt::format("an entry of kind '{}' is not a model", e.kind_name()), ErrorKind::unsupported);
}

Result<audio::Sound> Container::sound(const Entry& e) const {
  return entry_error(e, fmt::format("an entry of kind '{}' is not a sound", e.kind_name()), ErrorKind::unsupported);
}

// ---- the serialiser ----
namespace {
constexpr std::uint64_t kMaxExact = std::uint64_t{1} << 53;

void normalise_in_place(Json& j) {
  if (j.is_object() || j.is_array()) {
    for (auto& v : j) normalise_in_place(v);
  } else if (j.is_number_unsigned()) {
    if (j.get<std::uint64_t>() > kMaxExact) j = fmt::format("0x{:x}", j.get<std::uint64_t>());
  } else if (j.is_number_integer()) {
    const std::int64_t v = j.get<std::int64_t>();
    if (v > static_cast<std::int64_t>(kMaxExact) || v < -static_cast<std::int64_t>(kMaxExact)) {
      const std::uint64_t mag = v < 0 ? static_cast<std::uint64_t>(-(v + 1)) + 1 : static_cast<std::uint64_t>(v);
      j = fmt::format("{}0x{:x}", v < 0 ? "-" : "", mag);
    }
  } else if (j.is_string() && j.get_ref<const std::string&>().empty()) {
    j = nullptr;
  }
}

template <class T>
Json opt_json(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}
}  // namespace

Json normalise_json(Json j) {
  normalise_in_place(j);
  return j;
}

Json entry_json(const Container& c, const Entry& e) {
  Json j = detail::JsonObject(16)
               .add("index", e.index)
               .add("name", opt_json(e.name))
               .add("path", e.path.empty() ? Json(nullptr) : Json(e.path))
               .add("offset", opt_json(e.offset))
               .add("size", opt_json(e.size))
               .add("stored_size", opt_json(e.stored_size))
               .add("kind", std::string(e.kind_name()))
               .take();
  j = normalise_json(std::move(j));
  detail::JsonPrinter p(j);
  c.print_details(e, p);
  return j;
}

Json details_json(const Container& c, const Entry& e) {
  Json j = Json::object();
  detail::JsonPrinter p(j);
  c.print_details(e, p);
  return j;
}

Result<Json> info_json(const Container& c) {
  Json j;
  j["format"] = c.format();
  detail::JsonPrinter p(j);
  ASSAY_CHECK(c.print_info(p));
  return j;
}

namespace {
Json list_fields_json(const Container& c) {
  Json j;
  j["format"] = c.format();
  detail::JsonPrinter p(j);
  c.print_list_fields(p);
  j.erase("entries");
  return j;
}
}  // namespace

Json list_json(const Container& c, const std::vector<std::string>& globs) {
  std::vector<std::size_t> chosen;
  const GlobOptions opt{c.case_insensitive()};
  for (const Entry& e : c.entries())
    if (globs.empty() || (e.name && glob_any(globs, *e.name, opt)) || glob_any(globs, e.path, opt)) chosen.push_back(e.index);
  return list_json(c, chosen);
}

Json list_json(const Container& c, std::span<const std::size_t> chosen) {
  Json j = list_fields_json(c);
  Json entries = Json::array();
  entries.get_ref<Json::array_t&>().reserve(chosen.size());
  for (std::size_t k : chosen) entries.push_back(entry_json(c, c.entries()[k]));
  j["entries"] = std::move(entries);
  return j;
}

namespace {

// Length of a rule id ("V13", "R5", "D5": 1-4 capitals then digits) at the start of `s`; 0 if none.
std::size_t rule_id_length(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && std::isupper(static_cast<unsigned char>(s[n]))) ++n;
  std::size_t k = n;
  while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) ++k;
  return n >= 1 && n <= 4 && k > n ? k : 0;
}

// The rule id a message names (docs/cli.md#json): "V13: ..." at its start (Warriors, Oni) or
// "... (R5)" at its end (RenderWare).
std::optional<std::string> rule_id(std::string_view m) {
  if (const std::size_t k = rule_id_length(m); k > 0 && k < m.size() && m[k] == ':') return std::string(m.substr(0, k));
  const std::size_t open = m.rfind('(');
  if (open != std::string_view::npos && m.back() == ')') {
    const std::string_view id = m.substr(open + 1, m.size() - open - 2);
    if (!id.empty() && rule_id_length(id) == id.size()) return std::string(id);
  }
  return std::nullopt;
}

// The code where the error was made; else the rule id its message names; else one named after its
// structure ("<family>.<structure>", core/codes.h), so that every problem of a family has one.
Json problem_code(const Error& e) {
  if (!e.code.empty()) return e.code;
  if (auto id = rule_id(e.message)) return *id;
  if (e.format.empty()) return nullptr;
  return structure_code(e.format, e.structure, "file");
}

}  // namespace

Json problem_json(const Diagnostic& d) {
  Json j;
  j["severity"] = to_string(d.severity);
  const std::string& m = d.where.message;
  j["code"] = problem_code(d.where);
  j["structure"] = d.where.structure;
  j["offset"] = d.where.offset == kNoOffset ? Json(nullptr) : Json(d.where.offset);
  j["message"] = m;
  return normalise_json(std::move(j));
}

Json verify_json(std::string_view file, std::optional<std::string_view> format, const Diagnostics& d) {
  Json problems = Json::array();
  for (const auto& x : d.items()) problems.push_back(problem_json(x));
  Json j;
  j["file"] = file;
  j["format"] = format ? Json(*format) : Json(nullptr);
  j["ok"] = !d.has_errors();
  j["errors"] = d.count(Severity::error);
  j["warnings"] = d.count(Severity::warning);
  j["problems"] = std::move(problems);
  return j;
}

}  // namespace assay

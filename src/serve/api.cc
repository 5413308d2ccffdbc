// The JSON API of `assay serve` (docs/serve.md#api).
#include "api.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>

#include "assay/ops.h"
#include "assay/audio/sound.h"
#include "assay/core/thread_pool.h"

#include "assay/formats/oni/oni.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "assay/image/png.h"
#include "formats/ops_json.h"

namespace assay::serve {

namespace fs = std::filesystem;

void send_json(httplib::Response& res, const Json& j, int status) {
  res.status = status;
  res.set_content(j.dump(-1, ' ', false, Json::error_handler_t::replace), "application/json");
}

void send_error(httplib::Response& res, int status, std::string_view kind, std::string_view message) {
  send_json(res, Json{{"error", {{"kind", kind}, {"message", message}}}}, status);
}

void send_error(httplib::Response& res, const Error& e) {
  static constexpr std::string_view kKinds[] = {"data", "io", "usage", "unsupported"};
  const auto k = static_cast<std::size_t>(e.kind);
  const int status = e.kind == ErrorKind::usage ? 400 : e.kind == ErrorKind::io ? 404 : 422;
  Json err{{"kind", k < 4 ? kKinds[k] : "data"},
           {"message", e.str()},
           {"file", e.file},
           {"format", e.format},
           {"structure", e.structure},
           {"offset", e.offset == kNoOffset ? Json(nullptr) : Json(e.offset)}};
  send_json(res, normalise_json(Json{{"error", std::move(err)}}), status);
}

namespace {

std::string status_kind(int status) {
  return status == 403 ? "forbidden" : status == 404 ? "not_found" : "usage";
}

// A key that changes when the file is replaced or modified (the cache must not serve stale
// tables over a new mapping).
std::string file_key(const fs::path& p) {
  struct stat st{};
  if (::stat(p.c_str(), &st) != 0) return p.native();
  return fmt::format("{}\n{}.{}\n{}", p.native(), st.st_mtim.tv_sec, st.st_mtim.tv_nsec, st.st_size);
}

// A file name for Content-Disposition: the last component, only [A-Za-z0-9._-].
std::string download_name(std::string_view path) {
  if (const auto s = path.find_last_of('/'); s != std::string_view::npos) path.remove_prefix(s + 1);
  std::string out;
  for (char c : path) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  return out.empty() || out == "." || out == ".." ? "entry.bin" : out;
}

constexpr std::size_t kCacheSize = 32;
constexpr std::size_t kChunk = 256 * 1024;   // bytes per write of a streamed entry
constexpr std::size_t kMaxDirEntries = 20000;
// The "container" flags of one list: entries opened at most, time spent at most (the rest null).
constexpr std::size_t kMaxFlagged = 20000;
constexpr std::chrono::seconds kFlagTime{4};

}  // namespace

httplib::Server::Handler Api::with_path(Handler h) {
  return [this, h](const httplib::Request& req, httplib::Response& res) {
    try {
      const Resolution r = resolve(roots_, req.get_param_value("path"));
      if (r.status != 200) return send_error(res, r.status, status_kind(r.status), r.message);
      (this->*h)(req, res, r.target);
    } catch (const std::bad_alloc&) {
      send_error(res, 500, "internal", "out of memory");
    } catch (const std::exception& e) {
      send_error(res, 500, "internal", e.what());
    }
  };
}

void Api::install(httplib::Server& s) {
  s.Get("/api/roots", [this](const httplib::Request& q, httplib::Response& r) { roots(q, r); });
  s.Get("/api/dir", with_path(&Api::dir));
  s.Get("/api/list", with_path(&Api::list));
  s.Get("/api/info", with_path(&Api::info));
  s.Get("/api/verify", with_path(&Api::verify));
  s.Get("/api/entry", with_path(&Api::entry));
  s.Get("/api/texture", with_path(&Api::texture));
  s.Get("/api/model", with_path(&Api::model));
  s.Get("/api/sound", with_path(&Api::sound));
  s.Get("/api/igz", with_path(&Api::igz));
  s.Get("/api/oni", with_path(&Api::oni));
  s.Get("/api/warriors", with_path(&Api::warriors));
}

// ---- Opening ----------------------------------------------------------------------------------

const Entry* find_step(const Container& c, std::string_view step) {
  if (const Entry* e = c.find(step)) return e;
  if (step.find('/') == std::string_view::npos) return nullptr;
  std::string back(step);
  std::replace(back.begin(), back.end(), '/', '\\');
  return c.find(back);
}

bool entry_is_container(const Container& c, const Entry& e) {
  if (!e.nested) return false;
  auto may = c.may_hold_format(e);
  if (!may || !*may) return false;
  auto in = c.read(e);
  if (!in) return false;
  ContainerOptions opt = c.options();
  opt.igz.material_textures = false;  // whether it opens is all that is asked: no material files read
  auto inner = open_entry(c, e, std::move(*in), opt);
  if (!inner) return false;
  return !((*inner)->format() == c.format() && (*inner)->input().bytes.size() == c.input().bytes.size());
}

std::string Api::cache_key(const Target& t, std::size_t steps) {
  std::string key = file_key(t.real);
  for (std::size_t i = 0; i < steps; ++i) key += "::" + t.inner[i];
  return key;
}

std::shared_ptr<const std::vector<std::int8_t>> Api::container_flags(const std::string& key, const Container& c) {
  {
    std::lock_guard lock(mutex_);
    for (auto it = flags_.begin(); it != flags_.end(); ++it)
      if (it->first == key) {
        flags_.splice(flags_.begin(), flags_, it);
        return flags_.front().second;
      }
  }
  const auto entries = c.entries();
  auto flags = std::make_shared<std::vector<std::int8_t>>(entries.size(), std::int8_t{0});
  std::vector<std::size_t> nested;
  for (const Entry& e : entries)
    if (e.nested) nested.push_back(e.index);
  const auto deadline = std::chrono::steady_clock::now() + kFlagTime;
  std::atomic<bool> late{false};
  // Two workers: the machine's other requests keep a core; each open() may decode one entry.
  parallel_for(nested.size(), 2, [&](std::size_t k) {
    std::int8_t& f = (*flags)[nested[k]];
    if (k >= kMaxFlagged || late.load() || std::chrono::steady_clock::now() > deadline) {
      if (k < kMaxFlagged) late = true;
      f = -1;
      return;
    }
    try {
      f = entry_is_container(c, entries[nested[k]]) ? 1 : 0;
    } catch (const std::exception&) {
      f = -1;  // e.g. out of memory for one entry: unknown, the page may still try to open it
    }
  });
  std::lock_guard lock(mutex_);
  flags_.emplace_front(key, flags);
  if (flags_.size() > kCacheSize) flags_.pop_back();
  return flags;
}

Result<std::shared_ptr<const Container>> Api::container(const Target& t, std::size_t steps) {
  const std::string key = cache_key(t, steps);
  {
    std::lock_guard lock(mutex_);
    for (auto it = cache_.begin(); it != cache_.end(); ++it)
      if (it->first == key) {
        cache_.splice(cache_.begin(), cache_, it);
        return cache_.front().second;
      }
  }
  std::unique_ptr<Container> made;
  if (steps == 0) {
    ASSAY_TRY(Input in, Input::open(t.real));
    in.name = t.file_spec;
    ASSAY_TRY(made, assay::open(std::move(in), opt_));
  } else {
    ASSAY_TRY(auto parent, container(t, steps - 1));
    const Entry* e = find_step(*parent, t.inner[steps - 1]);
    if (e == nullptr)
      return io_error(parent->input().name, "no entry named '" + t.inner[steps - 1] + "'");
    ASSAY_TRY(made, parent->open(*e));
  }
  std::shared_ptr<const Container> c(std::move(made));
  std::lock_guard lock(mutex_);
  cache_.emplace_front(std::move(key), c);
  if (cache_.size() > kCacheSize) cache_.pop_back();
  return c;
}

Result<Api::EntryRef> Api::entry_of(const Target& t) {
  if (t.inner.empty()) return usage_error("this endpoint needs an entry: path=FILE::ENTRY");
  ASSAY_TRY(auto c, container(t, t.inner.size() - 1));
  const Entry* e = find_step(*c, t.inner.back());
  if (e == nullptr) return io_error(c->input().name, "no entry named '" + t.inner.back() + "'");
  return EntryRef{std::move(c), e};
}

Result<Input> Api::bytes(const Target& t) {
  if (t.inner.empty()) {
    if (t.is_directory) return usage_error("a folder has no bytes: name a file or FILE::ENTRY");
    ASSAY_TRY(Input in, Input::open(t.real));
    in.name = t.file_spec;
    return in;
  }
  ASSAY_TRY(EntryRef r, entry_of(t));
  return r.container->read(*r.entry, 1);
}

// ---- Endpoints --------------------------------------------------------------------------------

void Api::roots(const httplib::Request&, httplib::Response& res) {
  Json out = Json::array();
  for (const Root& r : roots_) out.push_back({{"name", r.name}, {"path", r.name}, {"kind", r.is_directory ? "folder" : "file"}});
  send_json(res, Json{{"roots", out}});
}

void Api::dir(const httplib::Request&, httplib::Response& res, const Target& t) {
  if (!t.is_directory || !t.inner.empty()) return send_error(res, 400, "usage", "not a folder");
  const fs::path& root = roots_[t.root].real;
  Json entries = Json::array();
  std::error_code ec;
  for (fs::directory_iterator it(t.real, ec), end; !ec && it != end && entries.size() < kMaxDirEntries; it.increment(ec)) {
    const std::string name = it->path().filename().native();
    if (name.find("::") != std::string::npos || name.find('\\') != std::string::npos) continue;  // not addressable
    // A symlink is listed only when it resolves beneath the root (resolve() checks it again).
    const Resolution r = resolve(roots_, t.file_spec + "/" + name);
    if (r.status != 200 || !beneath(r.target.real, root)) continue;
    std::error_code e2;
    const auto st = fs::status(r.target.real, e2);
    if (!fs::is_regular_file(st) && !fs::is_directory(st)) continue;
    Json j{{"name", name}, {"path", t.file_spec + "/" + name}, {"kind", fs::is_directory(st) ? "folder" : "file"}};
    j["size"] = fs::is_regular_file(st) ? Json(fs::file_size(r.target.real, e2)) : Json(nullptr);
    entries.push_back(std::move(j));
  }
  std::sort(entries.begin(), entries.end(), [](const Json& a, const Json& b) {
    if (a["kind"] != b["kind"]) return a["kind"] == "folder";
    return a["name"].get<std::string>() < b["name"].get<std::string>();
  });
  auto c = container(t);  // a folder can be a container itself (a Warriors disc)
  send_json(res, Json{{"path", t.file_spec}, {"format", c ? Json((*c)->format()) : Json(nullptr)}, {"entries", entries}});
}

// list_json plus, per entry, "container": whether it opens as a container of its own (the tree
// expands it, the page opens it), and with select=STEP "selected": the index of the entry STEP
// names (as the ::STEP of a path finds it) or null.
void Api::list(const httplib::Request& req, httplib::Response& res, const Target& t) {
  auto c = container(t);
  if (!c) return send_error(res, c.error());
  Json j = list_json(**c);
  const auto flags = container_flags(cache_key(t, t.inner.size()), **c);
  for (Json& e : j["entries"]) {
    const auto i = e["index"].get<std::uint64_t>();
    const std::int8_t f = i < flags->size() ? (*flags)[i] : std::int8_t{-1};
    e["container"] = f < 0 ? Json(nullptr) : Json(f == 1);
  }
  if (req.has_param("select")) {
    const Entry* e = find_step(**c, req.get_param_value("select"));
    j["selected"] = e != nullptr ? Json(e->index) : Json(nullptr);
  }
  send_json(res, j);
}

void Api::info(const httplib::Request&, httplib::Response& res, const Target& t) {
  auto c = container(t);
  if (!c) return send_error(res, c.error());
  auto j = info_json(**c);
  if (!j) return send_error(res, j.error());
  send_json(res, *j);
}

void Api::verify(const httplib::Request& req, httplib::Response& res, const Target& t) {
  auto c = container(t);
  if (!c) return send_error(res, c.error());
  Diagnostics d;
  (*c)->verify(d);
  if (req.get_param_value("deep") == "1") verify_deep(**c, d, DeepOptions{1, 1, false});
  std::string spelled = t.file_spec;
  for (const auto& s : t.inner) spelled += "::" + s;
  send_json(res, verify_json(spelled, (*c)->format(), d));
}

void Api::entry(const httplib::Request& req, httplib::Response& res, const Target& t) {
  auto in = bytes(t);
  if (!in) return send_error(res, in.error());
  const std::uint64_t size = in->bytes.size();
  const ByteRange r = parse_range(req.get_header_value("Range"), size);
  res.set_header("Accept-Ranges", "bytes");
  if (r.kind == ByteRange::Kind::unsatisfiable) {
    res.set_header("Content-Range", fmt::format("bytes */{}", size));
    return send_error(res, 416, "range", fmt::format("range not satisfiable for {} bytes", size));
  }
  std::uint64_t start = 0, length = size;
  if (r.kind == ByteRange::Kind::range) {
    start = r.start;
    length = r.length;
    res.status = 206;
    res.set_header("Content-Range", fmt::format("bytes {}-{}/{}", start, start + length - 1, size));
  }
  if (req.get_param_value("download") == "1")
    res.set_header("Content-Disposition",
                   "attachment; filename=\"" + download_name(t.inner.empty() ? t.file_spec : t.inner.back()) + "\"");
  // Streamed in chunks from the mapping (or the decoded entry); the Input keeps the bytes alive.
  auto held = std::make_shared<Input>(std::move(*in));
  res.set_content_provider(static_cast<std::size_t>(length), "application/octet-stream",
                           [held, start, length](std::size_t off, std::size_t want, httplib::DataSink& sink) {
                             if (off >= length) return false;
                             const std::size_t n = std::min({want, kChunk, static_cast<std::size_t>(length - off)});
                             return sink.write(reinterpret_cast<const char*>(held->bytes.data()) + start + off, n);
                           });
}

void Api::texture(const httplib::Request& req, httplib::Response& res, const Target& t) {
  auto r = entry_of(t);
  if (!r) return send_error(res, r.error());
  const std::string m = req.get_param_value("mip");
  const auto mip = m.empty() ? std::optional<std::uint64_t>(0) : parse_u64(m);
  if (!mip || *mip > 31) return send_error(res, 400, "usage", "mip must be a number from 0 to 31");
  auto img = r->container->texture(*r->entry, static_cast<unsigned>(*mip));
  if (!img) return send_error(res, img.error());
  auto png = image::encode_png(*img);
  if (!png) return send_error(res, png.error());
  res.set_header("X-Assay-Size", fmt::format("{}x{}", img->width, img->height));
  res.set_content(std::string(reinterpret_cast<const char*>(png->data()), png->size()), "image/png");
}

// A model entry as binary glTF (what extract writes for it), from Container::model.
void Api::model(const httplib::Request&, httplib::Response& res, const Target& t) {
  auto r = entry_of(t);
  if (!r) return send_error(res, r.error());
  auto glb = r->container->model(*r->entry);
  if (!glb) return send_error(res, glb.error());
  res.set_content(std::string(reinterpret_cast<const char*>(glb->data()), glb->size()), "model/gltf-binary");
}

// A sound entry as 16-bit PCM WAV (what `extract --sounds` writes for it), from Container::sound.
void Api::sound(const httplib::Request&, httplib::Response& res, const Target& t) {
  auto r = entry_of(t);
  if (!r) return send_error(res, r.error());
  auto s = r->container->sound(*r->entry);
  if (!s) return send_error(res, s.error());
  const ByteBuffer wav = audio::wav_bytes(*s);
  res.set_content(std::string(reinterpret_cast<const char*>(wav.data()), wav.size()), "audio/wav");
}

void Api::igz(const httplib::Request&, httplib::Response& res, const Target& t) {
  auto in = bytes(t);
  if (!in) return send_error(res, in.error());
  auto r = igz_dump(*in, opt_.read_options());
  if (!r) return send_error(res, r.error());
  send_json(res, normalise_json(with_problems(std::move(json_of(r->document)), r->diags)));
}

}  // namespace assay::serve

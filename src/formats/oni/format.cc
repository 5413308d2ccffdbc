// The oni record for the CLI: identify, info, list, verify, extract, write_samples.
#include <fmt/format.h>

#include <optional>

#include "assay/core/progress.h"
#include "assay/formats/format.h"
#include "assay/formats/oni/edit.h"
#include "assay/formats/oni/oni.h"
#include "assay/image/png.h"
#include "records.h"

namespace assay {

namespace {

using namespace oni;

int identify(const Input& in) {
  if (in.bytes.size() < kHeaderSize) return 0;
  auto id = read_record<records::FileIdentity>(records::le_reader(in.bytes), 0, "file header");
  if (!id) return 0;
  const std::uint32_t v = id->version;
  if (v == kVersionVR31 || v == kVersionVR32) return 100;
  if (v == kVersionVR33 || v == 0x31335256) return 60;  // shown, then refused (spec: oni.md#oni-3-3)
  return 0;
}

std::filesystem::path dir_of(const Input& in) { return in.path.empty() ? std::filesystem::path(".") : in.path.parent_path(); }

std::string version_name(std::uint32_t v) {
  std::string s;
  for (int i = 3; i >= 0; --i) s += static_cast<char>(v >> (8 * i));
  return s;
}

std::string template_set(std::uint64_t c) {
  if (c == kChecksumV10) return "v1.0";
  if (c == kChecksumV11) return "v1.1";
  if (c == 0x0003BA70A8D8AE11ull || c == 0x0003BA70A8DBAE11ull) return "possibly PS2 (unverified)";
  if (c == 0x0003BCDF2E6B1681ull) return "BFW source build";
  return "unknown";
}

// Which TXMP layout the file's textures need (issue 29 item 7), from the TXMP checksum (the
// template entry; a .oni's header set) and the instance sizes: v1.0 0xAC, v1.1 0xB0 (BFW), or v1.1
// in OniSplit's 0xAC form (-import:sep; spec oni-templates.md). null without TXMP data.
Json txmp_layout(const InstanceFile& f) {
  std::uint64_t checksum = f.is_oni() ? 0 : ~std::uint64_t{0};
  for (std::uint32_t k = 0; k < f.template_count(); ++k)
    if (f.template_entry(k).tag == make_tag("TXMP")) checksum = f.template_entry(k).checksum;
  if (f.is_oni()) checksum = f.header().checksum == kChecksumV11 ? 0x8911EEB5Full : f.header().checksum == kChecksumV10 ? 0x891187581ull : 0;
  std::uint64_t short_form = 0, full = 0;
  for (std::uint32_t i = 0; i < f.instance_count(); ++i) {
    const Descriptor d = f.descriptor(i);
    if (d.tag != make_tag("TXMP") || d.placeholder() || d.size == 0) continue;
    (d.size < 0xB0 ? short_form : full) += 1;
  }
  if (short_form + full == 0) return nullptr;
  if (checksum == 0x891187581ull) return "v1.0 (0xAC, .raw pixels)";
  if (checksum != 0x8911EEB5Full) return "unknown";
  if (full == 0) return "v1.1 in OniSplit's 0xAC form (-import:sep; .sep pixels)";
  if (short_form == 0) return "v1.1 (0xB0, .sep pixels)";
  return fmt::format("v1.1: {} TXMPs in OniSplit's 0xAC form, {} of 0xB0 (.sep pixels)", short_form, full);
}

Result<Json> info(const Input& in, const ReadOptions&) {
  ASSAY_TRY(InstanceFile f, InstanceFile::open(in.bytes, in.name));
  const FileHeader& h = f.header();
  Json j;
  j["format"] = "oni";
  j["version"] = version_name(h.version);
  j["checksum"] = h.checksum;
  j["template_set"] = template_set(h.checksum);
  j["instances"] = h.instance_count;
  j["names"] = h.name_count;
  j["templates"] = h.template_count;
  j["data_offset"] = h.data_offset;
  j["data_size"] = h.data_size;
  j["name_offset"] = h.name_offset;
  j["name_size"] = h.name_size;
  if (f.is_oni()) j["raw_offset"] = h.raw_offset, j["raw_size"] = h.raw_size;
  if (auto n = parse_level_file_name(in.path.filename().string()); n) {
    j["level"] = n->level;
    j["suffix"] = n->suffix;
    j["final"] = n->final;
    j["file_id"] = n->file_id;
  }
  Json t = Json::array();
  for (std::uint32_t k = 0; k < f.template_count(); ++k) {
    const TemplateEntry e = f.template_entry(k);
    t.push_back({{"tag", tag_string(e.tag)}, {"checksum", e.checksum}, {"count", e.count}});
  }
  j["template_entries"] = t;
  j["txmp_layout"] = txmp_layout(f);
  return j;
}

Result<Json> list(const Input& in, const ReadOptions&) {
  ASSAY_TRY(InstanceFile f, InstanceFile::open(in.bytes, in.name));
  Json entries = Json::array();
  for (std::uint32_t i = 0; i < f.instance_count(); ++i) {
    const Descriptor d = f.descriptor(i);
    auto nm = f.name(i);
    Json e;
    e["index"] = i;
    e["tag"] = tag_string(d.tag);
    e["name"] = d.unnamed() || !nm ? Json(nullptr) : Json(std::string(*nm));
    e["size"] = d.size;
    e["flags"] = d.flags();
    e["placeholder"] = d.placeholder();
    entries.push_back(std::move(e));
  }
  return Json{{"format", "oni"}, {"entries", entries}};
}

// level0_Final.dat beside a level file of another level (its links are resolved with it).
std::optional<std::filesystem::path> level0_beside(const Input& in) {
  if (in.path.empty()) return std::nullopt;
  const auto n = parse_level_file_name(in.path.filename().string());
  if (!n || n->level == 0) return std::nullopt;
  auto l0 = dir_of(in) / "level0_Final.dat";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(l0, ec)) return std::nullopt;
  return l0;
}

std::uint64_t file_bytes(const std::optional<std::filesystem::path>& p) {
  std::error_code ec;
  const auto n = p ? std::filesystem::file_size(*p, ec) : 0;
  return ec ? 0 : n;
}

// spec: oni.md#oni-10-1 for one file, linked with level 0 beside it when present. A bar over the
// bytes of the files loaded (core Progress; drawn only when opt.progress).
void verify(const Input& in, const ReadOptions& opt, Diagnostics& out) {
  auto layouts = layouts_for(opt.family, dir_of(in), &out);
  if (!layouts) {
    out.error(layouts.error());
    return;
  }
  const auto l0 = level0_beside(in);
  Progress bar("verify", in.bytes.size() + file_bytes(l0), opt.progress);
  bar.set_bytes();
  bar.set_current(in.path.empty() ? in.name : in.path.filename().string());
  bar.advance(0);  // drawn while the file loads
  auto f = load_file(in.path.empty() ? std::filesystem::path(in.name) : in.path, in.bytes, in.owner, *layouts);
  bar.advance(in.bytes.size());
  std::vector<std::unique_ptr<LoadedFile>> keep;
  std::vector<const LoadedFile*> loaded;
  if (f->fname && l0) {
    bar.set_current(l0->filename().string());
    bar.advance(0);
    keep.push_back(load_file(*l0, *layouts, LoadOptions{false}));
    bar.advance(file_bytes(l0));
    if (keep.back()->opened) loaded.push_back(keep.back().get());
  }
  bar.finish();
  loaded.push_back(f.get());
  if (f->opened && !f->file.is_oni()) {
    const auto handles = resolve_links(loaded, loaded.size() - 1);
    std::uint64_t unresolved = 0;
    for (std::uint32_t h : handles) unresolved += h == kUnresolved;
    if (unresolved)
      f->diags.warning(f->file.error("links", kNoOffset, fmt::format("{} links unresolved{}", unresolved, loaded.size() > 1 ? " (with level0_Final.dat)" : "")));
  }
  out.append(f->diags);
}

// The TXMP image fields (#oni-9-1) of instance i when it holds the whole fixed part, else none.
std::optional<records::TxmpImage> txmp_image(const LoadedFile& f, std::uint32_t i) {
  auto inst = f.file.instance_bytes(i);
  if (!inst || inst->size() < records::kTxmpMinSize) return std::nullopt;
  auto img = records::read_txmp_image(*inst);
  return img ? std::optional(*img) : std::nullopt;
}

// TXMP i as NAME.png (with mips, NAME.mip<k>.png down to 1x1), as the Container's texture() decodes it.
Result<ExtractCount> write_txmp(const LoadedFile& f, std::uint32_t i, const std::string& stem, bool mips, const OutputDir& dir) {
  std::size_t levels = 1;
  if (const auto img = txmp_image(f, i); mips && img && img->mipmapped()) {
    ASSAY_TRY(auto lv, txmp_levels(img->width, img->height, img->format, true));
    levels = lv.size();
  }
  ExtractCount n;
  for (std::size_t k = 0; k < levels; ++k) {
    ASSAY_TRY(Rgba8 img, decode_txmp_instance(f, i, static_cast<unsigned>(k)));
    ASSAY_TRY(ByteBuffer png, image::encode_png(image::Rgba{img.width, img.height, std::move(img.pixels)}));
    ASSAY_CHECK(dir.write(k == 0 ? stem + ".png" : fmt::format("{}.mip{}.png", stem, k), png));
    ++n.files;
    n.bytes += png.size();
  }
  return n;
}

ExtractStats extract_oni_files(const LoadedFile& f, const ExtractOptions& x, const ReadOptions& ro, const OutputDir& dir, Diagnostics& diags) {
  std::vector<ExtractItem> items;
  std::vector<std::uint32_t> index;
  for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) {
    if (!OniExport::exported(f, i)) continue;
    const std::string path = oni_file_name(f.names[i]);
    items.push_back({std::string(f.names[i]), {path}, path, f.file.descriptor(i).size});
    index.push_back(i);
  }
  // Named instance i as NAME.oni with its unnamed dependents (spec: oni.md#oni-8); the exporter's
  // indexes are built once for the level. The walk's findings were already reported by load.
  const OniExport ex(f);
  auto write = [&](std::size_t k, const OutputDir& out, unsigned) -> Result<ExtractCount> {
    ASSAY_TRY(ByteBuffer b, ex.build(index[k], diags));
    ASSAY_CHECK(out.write(items[k].path, b));
    return ExtractCount{1, b.size()};
  };
  ExtractStats st = extract_stats(extract_each(items, write, extract_policy(x, ro), dir));
  if (x.globs.empty() && x.excludes.empty()) warn_orphans(f, ex, diags);
  return st;
}

ExtractStats extract_textures(const LoadedFile& f, const ExtractOptions& x, const ReadOptions& ro, const OutputDir& dir, Diagnostics& diags) {
  std::vector<ExtractItem> items;
  std::vector<std::uint32_t> index;
  std::vector<std::string> stems;
  std::uint32_t swapped = 0;
  for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) {
    if (f.file.descriptor(i).tag != make_tag("TXMP") || !f.has_data[i]) continue;
    const std::string name = f.names[i].empty() ? fmt::format("TXMP#{}", i) : std::string(f.names[i]);
    std::string stem = oni_file_name(name);
    stem.resize(stem.size() - 4);  // ".oni"
    items.push_back({name, {stem + ".png"}, stem + ".png", f.file.descriptor(i).size});
    index.push_back(i);
    stems.push_back(std::move(stem));
    const auto img = txmp_image(f, i);
    swapped += img && (img->flags & records::TxmpImage::kSwapBytes) != 0;
  }
  auto write = [&](std::size_t k, const OutputDir& out, unsigned) { return write_txmp(f, index[k], stems[k], x.mips, out); };
  ExtractStats st = extract_stats(extract_each(items, write, extract_policy(x, ro), dir));
  if (swapped)
    diags.note(f.file.error("TXMP", kNoOffset, fmt::format("{} textures have the SwapBytes flag (0x1000): decoded without swapping "
                                                           "(OniSplit sets it on every PC TXMP it writes)", swapped)));
  return st;
}

// One .oni per named instance, or with --textures one PNG per TXMP, through the shared extract
// loop (selection, --skip-existing, keep-going; core/extract_each.h).
Result<ExtractStats> extract(const Input& in, const ReadOptions& opt, const ExtractOptions& x, const OutputDir& dir, Diagnostics& diags) {
  ASSAY_TRY(LayoutSource layouts, layouts_for(opt.family, dir_of(in), &diags));
  auto f = load_file(in.path.empty() ? std::filesystem::path(in.name) : in.path, in.bytes, in.owner, layouts);
  if (!f->opened) return f->diags.items().front().where;
  if (f->layouts == nullptr) {  // a template set the built-in layouts do not know: the error says --exe/--layouts
    auto r = layouts.for_checksum(f->file.header().checksum);
    if (!r) return r.error().in_file(f->display);
  }
  diags.append(f->diags);
  const bool textures = opt.family.count("textures") && opt.family.at("textures") == "1";
  return textures ? extract_textures(*f, x, opt, dir, diags) : extract_oni_files(*f, x, opt, dir, diags);
}

Result<std::vector<std::string>> samples(const std::filesystem::path& dir) { return write_sample_files(dir); }

}  // namespace

const Format kOniFormat = {
    .name = "oni",
    .description = "Oni instance file (.dat/.raw/.sep, .oni)",
    .identify = identify,
    .info = info,
    .list = list,
    .verify = verify,
    .extract = extract,
    .write_samples = samples,
    .list_columns = {"index", "tag", "flags", "size", "name"},
    .edit = oni::edit_format,
};

}  // namespace assay

// The oni Format record: the family's functions (family.cc, json.cc) under the string-map API.
#include <fmt/format.h>

#include <optional>

#include "assay/core/progress.h"
#include "assay/formats/format.h"
#include "assay/formats/oni/edit.h"
#include "assay/formats/oni/oni.h"
#include "assay/image/png.h"
#include "family_parts.h"
#include "records.h"

namespace assay {

namespace {

using namespace oni;

std::filesystem::path dir_of(const Input& in) { return in.path.empty() ? std::filesystem::path(".") : in.path.parent_path(); }

Result<Json> info(const Input& in, const ReadOptions&) {
  ASSAY_TRY(InstanceFile f, InstanceFile::open(in.bytes, in.name));
  Json j;
  j["format"] = "oni";
  j.update(info_fields(f, in));
  return j;
}

Result<Json> list(const Input& in, const ReadOptions&) {
  ASSAY_TRY(InstanceFile f, InstanceFile::open(in.bytes, in.name));
  return list_document(f);
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

}  // namespace

const Format kOniFormat = {
    .name = "oni",
    .description = "Oni instance file (.dat/.raw/.sep, .oni)",
    .identify = identify_input,
    .info = info,
    .list = list,
    .verify = verify_input,
    .extract = extract,
    .write_samples = write_sample_files,
    .list_columns = {"index", "tag", "flags", "size", "name"},
    .edit = oni::edit_format,
};

}  // namespace assay

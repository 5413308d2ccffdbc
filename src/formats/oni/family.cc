// The oni family: identify, open, verify, samples, list columns, edit (spec: oni.md#oni-3).
#include "assay/family.h"

#include <fmt/format.h>

#include <optional>

#include "assay/core/progress.h"
#include "assay/formats/oni/edit.h"
#include "assay/formats/oni/oni.h"
#include "family_parts.h"
#include "records.h"

namespace assay {

namespace oni {

namespace {

std::filesystem::path dir_of(const Input& in) { return in.path.empty() ? std::filesystem::path(".") : in.path.parent_path(); }

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

}  // namespace

int identify_input(const Input& in) {
  if (in.bytes.size() < kHeaderSize) return 0;
  auto id = read_record<records::FileIdentity>(records::le_reader(in.bytes), 0, "file header");
  if (!id) return 0;
  const std::uint32_t v = id->version;
  if (v == kVersionVR31 || v == kVersionVR32) return 100;
  if (v == kVersionVR33 || v == 0x31335256) return 60;  // shown, then refused (spec: oni.md#oni-3-3)
  return 0;
}

// A bar over the bytes of the files loaded (core Progress; drawn only when opt.progress).
void verify_input(const Input& in, const ReadOptions& opt, Diagnostics& out) {
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

}  // namespace oni

namespace {

void verify_unopened(const OpenContext& ctx, Diagnostics& out) { oni::verify_input(ctx.input, ctx.options.read_options(), out); }

}  // namespace

const Family kOniFamily = {
    .name = "oni",
    .description = "Oni instance file (.dat/.raw/.sep, .oni)",
    .identify = oni::identify_input,
    .open = open_oni_container,
    .verify_unopened = verify_unopened,
    .write_samples = oni::write_sample_files,
    .list_columns = {"index", "tag", "flags", "size", "name"},
    .edit = oni::edit_format,
};

}  // namespace assay

// The oni family: identify, open, verify, samples, list columns, edit (spec: oni.md#oni-3).
#include "assay/family.h"

#include <fmt/format.h>

#include <optional>

#include "assay/core/progress.h"
#include "assay/formats/oni/edit.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound.h"
#include "family_parts.h"
#include "records.h"
#include "formats/serialise.h"

namespace assay {

namespace oni {

namespace {

// NAME with its extension replaced: "level1_Final.dat" -> "level1_Final.raw".
std::string with_extension(std::string_view name, std::string_view ext) {
  return std::string(name.substr(0, name.rfind('.'))) + std::string(ext);
}

// The sibling `name`; an open error is kept in `errors` when given (the walk reports it).
std::optional<Input> take(const Siblings& siblings, const std::string& name, std::vector<Error>* errors) {
  auto r = siblings.open(name);
  if (r) return std::move(*r);
  if (errors != nullptr) errors->push_back(std::move(r).error());
  return std::nullopt;
}

}  // namespace

// A level file's .raw/.sep share its stem (spec: oni.md#oni-6-4); another level's links resolve
// with level0_Final.dat (spec: oni.md#oni-7-1); oni-layouts.txt lies beside (docs/cli.md).
SiblingFiles take_siblings(const Input& in, const Siblings& siblings, const assay::ContainerOptions& opt, bool level_file) {
  SiblingFiles s;
  s.file_name = in.file_name();
  if (level_file) {
    s.companions.raw = take(siblings, with_extension(s.file_name, ".raw"), &s.companions.errors);
    s.companions.sep = take(siblings, with_extension(s.file_name, ".sep"), &s.companions.errors);
    if (const auto n = parse_level_file_name(s.file_name); n && n->level != 0) {
      s.level0 = take(siblings, "level0_Final.dat", nullptr);
      if (s.level0) {
        s.level0_companions.raw = take(siblings, "level0_Final.raw", &s.level0_companions.errors);
        s.level0_companions.sep = take(siblings, "level0_Final.sep", &s.level0_companions.errors);
      }
    }
  }
  if (opt.oni.exe.empty() && opt.oni.layouts.empty()) {
    auto r = siblings.open(kLayoutsBeside);
    if (r) s.layouts = std::move(*r);
    else s.layouts_error = std::move(r).error();
  }
  return s;
}

int identify_input(const Input& in) {
  if (in.bytes.size() < kHeaderSize) return 0;
  auto id = read_record<records::FileIdentity>(records::le_reader(in.bytes), 0, "file header");
  if (!id) return 0;
  const std::uint32_t v = id->version;
  if (v == kVersionVR31 || v == kVersionVR32) return 100;
  if (v == kVersionVR33 || v == 0x31335256) return 60;  // shown, then refused (spec: oni.md#oni-3-3)
  return 0;
}

Result<LayoutSource> walk_layouts(const SiblingFiles& sib, const ReadOptions& opt, Diagnostics* warnings) {
  if (sib.layouts_error) return *sib.layouts_error;
  return layouts_for(opt.family, sib.layouts, warnings);
}

// A bar over the bytes of the files loaded (core Progress; drawn only when opt.progress).
void verify_input(const Input& in, const SiblingFiles& sib, const ReadOptions& opt, Diagnostics& out) {
  auto layouts = walk_layouts(sib, opt, &out);
  if (!layouts) {
    out.error(layouts.error());
    return;
  }
  const std::optional<Input>& l0 = sib.level0;
  Progress bar("verify", in.bytes.size() + (l0 ? l0->bytes.size() : 0), opt.progress);
  bar.set_bytes();
  bar.set_current(sib.file_name);
  bar.advance(0);  // drawn while the file loads
  auto f = load_file(sib.file_name, in.bytes, in.owner, *layouts, LoadOptions{true, &sib.companions});
  bar.advance(in.bytes.size());
  std::vector<std::unique_ptr<LoadedFile>> keep;
  std::vector<const LoadedFile*> loaded;
  if (f->fname && l0) {
    bar.set_current("level0_Final.dat");
    bar.advance(0);
    keep.push_back(load_file("level0_Final.dat", l0->bytes, l0->owner, *layouts, LoadOptions{false}));
    bar.advance(l0->bytes.size());
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
  verify_sounds(*f, f->diags);  // SNDD block sizes, durations, data
  out.append(f->diags);
}

}  // namespace oni

namespace {

// The file did not open: verify says why, with the siblings open() would have taken.
void verify_unopened(const OpenContext& ctx, Diagnostics& out) {
  const oni::SiblingFiles sib = oni::take_siblings(ctx.input, ctx.siblings, ctx.options, true);
  oni::verify_input(ctx.input, sib, ctx.options.read_options(), out);
}

}  // namespace

const Family kOniFamily = {
    .name = "oni",
    .description = "Oni instance file (.dat/.raw/.sep, .oni)",
    .identify = oni::identify_input,
    .open = open_oni_container,
    .verify_unopened = verify_unopened,
    .write_samples = oni::write_sample_files,
    .list_columns = {"index", "tag", "flags", "size", "name"},
    .edit = edit_document<oni::edit_format>,
};

}  // namespace assay

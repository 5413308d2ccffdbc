// pack_igarchive and warriors_resource_hash (assay/ops.h): the pack rules the CLI and Python share.
#include <fmt/format.h>

#include <filesystem>

#include "assay/core/hash.h"
#include "assay/formats/igarchive/edit.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/pack.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "assay/ops.h"

namespace assay {

namespace iga = igarchive;

namespace {

namespace fs = std::filesystem;

// OUT's path relative to DIR ('/' separators) when OUT lies inside DIR, else empty: a pack never
// takes its own earlier output (`pack igarchive -o DIR/x.arc DIR --force`).
std::string output_inside(const fs::path& out, const fs::path& dir) {
  std::error_code ec;
  const fs::path o = fs::weakly_canonical(fs::absolute(out, ec), ec), d = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  if (ec) return {};
  const fs::path rel = o.lexically_relative(d);
  const std::string r = rel.generic_string();
  return rel.empty() || r == "." || r.starts_with("..") ? std::string() : r;
}

// Removes the entries named `name` (none when it is empty).
template <class T, class Name>
void drop_named(std::vector<T>& v, const std::string& name, Name of) {
  if (!name.empty()) std::erase_if(v, [&](const T& x) { return of(x) == name; });
}
const auto kSelf = [](const std::string& s) -> const std::string& { return s; };

// `--like` without converting options: an edit of the original. Files whose bytes equal the
// original's keep their stored bytes; only the others are encoded.
Result<PackReport> pack_like(const IgArchivePack& p, const iga::Archive& a, const std::string& self) {
  PackReport r;
  ASSAY_TRY(iga::EditPlan plan, iga::plan_like(a, p.dir, std::nullopt, p.threads, &r.added));
  drop_named(plan.add, self, [](const iga::EditFile& f) -> const std::string& { return f.name; });
  drop_named(r.added, self, kSelf);
  std::uint64_t total = 0;
  for (const auto& f : plan.replace) total += f.data.size();
  for (const auto& f : plan.add) total += f.data.size();
  if (p.start_progress) plan.progress = p.start_progress(total);
  ASSAY_TRY(iga::EditResult e, iga::edit_archive(a, plan));
  r.files = a.files().size() + plan.add.size();
  ASSAY_CHECK(iga::write_checked(p.out, e.bytes, p.force,
                                 [&](ByteView b) { return iga::check_edited(b, plan, r.files, p.threads); }));
  r.bytes = e.bytes.size();
  r.kept = e.copied_files;
  r.encoded = plan.replace.size();  // the added ones are in r.added
  r.version = a.version();
  r.endian = a.endian();
  return r;
}

}  // namespace

Result<PackReport> pack_igarchive(const IgArchivePack& p) {
  auto comp = iga::compression_from_string(p.compression.value_or("lzma"));
  if (!comp) return usage_error("--compression must be lzma, deflate, lz4, none or stored");
  if (p.version && !iga::is_known_version(*p.version)) return usage_error("--version must be 4, 8, 10, 11, 12 or 13");
  const bool converting = p.version || p.compression || p.big_endian || p.case_insensitive;
  iga::WriterOptions opt;
  std::vector<iga::WriterFile> files;
  PackReport r;
  const std::string self = output_inside(p.out, p.dir);
  if (!p.like.empty()) {
    ASSAY_TRY(Input in, resolve_path(p.like.string()));  // the archive views its bytes
    Diagnostics diags;
    ASSAY_TRY(iga::Archive a, iga::open_strict(in.bytes, in.name, &diags));
    if (!converting) return pack_like(p, a, self);
    // A conversion: the original's names, order and times with the options given applied;
    // every file is re-encoded.
    r.converted = true;
    opt = iga::options_like(a);
    if (p.version && *p.version != opt.version) {
      opt.version = *p.version;
      opt.prefix_width = 0;  // the new version's own prefix form (spec: alchemy.md#iga-prefix)
      opt.prefix_little.reset();
    }
    if (p.big_endian.value_or(false)) opt.endian = Endian::big;
    if (p.case_insensitive.value_or(false)) opt.flags |= iga::kFlagCaseInsensitive;
    ASSAY_TRY(files, iga::files_like(a, p.dir, *comp, &r.added));
    drop_named(r.added, self, kSelf);
    if (p.compression)
      for (auto& w : files) w.compression = *comp;
  } else {
    opt.version = p.version.value_or(0x0B);
    opt.endian = p.big_endian.value_or(false) ? Endian::big : Endian::little;
    opt.flags = p.case_insensitive.value_or(false) ? iga::kFlagCaseInsensitive : 0;
    ASSAY_TRY(files, iga::files_from_directory(p.dir, *comp));
  }
  drop_named(files, self, [](const iga::WriterFile& f) -> const std::string& { return f.name; });
  opt.threads = p.threads;
  std::uint64_t total = 0;
  for (const auto& f : files) total += f.data.size();
  if (p.start_progress) opt.progress = p.start_progress(total);
  ASSAY_TRY(ByteBuffer bytes, iga::write_archive(files, opt));
  ASSAY_CHECK(write_file_atomic(p.out, bytes, p.force));
  r.files = files.size();
  r.bytes = bytes.size();
  r.encoded = files.size();
  r.version = opt.version;
  r.endian = opt.endian;
  return r;
}

std::uint32_t warriors_resource_hash(std::string_view name) {
  return warriors::parse_hash(name).value_or(crc32(name));
}

}  // namespace assay

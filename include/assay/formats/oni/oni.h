// The Oni family's high-level operations used by the Format record and the CLI: choosing layouts,
// export to .oni files, pack from them, TXMP textures, demo samples.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/core/output.h"
#include "assay/formats/oni/instance_file.h"
#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/names.h"
#include "assay/formats/oni/writer.h"

namespace assay::oni {

inline constexpr const char* kLayoutsBeside = "oni-layouts.txt";

// Layouts from family options: "exe" (Oni.exe) wins over "layouts" (a layouts file); without
// either, `oni-layouts.txt` in `dir` when present; otherwise the built-in sets, picked per file by
// its header checksum.
Result<LayoutSource> layouts_for(const std::map<std::string, std::string>& family, const std::filesystem::path& dir,
                                 Diagnostics* warnings = nullptr);
// The same with `oni-layouts.txt` as the opener took it from the input's siblings (none: built-in).
Result<LayoutSource> layouts_for(const std::map<std::string, std::string>& family, const std::optional<Input>& beside,
                                 Diagnostics* warnings = nullptr);
// `assay oni layouts`: the built-in table as a layouts file (spec: oni.md#oni-5-1): every line of
// both sets, or one set's 114 lines.
std::string builtin_layouts_file(std::optional<TemplateSet> only);
// `assay oni layouts --exe Oni.exe`: the layouts file text (spec: oni.md#oni-5-2).
Result<std::string> layouts_text_from_exe(const std::filesystem::path& exe);

// File name of a .oni: the full instance name with characters illegal in file names as %XX.
std::string oni_file_name(std::string_view full_name);
// The inverse (without ".oni"); bad escapes are kept literally.
std::string oni_name_from_file(std::string_view file_stem);

struct ExportStats {
  std::uint64_t files = 0, bytes = 0;
};
// One VR32 .oni per named instance matching `globs` (full names), with its unnamed dependents and
// raw/sep parts (spec: oni.md#oni-8). Orphan unnamed instances are warned about.
Result<ExportStats> export_oni_files(const LoadedFile& f, const std::vector<std::string>& globs, const OutputDir& out,
                                     Diagnostics& diags);

// The descriptors export_oni_files writes for named instance `main`, in .oni order: main, its
// unnamed dependents (breadth first), then the named targets (placeholders in the .oni).
std::vector<std::uint32_t> export_closure(const LoadedFile& f, std::uint32_t main);

// One level's .oni exporter: its indexes are built once, so exporting every named instance one by
// one costs O(instances + closures), not O(instances^2). build() and closure() are const and
// thread-safe; `f` must outlive it.
class OniExport {
 public:
  explicit OniExport(const LoadedFile& f);
  ~OniExport();
  OniExport(const OniExport&) = delete;
  OniExport& operator=(const OniExport&) = delete;
  // NAME.oni of named instance i (spec: oni.md#oni-8); its findings go to diags.
  [[nodiscard]] Result<ByteBuffer> build(std::uint32_t i, Diagnostics& diags) const;
  [[nodiscard]] std::vector<std::uint32_t> closure(std::uint32_t main) const;
  // "exported without its links: the instance was not walked", once for each instance some
  // .oni holds with data whose links the walk could not find.
  void warn_unwalked(Diagnostics& diags) const;
  // Unnamed instances with data that no named instance's closure reaches (not exported).
  [[nodiscard]] std::uint32_t orphans() const;
  // Whether instance i gets its own .oni (named, with data).
  [[nodiscard]] static bool exported(const LoadedFile& f, std::uint32_t i);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};
// "N unnamed instances are reached from no named instance: not exported" when there are any.
void warn_orphans(const LoadedFile& f, const OniExport& ex, Diagnostics& diags);

struct PackOptions {
  bool sep = false;    // write a .sep (required when any instance has .sep data)
  bool force = false;
  bool progress = false;  // a bar on stderr over the .oni files' bytes as they load (core Progress)
};
struct PackStats {
  std::uint64_t instances = 0, placeholders = 0, oni_files = 0;
};
// `assay pack oni -o levelN_X.dat DIR`: .dat + .raw (+ .sep) from the .oni files under DIR.
Result<PackStats> pack_level(const std::filesystem::path& dir, const std::filesystem::path& out_dat, const LayoutSource& layouts,
                             const PackOptions& opt, Diagnostics& diags);

// TXMP pixels to RGBA (spec: oni.md#oni-9-1); "unsupported TXMP format N" for other codes.
struct Rgba8 {
  std::uint32_t width = 0, height = 0;
  ByteBuffer pixels;
};
Result<Rgba8> decode_txmp(ByteView pixels, std::uint32_t width, std::uint32_t height, std::uint32_t format);
// Mip `mip` (0 = full size) of TXMP instance i of a walked file (extract --textures, the
// Container's texture() and the viewer). Errors name the file, instance and offset.
Result<Rgba8> decode_txmp_instance(const LoadedFile& f, std::uint32_t i, unsigned mip);

// The demo's synthetic layouts (spec illustrations ZPTS/ZTEX/ZLST plus ZANM and a TXMP layout
// built from spec oni.md#oni-9-1): not Oni's real layouts.
std::string sample_layouts_text();
// level0_Final.dat/.raw, level1_X.dat and oni-layouts.txt in `dir`.
Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir);

}  // namespace assay::oni

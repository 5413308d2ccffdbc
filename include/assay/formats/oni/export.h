// Oni instances to OniSplit-style .oni files (spec: oni.md#oni-8).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include "assay/core/diag.h"
#include "assay/core/output.h"
#include "assay/formats/oni/level_set.h"

namespace assay::oni {

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

}  // namespace assay::oni

// Private: the per-descriptor and per-link vectors of a released level file, handed to the next
// file `oni check` loads on the same worker. Their capacity, and so their pages,
// is reused: a fresh allocation per file costs a page fault per 4 KiB written (the allocator gives
// large blocks back to the system when they are freed).
#pragma once

#include <filesystem>
#include <memory>
#include <utility>
#include <vector>

#include "assay/formats/oni/level_set.h"

namespace assay::oni::detail {

struct FileBuffers {
  std::vector<std::string_view> names;
  std::vector<std::uint8_t> has_data;
  std::vector<const CompiledLayout*> layout;
  std::vector<WalkedInstance> walked;
  std::vector<Link> links;
  std::vector<std::uint32_t> targets;  // the resolution's per-target cache

  // Keeps f's vectors (emptied, capacity kept); f is being released.
  void take_from(LoadedFile& f) {
    swap_cleared(names, f.names);
    swap_cleared(has_data, f.has_data);
    swap_cleared(layout, f.layout);
    swap_cleared(walked, f.walked);
    swap_cleared(links, f.links);
  }
  // Hands the kept vectors (empty) to a new file.
  void give_to(LoadedFile& f) {
    f.names = std::move(names);
    f.has_data = std::move(has_data);
    f.layout = std::move(layout);
    f.walked = std::move(walked);
    f.links = std::move(links);
  }

 private:
  template <class V>
  static void swap_cleared(V& keep, V& from) {
    if (from.capacity() > keep.capacity()) keep.swap(from);
    keep.clear();
  }
};

// load_file (level_set.h) with the vectors of `reuse` handed to the new file.
std::unique_ptr<LoadedFile> load_file_reusing(const std::filesystem::path& path, const LayoutSource& layouts, FileBuffers& reuse);

}  // namespace assay::oni::detail

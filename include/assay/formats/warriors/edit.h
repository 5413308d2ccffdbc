// Targeted edits of WARRIORS.DIR / WARRIORS.WAD: replace, add and remove entries.
// spec: warriors.md#wr-2-6 (replace: new slot, later rows shift by whole sectors; adding: data at
// the next 2,048 boundary after the last entry and a row appended; removing: the row and its
// slot taken out, later offsets move down). Everything else is copied byte for byte, so an add
// followed by a remove of the same entry gives back the original DIR and WAD.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/edit_data.h"
#include "assay/options.h"
#include "assay/formats/warriors/disc.h"

namespace assay::warriors {

struct DiscEdit {
  // New bytes: held, or a file streamed into the WAD in pieces.
  std::map<std::uint32_t, EditData> replace;  // row index -> new bytes
  std::set<std::uint32_t> remove;             // row indices
  struct Added {
    std::uint32_t hash = 0;
    EditData data;
  };
  std::vector<Added> add;  // appended last, in this order
  // Called with an entry's hash and 0 before its new bytes are streamed, and with their size
  // after (progress of the new data; empty: not called).
  std::function<void(std::uint32_t hash, std::uint64_t bytes)> new_data_written;
};

// Streams the new WAD through `wad` (pieces in order) and returns the new DIR. The original must
// pass D1-D10 without errors (warnings are kept as they are).
Result<ByteBuffer> edit_disc(const Disc& original, const DiscEdit& edit,
                             const std::function<Result<void>(ByteView)>& wad);

}  // namespace assay::warriors

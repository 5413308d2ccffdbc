// The one per-entry loop behind `assay extract` for every family (docs/cli.md#extract):
// selection by globs / exact names minus --exclude, --skip-existing, keep-going past a bad entry
// (named in the report; --stop-on-error stops there), progress with the current file. The caller
// supplies the items and "item -> files written" (raw bytes, decoded textures, exported .oni).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/error.h"
#include "assay/core/output.h"

namespace assay {

struct ExtractItem {
  std::string name;                  // in the file's own terms: globs match it; messages name it
  std::vector<std::string> aliases;  // other spellings globs match (the path written, ...)
  std::string path;                  // the first file it writes (--skip-existing looks there); "" = none
  std::uint64_t size = 0;            // bytes it reads (progress; large ones are written alone)
};

struct ExtractPolicy {
  std::vector<std::string> globs;     // empty = every item
  std::vector<std::string> excludes;  // --exclude
  bool skip_existing = false;
  bool stop_on_error = false;
  unsigned threads = 1;  // items written in parallel (1 = in order); the writer must be thread-safe
  bool progress = false;  // draw progress on stderr (core Progress)
  bool fold_case = false;  // globs compare without case (the container's names do: Container::case_insensitive)
  // Exact-name lookup for selectors without glob characters (hash spellings, "#INDEX"); optional.
  std::function<std::optional<std::size_t>(std::string_view)> find;
};

struct ExtractFailure {
  std::string name;  // the item that was not extracted
  Error error;
};

struct ExtractCount {
  std::uint64_t files = 0, bytes = 0;
};

struct ExtractReport {
  std::uint64_t selected = 0, files = 0, bytes = 0;
  std::uint64_t skipped = 0;           // items left alone by --skip-existing
  std::vector<std::string> unmatched;  // selectors that matched no item
  std::vector<ExtractFailure> failed;  // in item order
};

// Writes item `i`'s files under `dir`; `threads` may decode one large item on several cores.
// An error leaves no partial file of that item behind (OutputDir writes atomically).
using WriteItem = std::function<Result<ExtractCount>(std::size_t i, const OutputDir& dir, unsigned threads)>;

// Items selected by policy.globs (or policy.find for exact names) minus policy.excludes, in order.
std::vector<std::size_t> select_items(std::span<const ExtractItem> items, const ExtractPolicy& policy,
                                      std::vector<std::string>* unmatched);

// Selects, then writes every selected item through `write`, going on past a failure unless
// policy.stop_on_error (then items go one at a time, each on all threads, and nothing after the
// failing item is started).
ExtractReport extract_each(std::span<const ExtractItem> items, const WriteItem& write, const ExtractPolicy& policy,
                           const OutputDir& dir);

}  // namespace assay

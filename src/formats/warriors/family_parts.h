// The warriors family's functions that family.cc and container.cc share.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"

namespace assay::warriors {

// Confidence from the bytes and the name: a disc (100), an exact pack (90), a loose container (50),
// a .lev that breaks the container rules (10; open() says what is wrong).
int identify_input(const Input& in);
// `info` fields of a disc (without "format"): source, sizes, a truncated WAD's warning.
Json disc_info_fields(const Disc& disc);
// `info` fields of a loose container (without "format").
Result<Json> chunk_info_fields(const Input& in);
// Each row's kind (spec: warriors.md#wr-8-1), `names` adding K2's own-name check; in parallel.
std::vector<EntryKind> classify_entries(const Disc& disc, const NameTable& names, unsigned threads);
// Every problem of an open disc whose rows were classified (spec: warriors.md#wr-2-5, #wr-10).
void verify_disc(const Disc& disc, const NameTable& names, std::span<const EntryKind> kinds, const ReadOptions& opt,
                 Diagnostics& out);
// Every problem of a loose container (spec: warriors.md#wr-3), also one that does not open.
void verify_chunks(const Input& in, Diagnostics& out);
// Every problem of a disc or a loose container that may not open; the WAD from `siblings`.
void verify_input(const Input& in, const Siblings& siblings, const ReadOptions& opt, Diagnostics& out);
// The demo files: a disc (warriors/WARRIORS.DIR, .WAD) and a level container.
Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir);

}  // namespace assay::warriors

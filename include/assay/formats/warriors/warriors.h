// The warriors family's entry points for the CLI (tools/assay/family_warriors.cc) and the Format
// record: disc or loose container inputs, classify, load, verify. JSON shapes: docs/cli.md.
#pragma once

#include <string>

#include "assay/options.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"

namespace assay::warriors {

// `assay warriors classify DISC`: {"format","entries","counts":{kind:n},"bytes":{kind:n}}.
Result<Json> classify_disc(const Input& in, const ReadOptions& opt);

// What a load left, as JSON (spec: #wr-5-4 step 3): format, header, chunks, chunk_counts,
// chunk_stack (bottom first), objects, stored, trailing, diagnostics, error {message, offset}.
Json load_result_json(const LoadResult& r, std::uint64_t base = 0);

// A truncated WAD as `info` and `list` show it: {"warning": message, "problems":
// [that warning]}; {} for a whole WAD. `verify` reports the same diagnostic as an error.
Json wad_truncation_fields(const Disc& disc);

// `assay warriors load DISC:NAME | DISC:0xHASH | FILE`. The JSON has "ok" false and "error"
// when the load failed; an Error is returned only for I/O or usage problems.
Result<Json> load_spec(const std::string& spec, ContainerShape shape, const ReadOptions& opt);

}  // namespace assay::warriors

// Internal: the renderware family's JSON, built here only (docs/cli.md "### renderware",
// docs/schema/): info fields, list fields and each entry's details, from the typed Stream.
#pragma once

#include "assay/options.h"
#include "stream.h"

namespace assay::rw::detail {

// info --json without "format" (info_json adds it first).
Json info_fields(const Stream& s);
// The fields list --json prints before "entries".
Json list_fields(const Stream& s);
// An entry's family fields: a texture native, an atomic of clump `ci`, a top-level section.
Json texture_details(const TextureNative& t);
Json atomic_details(const ClumpSummary& c, std::size_t ci, const AtomicSummary& a);
Json section_details(const Section& s);
// A top-level clump's model entry: clump, atomics, geometries, triangles, vertices, skinned.
Json model_details(const ClumpSummary& c, std::size_t ci);
// A cut dictionary's {"truncated": {...}, "problems": [the error]}.
Json cut_fields(const CutDictionary& c);

}  // namespace assay::rw::detail

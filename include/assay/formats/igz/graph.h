// The igz object graph without reflection metadata (spec: alchemy.md#igz-objects,
// #igz-externals): one object per RVTB entry, pointer edges from ROFS, strings from RSTR,
// external references from REXT/RNEX/RHND, the root list and the name list. Building it runs
// every value check of spec: alchemy.md#verify-igz; problems go to the sink.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/formats/igz/fixups.h"

namespace assay::igz {

inline constexpr std::size_t kNoObject = ~std::size_t{0};

struct Object {
  std::uint32_t serialized = 0;  // the RVTB value
  std::uint32_t pool = 0;
  std::uint32_t offset = 0;      // inside the pool
  std::uint64_t position = 0;    // absolute file position
  std::uint32_t type = 0;        // TMET index (the first 32-bit word)
  std::string_view type_name;    // empty when the index is out of range
  std::uint32_t size = 0;        // MTSZ[type], 0 when unknown
};

struct Edge {  // a ROFS field
  std::uint32_t field = 0;        // serialized offset of the pointer field
  std::uint32_t target = 0;       // the serialized pointer it holds
  std::size_t from = kNoObject;   // object holding the field
  std::size_t to = kNoObject;     // object containing the target
  bool valid = false;             // target inside a pool
};

struct StringRef {  // an RSTR or RSTT field
  std::uint32_t tag = 0;
  std::uint32_t field = 0;
  std::uint32_t value = 0;        // serialized pointer (RSTR) or TSTR index (RSTT)
  std::size_t from = kNoObject;
  std::optional<std::string_view> text;
};

struct ExternalRef {  // a REXT, RNEX or RHND field
  std::uint32_t tag = 0;
  std::uint32_t field = 0;
  std::uint32_t value = 0;
  std::size_t from = kNoObject;
  std::string kind;               // "exid" or "exnm"
  std::uint32_t index = 0;        // into EXID or EXNM
  std::string name;               // "namespace::name" (hashes as 8 hex digits)
  bool valid = false;
};

struct NameEntry {  // one igName of the ONAM (or NSPC) igNameList
  std::optional<std::string_view> text;
  std::uint32_t hash = 0;
  std::uint32_t field = 0;                  // serialized offset of the igName's string field
  // Set when the string field is an RSTT field: the igName is {TSTR index, hash}
  // (version 7 and Crash NST, spec: alchemy.md#corrections C2), not a string pointer.
  std::optional<std::uint32_t> tstr_index;
  bool hash_ok = false;                     // hash == FNV-1a of the lower-cased text
};

// How igDataList fields were laid out (spec: alchemy.md#igz-objects, #corrections C4).
enum class ListLayout : std::uint8_t {
  ptr32,      // count 0x08, capacity 0x0C, igMemory {u32 word, u32 pointer} at 0x10
  ptr64,      // versions 7-9 on 64-bit (inferred): count 0x0C, igMemory {u64 word, u64 pointer} at 0x18
  nst64,      // version 10, Crash NST: count 0x10, capacity 0x14, igMemory {u32 size, u32 flags, u64 pointer} at 0x18
  ctr64,      // version 10, CTR: count 0x0C, capacity 0x10, igMemory as NST
};
std::string_view to_string(ListLayout l);

struct Graph {
  std::vector<Object> objects;        // RVTB order (ascending serialized offset)
  std::vector<Edge> edges;            // ROFS order
  std::vector<StringRef> strings;     // RSTR then RSTT
  std::vector<ExternalRef> externals; // REXT, RNEX, RHND
  std::optional<std::size_t> root;    // the ROOT object (an igObjectList)
  std::vector<std::size_t> root_list; // its elements (kNoObject for a non-object element)
  std::optional<std::size_t> name_list_object;  // ONAM
  std::vector<NameEntry> names;       // its igNames
  std::optional<std::size_t> namespace_list_object;  // NSPC (spec C5)
  std::vector<NameEntry> namespace_names;            // normally one: the file's namespace
  std::vector<ListLayout> list_layouts;              // the layouts the lists were read with

  // The object starting exactly at / containing a serialized offset, or kNoObject.
  [[nodiscard]] std::size_t object_at(std::uint32_t serialized) const;
  [[nodiscard]] std::size_t object_containing(std::uint32_t serialized) const;
  std::vector<std::size_t> by_position;  // object indices sorted by serialized offset
  std::uint32_t version = 9;             // for decoding serialized offsets
};

// "namespace::name" of EXID entry i ("843cd0c2::61455ac9") or EXNM entry i (TSTR strings).
std::string external_id_name(const Fixups& fx, std::size_t i);
std::string external_name_name(const Fixups& fx, std::size_t i);
// The lines info and verify print for the externals, EXID then EXNM entries: "external exid 0:
// e696c190::9b95e23c unresolved (namespace Zap_igb_materials, TDEP materials:/Zap_igb_materials.igz)".
// The parenthesis says what the file itself tells of it, when it does: the TDEP dependency whose
// namespace is the external's (an EXID's namespace hash is FNV-1a of its lower case), or the
// engine's metaimage an EXID in the "metaimages" namespace names.
std::vector<std::string> external_lines(const Fixups& fx);

Graph build_graph(const IgzFile& f, const Fixups& fx, const DiagSink& sink);

// Every check of spec: alchemy.md#verify-igz. Thread-safe and reentrant (no shared state).
void verify(ByteView bytes, const OpenOptions& opt, Diagnostics& out);

}  // namespace assay::igz

// igz writer for versions 7 to 10, both byte orders, 4- and 8-byte pointers
// (spec: alchemy.md#igz-header-v7, #igz-fixups, #igz-tags, #igz-strings, #igz-packed).
//
// The caller lays out objects in pools through serialized offsets (pool << 27 | offset) and
// registers each fixup as it writes a field; finish() writes the header, the fixup records
// (runtime lists packed) and the pools. For version < 9 each pool reserves its first 4 bytes
// (spec: #igz-packed: the bias cannot encode a first value of 0).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "assay/formats/igz/igz.h"

namespace assay::igz {

struct Layout {
  std::uint32_t version = 9;
  Endian endian = Endian::big;
  std::uint32_t platform = 9;  // IG_CORE_PLATFORM for the version (spec: #igz-platform)
  unsigned pointer_size = 0;   // 0 = from the platform (version 10: 8, spec: #corrections C3)
  // build_sample: igNames as {TSTR index, hash} through RSTT (version 7 and Crash NST, spec
  // #corrections C2) instead of string pointers (RSTR).
  bool names_as_tstr = false;
  // Version 10 on 64-bit: CTR's igDataList (count at 0x0C) instead of NST's (0x10) (spec C4).
  bool ctr = false;
  // build_sample: when set, an NSPC igNameList naming this namespace (spec C5).
  std::string name_space;
};

class Writer {
 public:
  explicit Writer(Layout layout);

  [[nodiscard]] const Layout& layout() const { return layout_; }
  [[nodiscard]] unsigned pointer_size() const { return ps_; }
  // Bytes of the object header (vtable word + reference count).
  [[nodiscard]] std::uint32_t object_header() const { return ps_ == 8 ? 0x10 : 0x08; }
  // igDataList / igObjectList / igNameList size, and its field offsets (spec: #igz-objects;
  // 64-bit layout inferred for versions 7-9: count 0x0C, capacity 0x10, memory 0x18; version 10
  // per #corrections C4: count 0x10 (NST) or 0x0C (CTR), igMemory {u32 size, u32 flags, u64}).
  [[nodiscard]] std::uint32_t data_list_size() const { return ps_ == 8 ? 0x28 : 0x18; }
  [[nodiscard]] bool v10_64() const { return layout_.version >= 10 && ps_ == 8; }
  // igName {string, hash}: 16 bytes on 64-bit, the hash a u64 on version 10 (C4).
  [[nodiscard]] std::uint32_t name_size() const { return ps_ == 8 ? 16 : 8; }
  void put_name_hash(std::uint32_t name, std::uint32_t hash);
  // An igMemory size word for `size` bytes as this layout stores it: the optimal-CPU flag and
  // the size (spec #igz-objects), or on 64-bit version 10 {u32 size, u32 flags 0x01100000} read
  // as one u64 in the file's byte order (spec C4).
  [[nodiscard]] std::uint64_t memory_word(std::uint64_t size) const;

  std::uint32_t add_pool(std::string name, std::uint32_t alignment);  // returns the pool index
  std::uint32_t add_type(std::string name, std::uint32_t size);       // TMET index
  std::uint32_t add_string_table_entry(std::string s);                 // TSTR index
  void add_dependency(std::string name_space, std::string path);       // TDEP
  std::uint32_t add_external_id(std::uint32_t name_hash, std::uint32_t namespace_hash);  // EXID
  std::uint32_t add_external_name(std::uint32_t namespace_index, std::uint32_t name_index,
                                  bool handle);                        // EXNM
  std::uint32_t add_memory_handle(std::uint64_t size_word, std::uint32_t data);  // TMHN

  // Zeroed memory in a pool; returns its serialized offset.
  std::uint32_t alloc(std::uint32_t pool, std::uint32_t size, std::uint32_t align = 4);
  // An object of a TMET type (MTSZ bytes), its vtable word set, registered in RVTB.
  std::uint32_t add_object(std::uint32_t pool, std::uint32_t type);
  // A NUL-terminated string in the "String" pool (created on first use).
  std::uint32_t add_string(std::string_view s);

  void put_u32(std::uint32_t at, std::uint32_t v);
  void put_word(std::uint32_t at, std::uint64_t v);  // pointer-sized

  void set_pointer(std::uint32_t field, std::uint32_t target);            // ROFS
  void set_string(std::uint32_t field, std::string_view s);               // RSTR
  void set_string_index(std::uint32_t field, std::uint32_t tstr);         // RSTT
  void set_external(std::uint32_t field, std::uint32_t exid);             // REXT (bit 31 set)
  void set_named_external(std::uint32_t field, std::uint32_t k);          // RNEX
  void set_handle(std::uint32_t field, std::uint32_t value);              // RHND (raw igHandle)
  void set_memory_handle(std::uint32_t field, std::uint32_t tmhn);        // RMHN
  void add_pool_id(std::uint32_t field);                                  // RPID
  // An igDataList's count/capacity and memory; `data` 0 with count 0 leaves it null.
  void set_data_list(std::uint32_t list, std::uint32_t count, std::uint32_t data,
                     std::uint32_t element_size);
  // An igObjectList object of `type` holding `elements` (memory in the same pool).
  std::uint32_t add_object_list(std::uint32_t pool, std::uint32_t type,
                                const std::vector<std::uint32_t>& elements);
  void set_root(std::uint32_t object) { root_ = object; }
  void set_name_list(std::uint32_t object) { name_list_ = object; has_name_list_ = true; }
  void set_namespace_list(std::uint32_t object) { namespace_list_ = object; has_namespace_list_ = true; }  // NSPC
  void set_fields_hash(std::uint32_t h) { fields_hash_ = h; }

  [[nodiscard]] Result<ByteBuffer> finish() const;

 private:
  struct Pool {
    std::string name;
    std::uint32_t alignment;
    ByteBuffer bytes;
  };
  [[nodiscard]] std::uint8_t* at(std::uint32_t serialized, std::uint32_t size);
  [[nodiscard]] Result<std::pair<ByteBuffer, std::uint32_t>> records() const;  // bytes, count

  Layout layout_;
  unsigned ps_ = 4;
  std::vector<Pool> pools_;
  std::vector<std::string> types_, tstr_;
  std::vector<std::uint32_t> sizes_;
  std::vector<std::pair<std::string, std::string>> deps_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> exid_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> exnm_;  // (namespace word, name word)
  std::vector<std::pair<std::uint64_t, std::uint32_t>> tmhn_;
  std::map<std::uint32_t, std::vector<std::uint32_t>> lists_;  // runtime lists by tag
  std::uint32_t root_ = 0, name_list_ = 0, fields_hash_ = 0;
  bool has_name_list_ = false;
  std::uint32_t namespace_list_ = 0;
  bool has_namespace_list_ = false;
  std::uint32_t string_pool_ = ~0u;
  bool bad_ = false;  // an out-of-range write was attempted; finish() fails
};

// A small igz exercising every fixup tag (TDEP TSTR TMET MTSZ EXID EXNM TMHN RVTB RSTT RSTR
// ROFS RPID REXT RNEX RHND RMHN ROOT ONAM): a root igObjectList of two objects that point at
// each other, an igNameList naming them, strings, externals and one memory handle.
Result<ByteBuffer> build_sample(const Layout& layout);
// The same graph with `objects` demo objects and, when image_bytes > 0, an Image pool of that
// many deterministic pseudo-random bytes (vertex-like payload; bench / deep-verify fixtures).
Result<ByteBuffer> build_sample(const Layout& layout, std::uint32_t objects,
                                std::uint32_t image_bytes = 0);

}  // namespace assay::igz

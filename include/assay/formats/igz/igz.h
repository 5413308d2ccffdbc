// Alchemy igz object files: header, section descriptors, fixup records (spec: alchemy.md#igz).
//
// IgzFile is a non-owning view over the bytes of one igz: open() checks the header, the
// section descriptors and walks the fixup record directory (header only, no data decoded).
// The fixup tables (fixups.h) and the object graph (graph.h) are decoded from it on demand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"
#include "assay/options.h"

namespace assay::igz {

inline constexpr std::string_view kFormatName = "igz";
inline constexpr std::uint32_t kMagic = 0x49475A01;  // spec: alchemy.md#overview-byteorder

// spec: alchemy.md#igz-header-v7
inline constexpr std::uint64_t kHeaderV7Descriptors = 0x14;
inline constexpr std::uint64_t kMaxSectionsV7 = 32;
inline constexpr std::uint64_t kPoolNamesV7 = 0x224;
inline constexpr std::uint64_t kPoolNamesEnd = 0x800;
inline constexpr std::uint64_t kFixupHeaderV7 = 0x10;
// spec: alchemy.md#igz-header-v6 [uncertain]
inline constexpr std::uint64_t kHeaderV6Descriptors = 0x0C;
inline constexpr std::uint64_t kMaxSectionsV6 = 1 + 0x55;
inline constexpr std::uint64_t kPoolNamesV6 = 0x56C;
inline constexpr std::uint64_t kFixupInnerHeaderV6 = 0x1C;
inline constexpr std::uint64_t kFixupHeaderV6 = 0x18;

// A fixup tag as a u32 whose little-endian bytes spell the name (spec: alchemy.md#igz-fixups).
constexpr std::uint32_t make_tag(const char (&s)[5]) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[3])) << 24;
}
namespace tag {
inline constexpr std::uint32_t TDEP = make_tag("TDEP"), TSTR = make_tag("TSTR"),
                               TMET = make_tag("TMET"), MTSZ = make_tag("MTSZ"),
                               EXID = make_tag("EXID"), EXNM = make_tag("EXNM"),
                               TMHN = make_tag("TMHN"), ONAM = make_tag("ONAM"),
                               RVTB = make_tag("RVTB"), ROOT = make_tag("ROOT"),
                               ROFS = make_tag("ROFS"), RPID = make_tag("RPID"),
                               RSTT = make_tag("RSTT"), RSTR = make_tag("RSTR"),
                               RMHN = make_tag("RMHN"), REXT = make_tag("REXT"),
                               RNEX = make_tag("RNEX"), RHND = make_tag("RHND"),
                               NSPC = make_tag("NSPC");  // spec: alchemy.md#corrections C5
}  // namespace tag
static_assert(tag::TMET == 0x54454D54 && tag::RHND == 0x444E4852);

// "TMET" for a known tag value, else the four bytes (non-printable as '.').
std::string tag_name(std::uint32_t tag);
// Version 5/6 numeric fixup ids to tags; 0 for an unknown id (spec: alchemy.md#igz-header-v6).
std::uint32_t tag_for_v6_id(std::uint32_t id);
// True for the packed runtime lists (RVTB ROOT ROFS RPID RSTT RSTR RMHN REXT RNEX RHND).
bool is_runtime_list(std::uint32_t tag);

// Platform name for the version's enum, or empty when unknown (spec: alchemy.md#igz-platform).
// Version 10 (Crash NST / CTR) is never mapped through the v9 table (spec: #corrections C3): empty.
std::string_view platform_name(std::uint32_t version, std::uint32_t platform);
// 4 or 8; 0 when the platform is unknown for the version (always 0 for version 10).
unsigned platform_pointer_size(std::uint32_t version, std::uint32_t platform);

// Where the pointer size came from (spec: alchemy.md#corrections C3).
enum class PointerSource : std::uint8_t {
  platform,  // the version's platform table (no MTSZ evidence)
  bytes,     // MTSZ: igObjectList / igNameList are 0x28 bytes on 64-bit, 0x18 on 32-bit
  caller,    // OpenOptions::pointer_size (--igz-pointer-size)
};
std::string_view to_string(PointerSource s);
// 8 or 4 from the MTSZ size of a list type (0x28 / 0x18), else 0.
unsigned pointer_size_from_list_size(std::uint32_t size);

// One section descriptor. Index 0 is the fixup section; index k + 1 is memory pool k.
struct Section {
  std::uint32_t name_offset = 0;  // raw field; only the low 16 bits are used
  std::uint32_t offset = 0;       // absolute file offset
  std::uint32_t length = 0;       // bytes (0xFFFFFFFF read as 4 for v < 9, spec: #igz-header-v7)
  std::uint32_t alignment = 0;
  std::string_view name;          // from the pool-name area (empty when unreadable)
  bool usable = false;            // range inside the file (pointers into it can be resolved)
};

struct Header {
  Endian endian = Endian::big;
  std::uint32_t version = 0;
  std::uint32_t fields_hash = 0;
  std::uint32_t platform = 0;
  std::uint32_t num_fixups = 0;
  unsigned pointer_size = 4;
  bool pointer_size_from_caller = false;  // the platform was unknown; the caller supplied it
  PointerSource pointer_source = PointerSource::platform;
  unsigned platform_pointer_size = 0;     // what the platform table says (0 = unknown / v10)
  unsigned bytes_pointer_size = 0;        // what MTSZ says (0 = no igObjectList/igNameList)
  std::vector<Section> sections;  // [0] = fixups, [k + 1] = pool k
  [[nodiscard]] bool legacy() const { return version <= 6; }  // spec: alchemy.md#igz-header-v6
};

// One fixup record, header only; data is a view of [data_offset, length) inside the record.
struct FixupRecord {
  std::uint32_t tag = 0;       // normalised tag (v5/6 ids mapped), 0 when unknown
  std::uint32_t raw_tag = 0;   // as read (u32 tag or numeric id)
  std::uint32_t count = 0;
  std::uint32_t length = 0;
  std::uint32_t data_offset = 0;
  std::uint64_t offset = 0;    // absolute file position of the record
  ByteView data;
};

struct OpenOptions {
  unsigned pointer_size = 0;  // 0 = from the platform; 4 or 8 overrides an unknown platform
};
// ReadOptions::family["igz-pointer-size"] ("4"/"8") to OpenOptions.
Result<OpenOptions> open_options(const ReadOptions& opt);

class IgzFile {
 public:
  // Checks the header and the fixup directory. Fatal problems are the returned Error; the
  // others (and every check of spec: alchemy.md#verify-igz that concerns the header and the
  // record directory) go to `sink` when given.
  static Result<IgzFile> open(ByteView bytes, const OpenOptions& opt = {},
                              const DiagSink& sink = nullptr);

  [[nodiscard]] const Header& header() const { return header_; }
  [[nodiscard]] const std::vector<FixupRecord>& records() const { return records_; }
  [[nodiscard]] ByteView bytes() const { return bytes_; }
  [[nodiscard]] ByteReader reader() const { return ByteReader(bytes_, header_.endian, kFormatName); }
  [[nodiscard]] std::size_t pool_count() const { return header_.sections.size() - 1; }
  [[nodiscard]] const Section& pool(std::size_t k) const { return header_.sections[k + 1]; }
  // The first record with this tag, or nullptr.
  [[nodiscard]] const FixupRecord* find(std::uint32_t tag) const;

 private:
  IgzFile() = default;
  ByteView bytes_;
  Header header_;
  std::vector<FixupRecord> records_;
};

// --- serialized pointers (spec: alchemy.md#igz-pointers) ------------------------------------

struct PoolOffset {
  std::uint32_t pool = 0;    // pool index (descriptor pool + 1)
  std::uint32_t offset = 0;  // offset inside the pool
};
// 5-bit pool index from version 7 (offset mask 0x07FFFFFF, §7 Q10), 8-bit before.
PoolOffset decode_pointer(std::uint32_t version, std::uint32_t value);
std::uint32_t encode_pointer(std::uint32_t version, PoolOffset p);

// The absolute file position of a serialized offset, checked: the pool exists and is usable,
// and [offset, offset + need) lies inside the pool. `what` names the structure in the error.
Result<std::uint64_t> resolve(const IgzFile& f, std::uint32_t serialized, std::uint64_t need,
                              std::string_view what);

// --- packed integer lists (spec: alchemy.md#igz-packed) ---------------------------------------

// Decodes `count` values from `data`. Errors when the data ends before `count` values (a list
// that never ends), or a value overflows 32 bits. `bytes_used` receives the bytes consumed.
Result<std::vector<std::uint32_t>> unpack_list(ByteView data, std::uint32_t count,
                                               std::uint32_t version,
                                               std::size_t* bytes_used = nullptr);
// Encodes values (sorted ascending first). Errors for a value not a multiple of 4, or, for
// version < 9, two values (or the first and 0) closer than 4 (the bias cannot express them).
Result<ByteBuffer> pack_list(std::vector<std::uint32_t> values, std::uint32_t version);

// --- igMemory (spec: alchemy.md#igz-objects) ----------------------------------------------------

struct MemoryWord {
  bool optimal_cpu = false;
  std::uint64_t alignment = 4;
  std::uint64_t size = 0;
};
MemoryWord decode_memory_word(std::uint64_t word, unsigned pointer_size);
// Version 10 on 64-bit (Crash NST / CTR, spec: alchemy.md#corrections C4): igMemory is
// {u32 size, u32 flags, u64 pointer}; flags bit 24 = active, bits 20-23 = log2(alignment) - 2.
struct MemoryV10 {
  std::uint32_t size = 0;
  std::uint32_t flags = 0;
  [[nodiscard]] bool active() const { return ((flags >> 24) & 1) != 0; }
  [[nodiscard]] std::uint64_t alignment() const { return std::uint64_t{1} << (((flags >> 20) & 0xF) + 2); }
};
// The first 8 bytes of a v10 igMemory read as one u64 in file byte order, split into its words.
MemoryV10 split_memory_v10(std::uint64_t word, Endian endian);
// True for the 64-bit version 10 layouts of spec C4 (igMemory {u32, u32, u64}, igDataList count
// at 0x10 or 0x0C, igName {u64 string, u64 hash}).
inline bool nst_layout(const Header& h) { return h.version >= 10 && h.pointer_size == 8; }

}  // namespace assay::igz

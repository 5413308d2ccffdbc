// Template layouts: the byte code (spec: oni.md#oni-4-3), its walk over one instance
// (spec: oni.md#oni-6), the layouts file (spec: oni.md#oni-5) and the set keyed by (tag, checksum).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"

namespace assay::oni {

// BFW's TMtSwapCode values.
enum class Op : std::uint8_t {
  f8 = 1, f4 = 2, f2 = 3, f1 = 4, fixed = 5, end_fixed = 6, var = 7, end_var = 8, link = 9, raw = 10, sep = 11
};

// Template flags (spec: oni.md#oni-4-2).
inline constexpr std::uint32_t kTemplateLeaf = 0x02;
inline constexpr std::uint32_t kTemplateVarArrayIsLeaf = 0x04;
inline constexpr std::size_t kMaxLayoutBytes = 65535;
inline constexpr int kMaxNesting = 32;

struct Layout {
  std::uint32_t tag = 0;
  std::uint64_t checksum = 0;
  std::uint32_t flags = 0;
  ByteBuffer code;
  std::string name;  // "Texture Map" (from the exe, or the layouts file's trailing comment)
};

// One compiled byte-code step. Arrays know their closing step and their element's minimum size.
struct Step {
  Op op = Op::end_fixed;
  std::uint8_t arg = 0;    // fixed: n; var: count kind k
  std::uint32_t tag = 0;   // link: expected tag (0 = any)
  std::uint32_t end = 0;   // arrays: index of the closing step
  std::uint64_t min = 0;   // arrays: minimum bytes of one element (nested counts 0)
};

// How the size of a .raw/.sep chunk is known (spec: oni.md#oni-9-3).
enum class ChunkSize : std::uint8_t { unknown, u32_field, txmp };
enum class FieldKind : std::uint8_t { link, raw, sep };

// A plain 4-byte field that retail layouts use for a .raw/.sep offset (spec: oni.md#oni-9-3).
struct ChunkRule {
  std::uint32_t offset = 0;  // instance-relative
  FieldKind kind = FieldKind::raw;
  ChunkSize size = ChunkSize::unknown;
  std::uint32_t size_offset = 0;  // u32_field: where the size is
  bool in_element = false;        // offset inside each element of the top-level variable array
};

// The grammar check of spec oni.md#oni-4-3 plus compilation. With `allow_trailing`, bytes after
// the final 0x06 are ignored and `length` gets the layout's length (used on Oni.exe).
struct CompiledCode {
  std::vector<Step> steps;
  std::uint64_t fixed_size = 0;                  // walked size with every count 0
  bool has_var = false;                          // a top-level variable array
  std::optional<std::uint64_t> var_element;      // its element size, when fixed (no nested var array)
  bool has_links = false, links_in_var = false;  // for the flag consistency check
  bool has_raw_ops = false;                      // 0x0A/0x0B present
  std::size_t length = 0;
};
Result<CompiledCode> compile_layout(ByteView code, bool allow_trailing = false);

class CompiledLayout {
 public:
  Layout layout;
  CompiledCode code;
  std::vector<ChunkRule> chunk_rules;  // spec: oni.md#oni-9-3, only without 0x0A/0x0B
  [[nodiscard]] std::uint32_t tag() const { return layout.tag; }
  [[nodiscard]] std::uint64_t checksum() const { return layout.checksum; }
  [[nodiscard]] bool leaf() const { return (layout.flags & kTemplateLeaf) != 0; }
};

// A 4-byte field the walk found: a non-zero link, or a .raw/.sep offset (zero included).
struct FieldRef {
  std::uint32_t offset = 0;  // instance-relative
  std::uint32_t value = 0;
  std::uint32_t tag = 0;     // link: expected tag
  FieldKind kind = FieldKind::link;
  ChunkSize size = ChunkSize::unknown;
  std::uint32_t size_offset = 0;
};

struct WalkResult {
  std::uint64_t end = 0;                // walked end
  std::uint32_t count_high_nonzero = 0; // 8-byte counts with a non-zero high half
};

// Walks one instance (its bytes from the 8-byte header on) by its layout, appending links (where
// the engine records them: spec: oni.md#oni-6-1) and raw/sep offsets to `out`. Errors carry the
// instance-relative offset; the caller names file and instance.
Result<WalkResult> walk_instance(const CompiledLayout& l, ByteView inst, std::vector<FieldRef>& out);

// The chunk rules of spec oni.md#oni-9-3 for (tag, checksum).
std::vector<ChunkRule> retail_chunk_rules(std::uint32_t tag, std::uint64_t checksum);
// One level of a TXMP's pixel data, from the start of its chunk.
struct TxmpLevel {
  std::uint32_t width = 0, height = 0;
  std::uint64_t offset = 0, size = 0;
};
inline constexpr std::uint32_t kTxmpMaxDim = 16384;
// The levels of a TXMP (spec: oni.md#oni-9-1): level 0, then with mipmaps each halving down to and
// including 1x1, which OniSplit stores (samples/oni/README.md). A TXMP has no mip
// count: it follows from the size, which is checked (1-16384) before any level is computed, so a
// chain has at most 15 levels. Errors: bad size, unsupported format.
Result<std::vector<TxmpLevel>> txmp_levels(std::uint32_t width, std::uint32_t height, std::uint32_t format, bool mips);
// Bytes of all those levels; nullopt for a bad size or an unknown format.
std::optional<std::uint64_t> txmp_data_size(std::uint32_t width, std::uint32_t height, std::uint32_t format, bool mips);

class LayoutSet {
 public:
  // Compiles and adds; a repeated (tag, checksum) is an error. Flag contradictions are warnings.
  Result<void> add(Layout l, Diagnostics* warnings = nullptr);
  [[nodiscard]] const CompiledLayout* find(std::uint32_t tag, std::uint64_t checksum) const;
  // spec: oni.md#oni-8: a .oni has no template table; choose by tag, then by the header's set.
  [[nodiscard]] Result<const CompiledLayout*> choose_without_table(std::uint32_t tag, std::uint64_t header_checksum) const;
  [[nodiscard]] const std::vector<CompiledLayout>& all() const { return all_; }
  [[nodiscard]] bool empty() const { return all_.empty(); }
  // OniSplit's short form of layout l, nullptr when it has none. spec:
  // oni-templates.md "TXMP v1.1 size 0xB0 vs OniSplit 0xAC": OniSplit's v1.1 (Mac) TXMP struct,
  // which its -import:sep writes, stops before the u8 and 3 pad bytes that end the layout. Made by
  // add() for a TXMP 0x8911EEB5F layout ending in those fields; same checksum and chunk rules.
  [[nodiscard]] const CompiledLayout* short_form(const CompiledLayout* l) const;
  // The layout to walk an instance of `size` bytes with: the short form when l has one and `size`
  // is at least its size but below l's (a 0xAC TXMP under the 0xB0 layout), else l.
  [[nodiscard]] const CompiledLayout* for_size(const CompiledLayout* l, std::uint64_t size) const;
  std::string source;  // "layouts file X" or "Oni.exe"

 private:
  std::vector<CompiledLayout> all_;
  std::map<std::size_t, std::shared_ptr<const CompiledLayout>> short_forms_;  // index in all_ -> short form
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> index_;
};

// The built-in layouts: data/oni/templates.txt, compiled in at build time.
// Each retail template set is the table order's one line per tag whose sum
// Σ (n+1) × checksum[n] reproduces that set's level-header checksum (oni-templates.md).
enum class TemplateSet : std::uint8_t { v10, v11 };
std::string_view builtin_layouts_text();
// Built once on first use, immutable afterwards. Empty only if the compiled table is broken.
const LayoutSet& builtin_layouts(TemplateSet set);
std::optional<TemplateSet> template_set_of(std::uint64_t header_checksum);

// Where a file's layouts come from: a set the user gave (--exe, --layouts, oni-layouts.txt), used
// for every file; or the built-in sets, picked per file by its header's total checksum.
class LayoutSource {
 public:
  LayoutSource() = default;  // built-in
  // Non-owning: `set` must outlive this source (it converts implicitly for calls that take one).
  LayoutSource(const LayoutSet& set) : user_(&set) {}  // NOLINT(google-explicit-constructor)
  explicit LayoutSource(std::shared_ptr<const LayoutSet> set) : owned_(std::move(set)), user_(owned_.get()) {}
  [[nodiscard]] bool builtin() const { return user_ == nullptr; }
  // The layouts for a file whose header holds `header_checksum`; with the built-in sets, an error
  // naming --exe/--layouts when the checksum is neither retail set's.
  [[nodiscard]] Result<const LayoutSet*> for_checksum(std::uint64_t header_checksum) const;

 private:
  std::shared_ptr<const LayoutSet> owned_;
  const LayoutSet* user_ = nullptr;
};

// spec: oni.md#oni-5-1. Errors name the line.
Result<LayoutSet> parse_layouts_file(std::string_view text, std::string_view display, Diagnostics* warnings = nullptr);
// spec: oni.md#oni-5-2.
std::string format_layouts_file(const std::vector<Layout>& layouts, std::string_view source_line);
std::string format_layout_line(const Layout& l);

// spec: oni.md#oni-4-5: the template table and layouts of Windows Oni.exe v1.0.
Result<std::vector<Layout>> extract_layouts_from_exe(ByteView pe, std::string_view display);

}  // namespace assay::oni

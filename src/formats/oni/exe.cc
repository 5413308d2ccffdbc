// Layouts from Windows Oni.exe v1.0 (spec: oni.md#oni-4-5, PE mapping oni.md#oni-4-6).
// Seed: the count at 0x558cf0, the start-up code at 0x51d1c0 storing each layout pointer with
// `mov dword [mem], imm32`, then the table base at 0x620138.
#include <fmt/format.h>

#include <cstring>
#include <map>

#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/names.h"
#include "records.h"

namespace assay::oni {

namespace {

constexpr std::uint32_t kCountVa = 0x558CF0;
constexpr std::uint32_t kCodeVa = 0x51D1C0;
constexpr std::uint32_t kBaseStoreVa = 0x620138;
constexpr std::uint32_t kEntrySize = records::TemplateDefinition::kSize;
constexpr std::uint32_t kScanWindow = 0x10000;
constexpr std::uint32_t kMaxSections = 96;

class Pe {
 public:
  static Result<Pe> open(ByteView b, std::string_view display) {
    Pe pe;
    pe.r_ = records::le_reader(b);
    pe.display_ = std::string(display);
    ASSAY_TRY(std::uint32_t pe_off, pe.r_.u32(records::kPeOffsetField, "PE DOS header"));
    ASSAY_TRY(const records::PeHeader h, read_record<records::PeHeader>(pe.r_, pe_off, "PE signature and COFF header"));
    if (h.signature != records::kPeSignature) return pe.err("PE signature", pe_off, "no PE\\0\\0 signature");
    if (h.machine != records::PeHeader::kMachineI386) return pe.err("COFF header", pe_off + 4ull, fmt::format("machine 0x{:x}, not i386 (0x14c)", h.machine));
    if (h.section_count > kMaxSections) return pe.err("COFF header", pe_off + 6ull, fmt::format("{} sections (at most 96)", h.section_count));
    const std::uint64_t opt = pe_off + std::uint64_t{records::PeHeader::kSize};
    ASSAY_TRY(const records::OptionalHeader32 oh, read_record<records::OptionalHeader32>(pe.r_, opt, "optional header"));
    if (oh.magic != records::OptionalHeader32::kPe32Magic) return pe.err("optional header", opt, fmt::format("magic 0x{:x}, not PE32 (0x10b)", oh.magic));
    pe.image_base_ = oh.image_base;
    ASSAY_TRY(pe.sections_, RecordTable<records::SectionHeader>::open(pe.r_, opt + h.optional_header_size, h.section_count, "section table"));
    return pe;
  }

  Error err(std::string s, std::uint64_t o, std::string m) const {
    Error e = make_error(kFormat, s, o, std::move(m));
    e.file = display_;
    return e;
  }

  // The file-backed bytes from `va` to the end of its section's raw data.
  Result<ByteView> from_va(std::uint32_t va, std::string_view what) const {
    const std::uint64_t rva = std::uint64_t(va) - image_base_;
    if (va < image_base_) return err(std::string(what), kNoOffset, fmt::format("VA 0x{:x} below the image base", va));
    for (const records::SectionHeader s : sections_) {
      const std::uint64_t span = std::max(s.virtual_size, s.raw_size);
      if (rva < s.virtual_address || rva >= std::uint64_t(s.virtual_address) + span) continue;
      const std::uint64_t d = rva - s.virtual_address;
      if (d >= s.raw_size) return err(std::string(what), kNoOffset, fmt::format("VA 0x{:x} is zero-fill, not in the file", va));
      if (!range_ok(s.raw_pointer, s.raw_size, r_.size())) return err(std::string(what), kNoOffset, "section raw data outside the file");
      return r_.data().subspan(s.raw_pointer + d, s.raw_size - d);
    }
    return err(std::string(what), kNoOffset, fmt::format("VA 0x{:x} in no section", va));
  }
  Result<ByteView> at_va(std::uint32_t va, std::uint32_t n, std::string_view what) const {
    ASSAY_TRY(ByteView b, from_va(va, what));
    if (b.size() < n) return err(std::string(what), kNoOffset, fmt::format("0x{:x} bytes at VA 0x{:x} cross the section end", n, va));
    return b.first(n);
  }
  // Record T at `va`, wholly inside one section's file-backed bytes.
  template <Record T>
  Result<T> record_at_va(std::uint32_t va, const std::string& what) const {
    ASSAY_TRY(ByteView b, at_va(va, T::kSize, what));
    return decode_record<T>(records::le_reader(b), b, 0, what);
  }

 private:
  ByteReader r_;
  std::string display_;
  std::uint32_t image_base_ = 0;
  RecordTable<records::SectionHeader> sections_;
};

}  // namespace

Result<std::vector<Layout>> extract_layouts_from_exe(ByteView bytes, std::string_view display) {
  ASSAY_TRY(Pe pe, Pe::open(bytes, display));
  ASSAY_TRY(const Word32 cw, pe.record_at_va<Word32>(kCountVa, "template count"));
  const std::uint32_t count = cw.value;
  if (count < 1 || count > 1024) return pe.err("template count", kNoOffset, fmt::format("{} templates at 0x558cf0 (expected 1-1024)", count));
  // Step 3: scan the start-up code for C7 05 addr imm32.
  ASSAY_TRY(ByteView code, pe.from_va(kCodeVa, "start-up code"));
  code = code.first(std::min<std::size_t>(code.size(), kScanWindow));
  std::vector<std::pair<std::uint32_t, std::uint32_t>> movs;
  std::optional<std::uint32_t> base;
  for (std::size_t i = 0; fits<records::MovImm32>(code, i); ++i) {
    RecordCursor c(code.subspan(i, records::MovImm32::kSize), Endian::little);
    const records::MovImm32 mov = records::MovImm32::decode(c);
    if (!mov.is_store()) continue;
    if (mov.address == kBaseStoreVa) {
      base = mov.immediate;
      break;
    }
    movs.emplace_back(mov.address, mov.immediate);
  }
  if (!base) return pe.err("start-up code", kNoOffset, "unrecognised Oni.exe build (no store of the template table base to 0x620138)");
  // Step 4: the layout pointer stores, at B + index * 0x30 + 0x10.
  std::vector<std::optional<std::uint32_t>> layout_va(count);
  const std::uint64_t B = *base, table_end = B + std::uint64_t(count) * kEntrySize;
  for (const auto& [addr, imm] : movs) {
    if (addr < B || addr >= table_end || (addr - B) % kEntrySize != 0x10) continue;
    auto& slot = layout_va[(addr - B) / kEntrySize];
    if (slot && *slot != imm)
      return pe.err("start-up code", kNoOffset, fmt::format("template {} gets two layouts (0x{:x}, 0x{:x})", (addr - B) / kEntrySize, *slot, imm));
    slot = imm;
  }
  std::vector<Layout> out;
  for (std::uint32_t k = 0; k < count; ++k) {
    const std::string s = fmt::format("template table[{}]", k);
    if (!layout_va[k]) return pe.err(s, kNoOffset, "no layout stored for this entry by the start-up code");
    ASSAY_TRY(const records::TemplateDefinition e, pe.record_at_va<records::TemplateDefinition>(static_cast<std::uint32_t>(B + k * kEntrySize), s));
    Layout l;
    l.checksum = e.checksum;
    l.tag = e.tag;
    l.flags = e.flags;
    const std::uint32_t fixed = e.fixed_size, elem = e.element_size;
    ASSAY_TRY(ByteView nb, pe.from_va(e.name_va, s + " name"));
    nb = nb.first(std::min<std::size_t>(nb.size(), 256));
    const auto* nul = static_cast<const std::uint8_t*>(std::memchr(nb.data(), 0, nb.size()));
    if (nul == nullptr) return pe.err(s + " name", kNoOffset, "name has no NUL within 256 bytes");
    l.name.assign(reinterpret_cast<const char*>(nb.data()), static_cast<std::size_t>(nul - nb.data()));
    ASSAY_TRY(ByteView lb, pe.from_va(*layout_va[k], s + " layout"));
    auto cc = compile_layout(lb, /*allow_trailing=*/true);
    if (!cc) return pe.err(s + " layout " + tag_string(l.tag), cc.error().offset, cc.error().message);
    l.code.assign(lb.begin(), lb.begin() + static_cast<std::ptrdiff_t>(cc->length));
    // Step 6: cross-check against the sizes TMrTemplate_Register checks.
    if (cc->fixed_size != fixed)
      return pe.err(s + " " + tag_string(l.tag), kNoOffset, fmt::format("layout walks 0x{:x} bytes with empty arrays, the table says 0x{:x}", cc->fixed_size, fixed));
    const std::uint64_t have_elem = cc->has_var ? cc->var_element.value_or(elem) : 0;
    if (have_elem != elem)
      return pe.err(s + " " + tag_string(l.tag), kNoOffset, fmt::format("variable-array element of 0x{:x} bytes, the table says 0x{:x}", have_elem, elem));
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace assay::oni

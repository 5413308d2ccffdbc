// DMA chain walk and VIF1 interpreter (native_vif.h). Facts: EE User's Manual, DMAC source
// chain tags and the VIF chapter; RenderWare's unfixed ADDR (qwords from the block start) as
// librw's src/ps2/ps2.cpp fixDmaOffsets reads it.
#include "native_vif.h"

#include <fmt/format.h>

#include <algorithm>

#include "codes.h"

namespace assay::rw::native {

namespace {

Error vif_error(std::string structure, std::uint64_t offset, std::string m) {
  return rw_error(std::move(structure), offset, std::move(m), "renderware.native-geometry");
}

// DMA tag ids (bits 28-30 of the first word).
enum : std::uint32_t { kRefe = 0, kCnt = 1, kNext = 2, kRef = 3, kRefs = 4, kCall = 5, kRet = 6, kEnd = 7 };

struct Chain {
  ByteView block;
  std::uint64_t file_offset;
  VifStream out;
  std::vector<std::uint64_t> stack;  // return addresses of call tags (two deep on the DMAC)

  Result<void> payload(std::uint64_t qw_at, std::uint64_t qwc, std::uint64_t tag_at) {
    if (!range_ok(qw_at * 16, qwc * 16, block.size()))
      return vif_error("DMA tag", file_offset + tag_at,
                       fmt::format("{} qwords at qword {} run past the {}-byte block", qwc, qw_at, block.size()));
    out.append(block.subspan(qw_at * 16, qwc * 16), file_offset + qw_at * 16);
    return {};
  }
};

// Caps the bytes a chain may hand the VIF (refs can repeat data; a loop must end).
constexpr std::uint64_t kMaxStreamFactor = 16;

}  // namespace

std::uint64_t VifStream::file_offset(std::uint64_t at) const {
  for (auto it = pieces.rbegin(); it != pieces.rend(); ++it)
    if (at >= it->at) return it->file_offset + (at - it->at);
  return pieces.empty() ? 0 : pieces.front().file_offset;
}

void VifStream::append(ByteView b, std::uint64_t off) {
  if (b.empty()) return;
  pieces.push_back({bytes.size(), off, b.size()});
  bytes.insert(bytes.end(), b.begin(), b.end());
}

Result<VifStream> dma_chain(ByteView block, std::uint64_t file_offset) {
  Chain c{block, file_offset, {}, {}};
  std::uint64_t at = 0;  // byte offset of the next tag
  const std::uint64_t max_tags = block.size() / 16 + 1;
  for (std::uint64_t tags = 0;; ++tags) {
    if (tags > max_tags || c.out.bytes.size() > kMaxStreamFactor * block.size() + 256)
      return vif_error("DMA chain", file_offset + at, "the chain does not end (a loop of tags)");
    if (!range_ok(at, 16, block.size()))
      return vif_error("DMA chain", file_offset + at,
                       fmt::format("a DMA tag at block offset {} runs past the {}-byte block", at, block.size()));
    const std::uint32_t w0 = load<std::uint32_t>(block.data() + at, Endian::little);
    const std::uint32_t addr = load<std::uint32_t>(block.data() + at + 4, Endian::little) & 0x7FFFFFFF;
    const std::uint64_t qwc = w0 & 0xFFFF, id = (w0 >> 28) & 7;
    c.out.append(block.subspan(at + 8, 8), file_offset + at + 8);  // VIF codes in the tag
    const std::uint64_t next = at + 16;
    switch (id) {
      case kCnt: ASSAY_CHECK(c.payload(next / 16, qwc, at)); at = next + qwc * 16; break;
      case kNext: ASSAY_CHECK(c.payload(next / 16, qwc, at)); at = std::uint64_t{addr} * 16; break;
      case kRef:
      case kRefs: ASSAY_CHECK(c.payload(addr, qwc, at)); at = next; break;
      case kRefe: ASSAY_CHECK(c.payload(addr, qwc, at)); return std::move(c.out);
      case kEnd: ASSAY_CHECK(c.payload(next / 16, qwc, at)); return std::move(c.out);
      case kCall:
        ASSAY_CHECK(c.payload(next / 16, qwc, at));
        if (c.stack.size() == 2) return vif_error("DMA tag", file_offset + at, "call nested more than two deep");
        c.stack.push_back(next + qwc * 16);
        at = std::uint64_t{addr} * 16;
        break;
      case kRet:
        ASSAY_CHECK(c.payload(next / 16, qwc, at));
        if (c.stack.empty()) return std::move(c.out);  // the end of the mesh's packet
        at = c.stack.back();
        c.stack.pop_back();
        break;
    }
  }
}

std::string unpack_name(std::uint32_t cmd) {
  static constexpr const char* kVn[] = {"S", "V2", "V3", "V4"};
  static constexpr const char* kVl[] = {"32", "16", "8", "5"};
  return fmt::format("{}-{}", kVn[(cmd >> 2) & 3], kVl[cmd & 3]);
}

struct VifMachine::Cursor {
  const VifStream& s;
  std::uint64_t pos = 0;
  [[nodiscard]] std::uint64_t left() const { return s.bytes.size() - pos; }
  [[nodiscard]] std::uint64_t file() const { return s.file_offset(pos); }
  std::uint32_t word() {
    const std::uint32_t w = load<std::uint32_t>(s.bytes.data() + pos, Endian::little);
    pos += 4;
    return w;
  }
};

VifMachine::VifMachine() : mem_(kQwords), written_(kQwords), fmt_(kQwords), from_(kQwords) {}

Result<void> VifMachine::run(const VifStream& s, const BatchFn& on_batch) {
  Cursor c{s};
  while (c.left() >= 4) ASSAY_CHECK(step(c, on_batch));
  return {};
}

// The microprogram starts: TOP takes TOPS, the double buffer flips (EE manual, VIF "double
// buffering"), ITOP takes ITOPS. The batch is read before the next UNPACKs land.
void VifMachine::call() {
  top_ = tops_;
  itop_ = itops_;
  dbf_ = !dbf_;
  tops_ = base_ + (dbf_ ? offset_ : 0);
  ++batches_;
}

Result<void> VifMachine::step(Cursor& c, const BatchFn& on_batch) {
  const std::uint64_t at = c.file();
  const std::uint32_t code = c.word();
  const std::uint32_t cmd = (code >> 24) & 0x7F, imm = code & 0xFFFF, num = (code >> 16) & 0xFF;
  auto need = [&](std::uint64_t bytes, std::string_view what) -> Result<void> {
    if (bytes > c.left())
      return vif_error("VIF code", at,
                       fmt::format("{:08X} ({}) needs {} bytes but the packet has {} left", code, what, bytes, c.left()));
    return {};
  };
  if ((cmd & 0x60) == 0x60) return unpack(c, code);
  switch (cmd) {
    case 0x00: case 0x06: case 0x10: case 0x11: case 0x13: return {};  // NOP, MSKPATH3, FLUSHE/FLUSH/FLUSHA
    case 0x01: cl_ = imm & 0xFF, wl_ = (imm >> 8) & 0xFF; return {};  // STCYCL
    case 0x02: offset_ = imm & 0x3FF, dbf_ = false, tops_ = base_; return {};  // OFFSET
    case 0x03: base_ = imm & 0x3FF; return {};                                  // BASE
    case 0x04: itops_ = imm & 0x3FF; return {};                                 // ITOP
    case 0x05: mode_ = imm & 3; return {};                                      // STMOD
    case 0x07: mark_ = imm; return {};                                          // MARK
    case 0x14: case 0x15: case 0x17: {                                          // MSCAL, MSCALF, MSCNT
      call();
      if (on_batch) ASSAY_CHECK(on_batch(*this, at));
      std::fill(written_.begin(), written_.end(), false);
      return {};
    }
    case 0x20: ASSAY_CHECK(need(4, "STMASK")); mask_ = c.word(); return {};
    case 0x30: ASSAY_CHECK(need(16, "STROW")); for (auto& r : row_) r = c.word(); return {};
    case 0x31: ASSAY_CHECK(need(16, "STCOL")); for (auto& r : col_) r = c.word(); return {};
    case 0x4A: {  // MPG: NUM 64-bit instructions (0 = 256)
      const std::uint64_t n = (num == 0 ? 256 : num) * 8ull;
      ASSAY_CHECK(need(n, "MPG"));
      c.pos += n;
      return {};
    }
    case 0x50: case 0x51: {  // DIRECT, DIRECTHL: IMM qwords for the GIF (0 = 65536)
      const std::uint64_t n = (imm == 0 ? 65536 : imm) * 16ull;
      ASSAY_CHECK(need(n, "DIRECT"));
      c.pos += n;
      return {};
    }
    default: return vif_error("VIF code", at, fmt::format("unknown VIFcode {:08X} (command 0x{:02X})", code, cmd));
  }
}

namespace {

// One element of an UNPACK's input, widened to 32 bits (sign- or zero-extended).
std::uint32_t widen(std::uint32_t raw, unsigned bits, bool usn) {
  if (bits == 32) return raw;
  const std::uint32_t m = (1u << bits) - 1, v = raw & m;
  if (usn || !(v >> (bits - 1))) return v;
  return v | ~m;
}

}  // namespace

// UNPACK (EE manual, VIF "UNPACK"): cmd 011m vnvl, IMM = ADDR (10 bits), USN (bit 14),
// FLG (bit 15: ADDR += TOPS); NUM vectors written (0 = 256).
Result<void> VifMachine::unpack(Cursor& c, std::uint32_t code) {
  const std::uint64_t at = c.file();
  const std::uint32_t cmd = (code >> 24) & 0x7F, vn = (cmd >> 2) & 3, vl = cmd & 3;
  const bool masked = (cmd & 0x10) != 0, usn = (code & 0x4000) != 0;
  const std::uint32_t num = ((code >> 16) & 0xFF) == 0 ? 256 : (code >> 16) & 0xFF;
  std::uint32_t addr = code & 0x3FF;
  if (code & 0x8000) addr += tops_;
  if (vl == 3 && vn != 3) return vif_error("VIF UNPACK", at - 4, fmt::format("{:08X}: {} is not a format", code, unpack_name(cmd)));
  if (wl_ == 0) return vif_error("VIF UNPACK", at - 4, fmt::format("{:08X} after STCYCL with WL 0", code));
  const std::uint32_t elems = vn + 1, bits = vl == 3 ? 16 : 32u >> vl;  // V4-5: one 16-bit value
  const std::uint32_t per_vector = vl == 3 ? 1 : elems;
  const std::uint64_t inputs = wl_ <= cl_ ? num : std::uint64_t{cl_} * (num / wl_) + std::min(num % wl_, cl_);
  const std::uint64_t bytes = (inputs * per_vector * bits + 31) / 32 * 4;  // padded to a word
  if (bytes > c.left())
    return vif_error("VIF UNPACK", at - 4,
                     fmt::format("{:08X} ({} x{}) needs {} bytes but the packet has {} left", code, unpack_name(cmd),
                                 num, bytes, c.left()));
  current_fmt_ = (cmd & 0x1F) | (usn ? 0x20u : 0u) | (cl_ << 8);
  current_from_ = at - 4;
  const std::uint8_t* data = c.s.bytes.data() + c.pos;
  std::uint64_t bit = 0;
  auto next = [&](unsigned n) {
    std::uint32_t v = 0;
    for (unsigned k = 0; k < n; k += 8, bit += 8) v |= std::uint32_t{data[bit / 8]} << k;
    return v;
  };
  const std::uint32_t stride = std::max(cl_, wl_);
  for (std::uint32_t n = 0; n < num; ++n) {
    const std::uint32_t pos = n % wl_;
    const std::uint32_t dst = addr + (n / wl_) * stride + pos;
    std::array<std::uint32_t, 4> v{};
    int produced = 0;
    if (wl_ <= cl_ || pos < cl_) {
      if (vl == 3) {  // RGBA 5551 to four 8-bit-scaled words
        const std::uint32_t h = next(16);
        v = {(h & 0x1F) << 3, ((h >> 5) & 0x1F) << 3, ((h >> 10) & 0x1F) << 3, ((h >> 15) & 1) << 7};
        produced = 4;
      } else {
        for (std::uint32_t k = 0; k < elems; ++k) v[k] = widen(next(bits), bits, usn);
        produced = static_cast<int>(elems);
        if (vn == 0) v = {v[0], v[0], v[0], v[0]}, produced = 4;  // S: x to every field
      }
    }
    write(dst, pos, v, produced, masked);
  }
  c.pos += bytes;
  return {};
}

// Writes one vector through the mask (2 bits per field: 0 data, 1 row, 2 column, 3 protect)
// and the mode (1 offset: + row; 2 difference: + row, row = result). Fields the format does
// not produce (V2's z, w; V3's w) stay as they were.
void VifMachine::write(std::uint32_t addr, std::uint32_t pos, const std::array<std::uint32_t, 4>& v, int produced,
                       bool masked) {
  Qword& q = mem_[addr % kQwords];
  const std::uint32_t cycle = std::min<std::uint32_t>(pos, 3);
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t m = masked ? (mask_ >> ((cycle * 4 + static_cast<std::uint32_t>(k)) * 2)) & 3 : 0;
    if (m == 3) continue;
    if (m == 1) { q[k] = row_[k]; continue; }
    if (m == 2) { q[k] = col_[cycle]; continue; }
    if (k >= produced) {  // a filling write's data (or a missing field) is the row in offset modes
      if (produced == 0) q[k] = row_[k];
      continue;
    }
    std::uint32_t x = v[k];
    if (mode_ == 1) x += row_[k];
    if (mode_ == 2) x += row_[k], row_[k] = x;
    q[k] = x;
  }
  written_[addr % kQwords] = true;
  fmt_[addr % kQwords] = current_fmt_;
  from_[addr % kQwords] = current_from_;
}

}  // namespace assay::rw::native

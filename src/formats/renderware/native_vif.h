// Internal: the PS2's DMA chain and VIF1 interpreter over a model of VU1 data memory, enough
// to read back what a RenderWare PS2 pipeline uploads (Native Data 0x510, one block per mesh).
// Facts from the EE User's Manual (VIF chapter: VIFcode set, UNPACK formats, write cycle,
// mask/mode, double buffering) as librw's src/ps2/ps2.cpp lays its packets out.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/error.h"

namespace assay::rw::native {

// The bytes the DMA controller hands the VIF, in transfer order, with the file offset each
// stretch came from (for errors).
struct VifStream {
  struct Piece {
    std::uint64_t at = 0, file_offset = 0, size = 0;  // at: position in `bytes`
  };
  ByteBuffer bytes;
  std::vector<Piece> pieces;
  [[nodiscard]] std::uint64_t file_offset(std::uint64_t at) const;
  void append(ByteView b, std::uint64_t file_offset);
};

// Walks the DMA tags of one mesh block (source chain: cnt, next, ref, refs, refe, call, ret,
// end; ADDR in qwords from the block start, as RenderWare stores it unfixed). Each tag's upper
// 64 bits go to the VIF before its payload. Every address and size is checked against the block.
Result<VifStream> dma_chain(ByteView block, std::uint64_t file_offset);

class VifMachine {
 public:
  static constexpr std::uint32_t kQwords = 1024;  // VU1 data memory: 16 KB
  using Qword = std::array<std::uint32_t, 4>;
  using BatchFn = std::function<Result<void>(const VifMachine&, std::uint64_t file_offset)>;

  VifMachine();
  // Interprets every VIFcode of `s`; calls `on_batch` at each MSCAL/MSCALF/MSCNT.
  Result<void> run(const VifStream& s, const BatchFn& on_batch);

  [[nodiscard]] const Qword& qword(std::uint32_t addr) const { return mem_[addr % kQwords]; }
  // Written by an UNPACK since the last microprogram call; its format (cmd & 0x1F with
  // bit 5 = unsigned, the cycle's CL in bits 8-15) and the file offset of the UNPACK code.
  [[nodiscard]] bool written(std::uint32_t addr) const { return written_[addr % kQwords]; }
  [[nodiscard]] std::uint32_t format(std::uint32_t addr) const { return fmt_[addr % kQwords]; }
  [[nodiscard]] std::uint64_t unpacked_at(std::uint32_t addr) const { return from_[addr % kQwords]; }
  [[nodiscard]] std::uint32_t top() const { return top_; }
  [[nodiscard]] std::uint32_t itop() const { return itop_; }
  [[nodiscard]] std::uint32_t mark() const { return mark_; }
  [[nodiscard]] std::uint32_t batches() const { return batches_; }

 private:
  struct Cursor;
  Result<void> step(Cursor& c, const BatchFn& on_batch);
  Result<void> unpack(Cursor& c, std::uint32_t code);
  void write(std::uint32_t addr, std::uint32_t pos, const std::array<std::uint32_t, 4>& v, int produced, bool masked);
  void call();

  std::vector<Qword> mem_;
  std::vector<bool> written_;
  std::vector<std::uint32_t> fmt_;
  std::vector<std::uint64_t> from_;
  std::uint32_t cl_ = 1, wl_ = 1, mode_ = 0, mask_ = 0, mark_ = 0;
  Qword row_{}, col_{};
  std::uint32_t base_ = 0, offset_ = 0, tops_ = 0, top_ = 0, itops_ = 0, itop_ = 0, batches_ = 0;
  bool dbf_ = false;
  std::uint32_t current_fmt_ = 0;
  std::uint64_t current_from_ = 0;
};

// "V3-32", "V4-5", "S-8"... for an UNPACK's cmd bits (vn, vl) and messages.
std::string unpack_name(std::uint32_t cmd);

}  // namespace assay::rw::native

#include "assay/core/bytes.h"

#include <fmt/format.h>

namespace assay {

std::string_view to_string(Endian e) { return e == Endian::little ? "little" : "big"; }

Error ByteReader::error(std::string_view structure, std::uint64_t offset,
                        std::string message) const {
  return make_error(format_, structure, base_ + offset, std::move(message));
}

Error ByteReader::out_of_bounds(std::string_view structure, std::uint64_t offset,
                                std::uint64_t size) const {
  return error(structure, offset,
               fmt::format("needs 0x{:x} bytes but only 0x{:x} remain (data ends at 0x{:x})", size,
                           offset <= data_.size() ? data_.size() - offset : 0,
                           base_ + data_.size()));
}

Result<ByteView> ByteReader::bytes(std::uint64_t offset, std::uint64_t size,
                                   std::string_view structure) const {
  if (!has(offset, size)) return out_of_bounds(structure, offset, size);
  return data_.subspan(offset, size);
}

Result<ByteReader> ByteReader::sub(std::uint64_t offset, std::uint64_t size,
                                   std::string_view structure) const {
  ASSAY_TRY(ByteView v, bytes(offset, size, structure));
  return ByteReader(v, endian_, format_, base_ + offset);
}

Result<float> ByteReader::f32(std::uint64_t o, std::string_view s) const {
  ASSAY_TRY(std::uint32_t bits, u32(o, s));
  return std::bit_cast<float>(bits);
}

Result<std::string_view> ByteReader::cstring(std::uint64_t offset, std::uint64_t max_len,
                                             std::string_view structure) const {
  if (offset > data_.size()) return out_of_bounds(structure, offset, 1);
  const std::uint64_t avail = data_.size() - offset;
  const std::uint64_t scan = max_len < avail ? max_len + 1 : avail;
  const auto* p = data_.data() + offset;
  const void* nul = std::memchr(p, 0, scan);
  if (nul == nullptr)
    return error(structure, offset,
                 fmt::format("string has no NUL terminator within 0x{:x} bytes", scan));
  return std::string_view(reinterpret_cast<const char*>(p),
                          static_cast<const std::uint8_t*>(nul) - p);
}

Result<ByteView> Cursor::bytes(std::uint64_t n, std::string_view s) {
  auto v = r_->bytes(pos_, n, s);
  if (v) pos_ += n;
  return v;
}

Result<void> Cursor::skip(std::uint64_t n, std::string_view s) {
  if (!r_->has(pos_, n)) return r_->out_of_bounds(s, pos_, n);
  pos_ += n;
  return {};
}

void ByteWriter::f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }

void ByteWriter::align(std::size_t a, std::uint8_t fill) {
  if (a == 0) return;
  const std::size_t pad = (a - buf_.size() % a) % a;
  buf_.insert(buf_.end(), pad, fill);
}

std::string hex(std::uint64_t v) { return fmt::format("0x{:x}", v); }
std::string hex8(std::uint32_t v) { return fmt::format("{:08x}", v); }

}  // namespace assay

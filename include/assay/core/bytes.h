// Byte views and bounded endian readers over untrusted buffers.
// Every offset + size check in the project goes through range_ok() (LLVM Object style):
// first that the sum cannot wrap, then that it fits the buffer.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "assay/core/error.h"

namespace assay {

using ByteView = std::span<const std::uint8_t>;
using ByteBuffer = std::vector<std::uint8_t>;

enum class Endian : std::uint8_t { little, big };
std::string_view to_string(Endian e);

// The one overflow-safe bounds check: [offset, offset + size) lies inside [0, limit).
[[nodiscard]] constexpr bool range_ok(std::uint64_t offset, std::uint64_t size,
                                      std::uint64_t limit) noexcept {
  return offset <= limit && size <= limit - offset;
}

// count * elem_size without overflow; false if it would wrap.
[[nodiscard]] constexpr bool mul_ok(std::uint64_t count, std::uint64_t elem_size,
                                    std::uint64_t& out) noexcept {
  if (elem_size != 0 && count > ~std::uint64_t{0} / elem_size) return false;
  out = count * elem_size;
  return true;
}

template <class T>
[[nodiscard]] constexpr T byteswap_value(T v) noexcept {
  static_assert(std::is_integral_v<T>);
  using U = std::make_unsigned_t<T>;
  if (!std::is_constant_evaluated()) {
    if constexpr (sizeof(T) == 2) return static_cast<T>(__builtin_bswap16(static_cast<U>(v)));
    if constexpr (sizeof(T) == 4) return static_cast<T>(__builtin_bswap32(static_cast<U>(v)));
    if constexpr (sizeof(T) == 8) return static_cast<T>(__builtin_bswap64(static_cast<U>(v)));
  }
  U u = static_cast<U>(v), r = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    r = static_cast<U>((r << 8) | (u & 0xFF));
    u = static_cast<U>(u >> 8);
  }
  return static_cast<T>(r);
}

// Unchecked loads; callers must have checked the range.
template <class T>
[[nodiscard]] inline T load(const std::uint8_t* p, Endian e) noexcept {
  T v;
  std::memcpy(&v, p, sizeof(T));
  if constexpr (sizeof(T) > 1) {
    const bool native_le = std::endian::native == std::endian::little;
    if ((e == Endian::little) != native_le) v = byteswap_value(v);
  }
  return v;
}

template <class T>
inline void store(std::uint8_t* p, T v, Endian e) noexcept {
  if constexpr (sizeof(T) > 1) {
    const bool native_le = std::endian::native == std::endian::little;
    if ((e == Endian::little) != native_le) v = byteswap_value(v);
  }
  std::memcpy(p, &v, sizeof(T));
}

// The first zero byte of [p, p + n), or nullptr; reads nothing outside the range. Eight bytes a
// step: formats store C strings by the thousand (Oni names: a memchr call per name cost more
// than the scan in `oni check`). The zero-byte mask is exact per byte (no borrow between bytes).
[[nodiscard]] [[gnu::always_inline]] inline const char* find_nul(const char* p, std::size_t n) noexcept {
  constexpr std::uint64_t k7f = 0x7F7F7F7F7F7F7F7Full;
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    const std::uint64_t zeros = ~(((w & k7f) + k7f) | w | k7f);  // 0x80 in each zero byte
    if (zeros != 0) {
      const int bit = std::endian::native == std::endian::little ? std::countr_zero(zeros) : std::countl_zero(zeros);
      return p + i + bit / 8;
    }
  }
  for (; i < n; ++i)
    if (p[i] == 0) return p + i;
  return nullptr;
}

// Byte-wise three-way comparison of a and b (as std::string_view::compare: <0, 0, >0), inline and
// eight bytes a step: sorted name tables (Oni's name directory, checked entry by entry) compare
// short strings with long shared prefixes, where a memcmp call per pair cost more than the bytes.
[[nodiscard]] [[gnu::always_inline]] inline int compare_bytes(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x, y;
    std::memcpy(&x, a.data() + i, 8);
    std::memcpy(&y, b.data() + i, 8);
    if (x != y) {
      if constexpr (std::endian::native == std::endian::little) {
        x = byteswap_value(x);
        y = byteswap_value(y);
      }
      return x < y ? -1 : 1;
    }
  }
  for (; i < n; ++i)
    if (a[i] != b[i]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]) ? -1 : 1;
  return a.size() == b.size() ? 0 : a.size() < b.size() ? -1 : 1;
}

// A bounded view with a byte order and a format name for errors.
// All reads are checked; a failed read returns an Error naming the structure and offset.
// Offsets are relative to the view; `base` is added in error messages so that a reader over a
// sub-view (a chunk inside a WAD, a file inside an archive) reports absolute positions.
class ByteReader {
 public:
  ByteReader() = default;
  ByteReader(ByteView data, Endian endian, std::string_view format, std::uint64_t base = 0)
      : data_(data), endian_(endian), format_(format), base_(base) {}

  [[nodiscard]] ByteView data() const noexcept { return data_; }
  [[nodiscard]] std::uint64_t size() const noexcept { return data_.size(); }
  [[nodiscard]] Endian endian() const noexcept { return endian_; }
  [[nodiscard]] std::string_view format() const noexcept { return format_; }
  [[nodiscard]] std::uint64_t base() const noexcept { return base_; }
  void set_endian(Endian e) noexcept { endian_ = e; }

  [[nodiscard]] bool has(std::uint64_t offset, std::uint64_t size) const noexcept {
    return range_ok(offset, size, data_.size());
  }

  // An error at `offset` (relative to this view) in `structure`.
  [[nodiscard]] Error error(std::string_view structure, std::uint64_t offset,
                            std::string message) const;
  // The standard "needs N bytes at X, view has Y" error.
  [[nodiscard]] Error out_of_bounds(std::string_view structure, std::uint64_t offset,
                                    std::uint64_t size) const;

  [[nodiscard]] Result<ByteView> bytes(std::uint64_t offset, std::uint64_t size,
                                       std::string_view structure) const;
  // A sub-reader over [offset, offset+size) with the same byte order; errors keep absolute offsets.
  [[nodiscard]] Result<ByteReader> sub(std::uint64_t offset, std::uint64_t size,
                                       std::string_view structure) const;

  template <class T>
  [[nodiscard]] Result<T> read(std::uint64_t offset, std::string_view structure) const {
    if (!has(offset, sizeof(T))) return out_of_bounds(structure, offset, sizeof(T));
    return load<T>(data_.data() + offset, endian_);
  }
  [[nodiscard]] Result<std::uint8_t> u8(std::uint64_t o, std::string_view s) const { return read<std::uint8_t>(o, s); }
  [[nodiscard]] Result<std::uint16_t> u16(std::uint64_t o, std::string_view s) const { return read<std::uint16_t>(o, s); }
  [[nodiscard]] Result<std::uint32_t> u32(std::uint64_t o, std::string_view s) const { return read<std::uint32_t>(o, s); }
  [[nodiscard]] Result<std::uint64_t> u64(std::uint64_t o, std::string_view s) const { return read<std::uint64_t>(o, s); }
  [[nodiscard]] Result<std::int32_t> i32(std::uint64_t o, std::string_view s) const { return read<std::int32_t>(o, s); }
  [[nodiscard]] Result<float> f32(std::uint64_t o, std::string_view s) const;

  // A NUL-terminated string starting at offset, at most max_len bytes before the NUL.
  [[nodiscard]] Result<std::string_view> cstring(std::uint64_t offset, std::uint64_t max_len,
                                                 std::string_view structure) const;

  // Unchecked fast path for loops after one range check covered the whole table.
  template <class T>
  [[nodiscard]] T at_unchecked(std::uint64_t offset) const noexcept {
    return load<T>(data_.data() + offset, endian_);
  }

 private:
  ByteView data_{};
  Endian endian_ = Endian::little;
  std::string_view format_{};
  std::uint64_t base_ = 0;
};

// A forward cursor over a ByteReader: each read advances; errors name the position.
class Cursor {
 public:
  explicit Cursor(const ByteReader& r, std::uint64_t pos = 0) : r_(&r), pos_(pos) {}
  [[nodiscard]] std::uint64_t pos() const noexcept { return pos_; }
  [[nodiscard]] std::uint64_t remaining() const noexcept {
    return pos_ <= r_->size() ? r_->size() - pos_ : 0;
  }
  void seek(std::uint64_t p) noexcept { pos_ = p; }

  template <class T>
  [[nodiscard]] Result<T> read(std::string_view structure) {
    auto v = r_->read<T>(pos_, structure);
    if (v) pos_ += sizeof(T);
    return v;
  }
  [[nodiscard]] Result<std::uint8_t> u8(std::string_view s) { return read<std::uint8_t>(s); }
  [[nodiscard]] Result<std::uint16_t> u16(std::string_view s) { return read<std::uint16_t>(s); }
  [[nodiscard]] Result<std::uint32_t> u32(std::string_view s) { return read<std::uint32_t>(s); }
  [[nodiscard]] Result<std::uint64_t> u64(std::string_view s) { return read<std::uint64_t>(s); }
  [[nodiscard]] Result<ByteView> bytes(std::uint64_t n, std::string_view s);
  [[nodiscard]] Result<void> skip(std::uint64_t n, std::string_view s);

 private:
  const ByteReader* r_;
  std::uint64_t pos_;
};

// Appending writer used by every format's writer (tests, pack).
class ByteWriter {
 public:
  explicit ByteWriter(Endian e = Endian::little) : endian_(e) {}
  [[nodiscard]] Endian endian() const noexcept { return endian_; }
  [[nodiscard]] std::size_t size() const noexcept { return buf_.size(); }
  [[nodiscard]] const ByteBuffer& buffer() const noexcept { return buf_; }
  ByteBuffer take() { return std::move(buf_); }

  template <class T>
  void put(T v) {
    std::uint8_t tmp[sizeof(T)];
    store<T>(tmp, v, endian_);
    buf_.insert(buf_.end(), tmp, tmp + sizeof(T));
  }
  void u8(std::uint8_t v) { buf_.push_back(v); }
  void u16(std::uint16_t v) { put(v); }
  void u32(std::uint32_t v) { put(v); }
  void u64(std::uint64_t v) { put(v); }
  void f32(float v);
  void bytes(ByteView b) { buf_.insert(buf_.end(), b.begin(), b.end()); }
  void str(std::string_view s) { buf_.insert(buf_.end(), s.begin(), s.end()); }
  void cstr(std::string_view s) { str(s); u8(0); }
  void zeros(std::size_t n) { buf_.insert(buf_.end(), n, 0); }
  void align(std::size_t a, std::uint8_t fill = 0);
  // Overwrite at an absolute position (for back-patching sizes and offsets).
  template <class T>
  void patch(std::size_t at, T v) {
    store<T>(buf_.data() + at, v, endian_);
  }

 private:
  Endian endian_;
  ByteBuffer buf_;
};

std::string hex(std::uint64_t v);         // "0x1a2b"
std::string hex8(std::uint32_t v);        // "001a2b3c" (8 lowercase digits)

}  // namespace assay

// Checked record and table views over untrusted bytes, built on ByteReader.
//
// An on-disk record type declares its size and how it is decoded:
//
//   struct SectionEntry {
//     static constexpr std::size_t kSize = 0x10;
//     static constexpr std::string_view kName = "section-table";
//     std::uint32_t name_offset = 0, offset = 0, length = 0, alignment = 0;
//     static constexpr SectionEntry decode(RecordCursor& c) {
//       return {c.u32(), c.u32(), c.u32(), c.u32()};
//     }
//   };
//
// - decode reads its fields from a RecordCursor bounded to exactly kSize bytes; reading past the
//   end never touches memory outside the record (it yields 0 and marks the cursor overrun);
// - the size a decode consumes is checked at compile time (decode runs in a constant expression
//   over kSize zero bytes: static_assert in read_record / RecordTable) and again at run time
//   (cursor position == kSize, no overrun) so a decode whose path depends on the data is checked too;
// - RecordTable<T> checks count * kSize (overflow-safe, mul_ok + range_ok) against the buffer
//   before anything is read, then yields records by index; errors name the structure and offset.
//
// A record that writers also write lists its fields once instead of a decode, in stored order
// (OpenMW's ESM `decompose`): the one list decodes and encodes it.
//
//   struct Descriptor {
//     static constexpr std::size_t kSize = 0x10;
//     std::uint32_t tag = 0, offset = 0, size = 0;
//     static constexpr void fields(auto& r, auto&& f) { f(r.tag, Pad<4>{}, r.offset, r.size); }
//   };
//
// Fields are integers, floats, Pad<N> (N bytes read past and written as zeros) and FixedBytes<N>
// (fixed_bytes<N>(view): N raw bytes viewed on decode, written zero-padded). encode_record,
// store_record and append_record write a record; a list that does not fill kSize fails to compile.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "assay/core/bytes.h"
#include "assay/core/error.h"

namespace assay {

// A forward cursor over the bytes of one record. Every read is bounded by the record's bytes.
class RecordCursor {
 public:
  constexpr RecordCursor(ByteView bytes, Endian endian) noexcept : bytes_(bytes), endian_(endian) {}

  [[nodiscard]] constexpr std::size_t pos() const noexcept { return pos_; }
  [[nodiscard]] constexpr Endian endian() const noexcept { return endian_; }
  [[nodiscard]] constexpr bool overrun() const noexcept { return overrun_; }

  // Always inlined, with take(): a record decode in a hot loop must fold to plain loads (GCC 12
  // left the cursor out of line in large callers such as the Oni loader: 2x per descriptor).
  template <class T>
  [[nodiscard]] [[gnu::always_inline]] constexpr T get() noexcept {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8);
    using U = std::make_unsigned_t<T>;
    U v = 0;
    if (!take(sizeof(T))) return T{};
    const std::uint8_t* p = bytes_.data() + pos_ - sizeof(T);
    // At run time one load (GCC -O2 leaves the byte loop below a loop: 2x per field, measured
    // by the RenderWare and Oni record moves); the loop serves constant evaluation.
    if (!std::is_constant_evaluated()) return static_cast<T>(load<U>(p, endian_));
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      const std::size_t k = endian_ == Endian::little ? sizeof(T) - 1 - i : i;
      v = static_cast<U>((sizeof(T) > 1 ? static_cast<U>(v << 8) : U{0}) | p[k]);
    }
    return static_cast<T>(v);
  }
  [[nodiscard]] [[gnu::always_inline]] constexpr std::uint8_t u8() noexcept { return get<std::uint8_t>(); }
  [[nodiscard]] [[gnu::always_inline]] constexpr std::uint16_t u16() noexcept { return get<std::uint16_t>(); }
  [[nodiscard]] [[gnu::always_inline]] constexpr std::uint32_t u32() noexcept { return get<std::uint32_t>(); }
  [[nodiscard]] [[gnu::always_inline]] constexpr std::uint64_t u64() noexcept { return get<std::uint64_t>(); }
  [[nodiscard]] constexpr std::int32_t i32() noexcept { return get<std::int32_t>(); }
  [[nodiscard]] constexpr float f32() noexcept { return std::bit_cast<float>(u32()); }
  // A field whose width is decided by the record's layout (pointer size, index width): 2, 4 or 8.
  [[nodiscard]] constexpr std::uint64_t word(unsigned width) noexcept {
    return width == 8 ? u64() : width == 4 ? std::uint64_t{u32()} : width == 2 ? u16() : u8();
  }
  // n raw bytes (empty view on overrun).
  [[nodiscard]] constexpr ByteView bytes(std::size_t n) noexcept {
    if (!take(n)) return {};
    return bytes_.subspan(pos_ - n, n);
  }
  constexpr void skip(std::size_t n) noexcept { (void)take(n); }

 private:
  // Advances by n; false (and overrun) when fewer than n bytes remain. The position still
  // advances so the consumed size a decode asks for is what the size check sees.
  [[gnu::always_inline]] constexpr bool take(std::size_t n) noexcept {
    const bool ok = !overrun_ && range_ok(pos_, n, bytes_.size());
    pos_ += n;
    if (!ok) overrun_ = true;
    return ok;
  }
  ByteView bytes_;
  Endian endian_;
  std::size_t pos_ = 0;
  bool overrun_ = false;
};

// N bytes of a record that carry nothing: skipped on decode, zeros on encode.
template <std::size_t N>
struct Pad {
  static constexpr std::size_t kBytes = N;
};

// N raw bytes of a record (a NUL-padded name): decode views them; encode writes the view's bytes,
// at most N, then zeros to N.
template <std::size_t N>
struct FixedBytes {
  static constexpr std::size_t kBytes = N;
  ByteView& view;
};
template <std::size_t N>
[[nodiscard]] constexpr FixedBytes<N> fixed_bytes(ByteView& v) noexcept { return {v}; }
template <std::size_t N>
[[nodiscard]] constexpr FixedBytes<N> fixed_bytes(const ByteView& v) noexcept { return {const_cast<ByteView&>(v)}; }  // encode only reads it

namespace detail {
template <class X>
inline constexpr bool kIsPad = false;
template <std::size_t N>
inline constexpr bool kIsPad<Pad<N>> = true;
template <class X>
inline constexpr bool kIsFixed = false;
template <std::size_t N>
inline constexpr bool kIsFixed<FixedBytes<N>> = true;

template <class X>
[[gnu::always_inline]] constexpr void read_field(RecordCursor& c, X&& x) noexcept {
  using V = std::remove_cvref_t<X>;
  if constexpr (kIsPad<V>) {
    c.skip(V::kBytes);
  } else if constexpr (kIsFixed<V>) {
    x.view = c.bytes(V::kBytes);
  } else if constexpr (std::is_same_v<V, float>) {
    x = c.f32();
  } else {
    static_assert(std::is_integral_v<V>, "a record field is an integer, a float, Pad<N> or FixedBytes<N>");
    x = c.get<V>();
  }
}
}  // namespace detail

// The record lists its fields (see the top of this file).
template <class T>
concept FieldRecord = requires(T& r) {
  { T::kSize } -> std::convertible_to<std::size_t>;
  T::fields(r, [](auto&&...) {});
};

// T from the cursor through its field list.
template <FieldRecord T>
[[nodiscard]] [[gnu::always_inline]] constexpr T decode_fields(RecordCursor& c) noexcept {
  T r{};
  T::fields(r, [&c](auto&&... x) [[gnu::always_inline]] { (detail::read_field(c, x), ...); });
  return r;
}

template <class T>
concept Record = FieldRecord<T> || requires(RecordCursor& c) {
  { T::kSize } -> std::convertible_to<std::size_t>;
  { T::decode(c) } -> std::same_as<T>;
};

// T decoded from the cursor: its field list, else its own decode.
template <Record T>
[[nodiscard]] [[gnu::always_inline]] constexpr T decode_from(RecordCursor& c) noexcept {
  if constexpr (FieldRecord<T>) return decode_fields<T>(c);
  else return T::decode(c);
}

// The number of bytes T's decode asks for over kSize zero bytes (compile-time use).
template <Record T>
[[nodiscard]] consteval std::size_t decoded_size(Endian e = Endian::little) {
  std::uint8_t zeros[T::kSize == 0 ? 1 : T::kSize] = {};
  RecordCursor c(ByteView(zeros, T::kSize), e);
  (void)decode_from<T>(c);
  return c.overrun() ? ~std::size_t{0} : c.pos();
}

// Compile-time proof that a record's decode consumes exactly kSize bytes in both byte orders.
template <Record T>
inline constexpr bool kRecordSizeMatches =
    decoded_size<T>(Endian::little) == T::kSize && decoded_size<T>(Endian::big) == T::kSize;

namespace detail {
Error record_decode_mismatch(const ByteReader& r, std::string_view structure, std::uint64_t offset,
                             std::size_t size, std::size_t consumed);
Error table_too_large(const ByteReader& r, std::string_view structure, std::uint64_t offset,
                      std::uint64_t count, std::size_t size);
Error table_index(const ByteReader& r, std::string_view structure, std::uint64_t offset,
                  std::uint64_t index, std::uint64_t count);
// decode_in outside its bytes: prints the record size, offset and view size, then aborts.
[[noreturn]] void record_outside(std::uint64_t size, std::uint64_t at, std::uint64_t bytes) noexcept;
// RecordTable::operator[] outside [0, size()): prints the table and index, then aborts.
[[noreturn]] void table_index_violation(std::string_view structure, std::uint64_t index,
                                        std::uint64_t count) noexcept;
}  // namespace detail

// Decodes T from `bytes` (exactly T::kSize of them); an Error if the decode's consumption does not
// match kSize (a programming error, reported rather than trusted).
template <Record T>
[[nodiscard]] Result<T> decode_record(const ByteReader& r, ByteView bytes, std::uint64_t offset,
                                      std::string_view structure) {
  static_assert(kRecordSizeMatches<T>, "Record::decode must consume exactly kSize bytes");
  RecordCursor c(bytes, r.endian());
  T v = decode_from<T>(c);
  if (c.overrun() || c.pos() != T::kSize)
    return detail::record_decode_mismatch(r, structure, offset, T::kSize, c.pos());
  return v;
}

// One record at `offset` of r: the bounds check and the decode.
template <Record T>
[[nodiscard]] Result<T> read_record(const ByteReader& r, std::uint64_t offset,
                                    std::string_view structure) {
  ASSAY_TRY(ByteView b, r.bytes(offset, T::kSize, structure));
  return decode_record<T>(r, b, offset, structure);
}

// T at `at` of `b`, for an offset whose room a rule of the caller has checked (a walk step, a run
// of a proven size). Outside `b` it stops the program in every build type (a programming error, as
// for RecordTable::operator[]), never a read past the view; offsets taken from the data go through
// read_record (an Error). Always inlined with a constant-size cursor: plain loads in hot loops.
template <Record T>
[[nodiscard]] [[gnu::always_inline]] inline T decode_in(ByteView b, std::uint64_t at, Endian e = Endian::little) noexcept {
  static_assert(kRecordSizeMatches<T>, "Record::decode must consume exactly kSize bytes");
  if (!range_ok(at, T::kSize, b.size())) [[unlikely]] detail::record_outside(T::kSize, at, b.size());
  RecordCursor c(ByteView(b.data() + at, T::kSize), e);
  return decode_from<T>(c);
}

// Whether `bytes` starts with a whole T (for identify(): a prefix read without an Error).
template <Record T>
[[nodiscard]] constexpr bool fits(ByteView bytes, std::uint64_t offset = 0) noexcept {
  return range_ok(offset, T::kSize, bytes.size());
}

// `count` records of T laid out back to back from `offset`, checked whole before any read.
template <Record T>
class RecordTable {
 public:
  RecordTable() = default;

  [[nodiscard]] static Result<RecordTable> open(const ByteReader& r, std::uint64_t offset,
                                                std::uint64_t count, std::string_view structure) {
    static_assert(kRecordSizeMatches<T>, "Record::decode must consume exactly kSize bytes");
    std::uint64_t total = 0;
    if (!mul_ok(count, T::kSize, total) || !r.has(offset, total))
      return detail::table_too_large(r, structure, offset, count, T::kSize);
    RecordTable t;
    t.r_ = r;
    t.offset_ = offset;
    t.count_ = count;
    t.structure_ = structure;
    return t;
  }

  [[nodiscard]] std::uint64_t size() const noexcept { return count_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] std::uint64_t offset() const noexcept { return offset_; }
  [[nodiscard]] std::uint64_t byte_size() const noexcept { return count_ * T::kSize; }
  // Offset of record i relative to the reader (for errors about record i).
  [[nodiscard]] std::uint64_t offset_of(std::uint64_t i) const noexcept { return offset_ + i * T::kSize; }
  [[nodiscard]] const ByteReader& reader() const noexcept { return r_; }

  // Record i; an Error naming the table if i is not below size().
  [[nodiscard]] Result<T> at(std::uint64_t i) const {
    if (i >= count_) return detail::table_index(r_, structure_, offset_, i, count_);
    return decode_record<T>(r_, raw(i), offset_of(i), structure_);
  }

  // Record i for an index the caller took from [0, size()) (a loop bounded by size(), the
  // iterator). An index outside is a programming error: it stops the program in every build type
  // (never a made-up all-zero record). An index that comes from the data goes through at().
  // Inlined: readers call it per record in their hot loops (measured: an out-of-line call was
  // 20% of `oni check`); with the cursor's bounds constant the decode folds to plain loads.
  [[nodiscard]] [[gnu::always_inline]] T operator[](std::uint64_t i) const noexcept {
    if (i >= count_) [[unlikely]] detail::table_index_violation(structure_, i, count_);
    RecordCursor c(ByteView(r_.data().data() + offset_ + i * T::kSize, T::kSize), r_.endian());
    return decode_from<T>(c);
  }

  // operator[] for a format of one byte order, E (Oni's little-endian tables): with the order a
  // constant the decode folds to plain loads, with no byte-order test per field (the test was a
  // tenth of `oni check`'s walk). The table must have been opened over a reader of order E.
  template <Endian E>
  [[nodiscard]] [[gnu::always_inline]] T in_order(std::uint64_t i) const noexcept {
    if (i >= count_) [[unlikely]] detail::table_index_violation(structure_, i, count_);
    RecordCursor c(ByteView(r_.data().data() + offset_ + i * T::kSize, T::kSize), E);
    return decode_from<T>(c);
  }

  class iterator {
   public:
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const RecordTable* t, std::uint64_t i) : t_(t), i_(i) {}
    T operator*() const { return (*t_)[i_]; }
    iterator& operator++() { ++i_; return *this; }
    iterator operator++(int) { auto o = *this; ++i_; return o; }
    bool operator==(const iterator& o) const { return i_ == o.i_; }
   private:
    const RecordTable* t_ = nullptr;
    std::uint64_t i_ = 0;
  };
  [[nodiscard]] iterator begin() const { return {this, 0}; }
  [[nodiscard]] iterator end() const { return {this, count_}; }

 private:
  [[nodiscard]] ByteView raw(std::uint64_t i) const noexcept {
    return r_.data().subspan(static_cast<std::size_t>(offset_ + i * T::kSize), T::kSize);
  }
  ByteReader r_;
  std::uint64_t offset_ = 0;
  std::uint64_t count_ = 0;
  std::string structure_;  // owned: callers often build the name ("fixup[3] TMET")
};

// ---- encoding through the field list ---------------------------------------------------------

namespace detail {
// Writes fields from `out` on (or only counts them when out is null, for the compile-time size).
class FieldWriter {
 public:
  constexpr FieldWriter(std::uint8_t* out, Endian e) noexcept : out_(out), endian_(e) {}
  [[nodiscard]] constexpr std::size_t pos() const noexcept { return pos_; }

  template <class X>
  [[gnu::always_inline]] constexpr void put(const X& x) noexcept {
    using V = std::remove_cvref_t<X>;
    if constexpr (kIsPad<V>) {
      fill(V::kBytes);
    } else if constexpr (kIsFixed<V>) {
      const std::size_t n = x.view.size() < V::kBytes ? x.view.size() : V::kBytes;
      if (out_ != nullptr)
        for (std::size_t i = 0; i < n; ++i) out_[pos_ + i] = x.view[i];
      pos_ += n;
      fill(V::kBytes - n);
    } else if constexpr (std::is_same_v<V, float>) {
      put(std::bit_cast<std::uint32_t>(x));
    } else {
      static_assert(std::is_integral_v<V>, "a record field is an integer, a float, Pad<N> or FixedBytes<N>");
      using U = std::make_unsigned_t<V>;
      if (out_ != nullptr)
        for (std::size_t i = 0; i < sizeof(V); ++i) {
          const std::size_t shift = 8 * (endian_ == Endian::little ? i : sizeof(V) - 1 - i);
          out_[pos_ + i] = static_cast<std::uint8_t>(static_cast<U>(x) >> shift);
        }
      pos_ += sizeof(V);
    }
  }

 private:
  constexpr void fill(std::size_t n) noexcept {
    if (out_ != nullptr)
      for (std::size_t i = 0; i < n; ++i) out_[pos_ + i] = 0;
    pos_ += n;
  }
  std::uint8_t* out_;
  Endian endian_;
  std::size_t pos_ = 0;
};

template <FieldRecord T>
constexpr std::size_t write_fields(const T& r, FieldWriter& w) noexcept {
  T::fields(r, [&w](const auto&... x) [[gnu::always_inline]] { (w.put(x), ...); });
  return w.pos();
}

template <FieldRecord T>
consteval std::size_t encoded_size() {
  FieldWriter w(nullptr, Endian::little);
  return write_fields(T{}, w);
}
}  // namespace detail

// The kSize bytes of r at `out` (the caller's room: see store_in for a checked buffer).
template <FieldRecord T>
[[gnu::always_inline]] inline void store_record(std::uint8_t* out, const T& r, Endian e = Endian::little) noexcept {
  static_assert(detail::encoded_size<T>() == T::kSize, "a record's field list must fill exactly kSize bytes");
  detail::FieldWriter w(out, e);
  detail::write_fields(r, w);
}

// r's kSize bytes.
template <FieldRecord T>
[[nodiscard]] std::array<std::uint8_t, T::kSize> encode_record(const T& r, Endian e = Endian::little) noexcept {
  std::array<std::uint8_t, T::kSize> out{};
  store_record(out.data(), r, e);
  return out;
}

// r written over the kSize bytes at `at` of b. Outside b it stops the program, as decode_in does:
// the offsets written to are the writer's own, never taken unchecked from the data.
template <FieldRecord T>
void store_in(ByteBuffer& b, std::uint64_t at, const T& r, Endian e = Endian::little) noexcept {
  if (!range_ok(at, T::kSize, b.size())) [[unlikely]] detail::record_outside(T::kSize, at, b.size());
  store_record(b.data() + at, r, e);
}

// r appended to w in w's byte order.
template <FieldRecord T>
void put_record(ByteWriter& w, const T& r) {
  w.bytes(encode_record(r, w.endian()));
}

// Cursor-side helper: the record at the cursor's position, advancing past it.
template <Record T>
[[nodiscard]] Result<T> next_record(const ByteReader& r, Cursor& c, std::string_view structure) {
  auto v = read_record<T>(r, c.pos(), structure);
  if (v) c.seek(c.pos() + T::kSize);
  return v;
}

// A table of plain words (u16/u32/u64) - the commonest "record": hash lists, offset lists.
template <class W>
struct Word {
  static_assert(std::is_unsigned_v<W>);
  static constexpr std::size_t kSize = sizeof(W);
  W value = 0;
  static constexpr void fields(auto& r, auto&& f) { f(r.value); }
};
using Word8 = Word<std::uint8_t>;
using Word16 = Word<std::uint16_t>;
using Word32 = Word<std::uint32_t>;
using Word64 = Word<std::uint64_t>;

// The word of `width` bytes (1, 2, 4 or 8: a pointer or index whose size the layout decides) at
// `offset` of r; an Error naming the structure and offset when it does not lie inside r.
[[nodiscard]] inline Result<std::uint64_t> read_word(const ByteReader& r, std::uint64_t offset,
                                                     unsigned width, std::string_view structure) {
  ASSAY_TRY(ByteView b, r.bytes(offset, width, structure));
  RecordCursor c(b, r.endian());
  return c.word(width);
}

// A magic word then a version word, the opening of Alchemy's igArchive and igz files: the byte
// order in which the magic reads right is the file's (spec: alchemy.md#overview-byteorder).
struct MagicVersion {
  static constexpr std::size_t kSize = 8;
  std::uint32_t magic = 0, version = 0;
  static constexpr MagicVersion decode(RecordCursor& c) { return {c.u32(), c.u32()}; }
};

struct ByteOrderProbe {
  Endian endian = Endian::little;
  MagicVersion prefix;
};

// The byte order (little, then big) in which `bytes` opens with `magic`, and the magic + version
// read in it; nullopt for fewer than 8 bytes or another magic.
[[nodiscard]] constexpr std::optional<ByteOrderProbe> probe_byte_order(ByteView bytes,
                                                                       std::uint32_t magic) noexcept {
  if (!fits<MagicVersion>(bytes)) return std::nullopt;
  for (Endian e : {Endian::little, Endian::big}) {
    RecordCursor c(bytes.first(MagicVersion::kSize), e);
    const MagicVersion p = MagicVersion::decode(c);
    if (p.magic == magic) return ByteOrderProbe{e, p};
  }
  return std::nullopt;
}

}  // namespace assay

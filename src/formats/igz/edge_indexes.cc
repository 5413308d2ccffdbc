// EDGE compressed triangle lists (edge.h gives the layout and the sources). A triangle's 2-bit
// configuration says which corners of the previous triangle it keeps: 0 keeps corners 0 and 2
// (as corners 0 and 1), 1 keeps 2 and 1, 2 keeps 1 and 0, each adding one new index; 3 takes
// three new ones. A new index is the next sequential one (a counter from 0) where its bit in the
// 1-bit stream is 0, else the next unique index: unique indexes are n-bit values, most
// significant bit first, minus the base delta, each from the 9th on added to the one 8 before.
#include <fmt/format.h>

#include "assay/formats/igz/edge.h"
#include "diag_util.h"

namespace assay::igz {

namespace {

using detail::err;
constexpr std::string_view kStream = "EDGE index stream";

bool bit_at(const std::uint8_t* p, std::uint64_t bit) { return ((p[bit >> 3] >> (7 - (bit & 7))) & 1) != 0; }

std::vector<std::uint16_t> unique_indexes(const std::uint8_t* p, unsigned count, unsigned bits, std::uint16_t base) {
  std::vector<std::uint16_t> u(count);
  for (unsigned i = 0; i < count; ++i) {
    unsigned v = 0;
    for (unsigned k = 0; k < bits; ++k) v = (v << 1) | (bit_at(p, std::uint64_t{i} * bits + k) ? 1u : 0u);
    u[i] = static_cast<std::uint16_t>(v - base);
    if (i >= 8) u[i] = static_cast<std::uint16_t>(u[i] + u[i - 8]);
  }
  return u;
}

// The source of new indexes: the 1-bit stream choosing between the sequential counter and the
// unique indexes.
struct NewIndexes {
  const std::uint8_t* flags;
  std::uint64_t flag_bits;
  std::uint64_t flags_at;  // byte offset of the 1-bit stream, for errors
  std::vector<std::uint16_t> unique;
  std::uint64_t next_flag = 0;
  std::size_t next_unique = 0;
  std::uint16_t sequential = 0;

  Result<std::uint16_t> next() {
    if (next_flag >= flag_bits)
      return err(kStream, flags_at, fmt::format("the 1-bit stream's {} bits end before the triangles do", flag_bits));
    if (!bit_at(flags, next_flag++)) return sequential++;
    if (next_unique >= unique.size())
      return err(kStream, flags_at + (next_flag - 1) / 8,
                 fmt::format("the 1-bit stream asks for unique index {} of {}", next_unique + 1, unique.size()));
    return unique[next_unique++];
  }
};

}  // namespace

Result<std::vector<std::uint32_t>> decompress_edge_indexes(ByteView bytes, std::uint32_t index_count) {
  if (index_count % 3 != 0) return err(kStream, 0, fmt::format("{} indices are no whole triangles", index_count));
  if (bytes.size() < 8) return err(kStream, 0, fmt::format("{} bytes, the header needs 8", bytes.size()));
  const unsigned unique = load<std::uint16_t>(&bytes[0], Endian::big), base = load<std::uint16_t>(&bytes[2], Endian::big);
  const unsigned one_bytes = load<std::uint16_t>(&bytes[4], Endian::big), bits = bytes[6];
  if (bits > 16) return err(kStream, 6, fmt::format("{} bits per unique index (at most 16)", bits));
  const std::uint64_t tris = index_count / 3, two_bytes = (2 * tris + 7) / 8;
  const std::uint64_t n_bytes = (std::uint64_t{unique} * bits + 7) / 8, two_at = 8 + std::uint64_t{one_bytes};
  const std::uint64_t n_at = two_at + two_bytes;
  if (n_at + n_bytes > bytes.size())
    return err(kStream, 0, fmt::format("{} bytes hold no 1-bit stream of {} bytes, 2-bit stream of {} and {} unique indexes of {} bits",
                                       bytes.size(), one_bytes, two_bytes, unique, bits));
  NewIndexes src{&bytes[8], std::uint64_t{one_bytes} * 8, 8, unique_indexes(&bytes[0] + n_at, unique, bits, static_cast<std::uint16_t>(base))};
  std::vector<std::uint32_t> out;
  out.reserve(index_count);
  std::uint16_t t[3] = {0, 0, 0};
  for (std::uint64_t i = 0; i < tris; ++i) {
    const unsigned config = (bytes[two_at + i / 4] >> (6 - 2 * (i % 4))) & 3;
    if (config == 3) {
      for (auto& c : t) {
        ASSAY_TRY(c, src.next());
      }
    } else {
      if (config == 0) t[1] = t[2];
      else if (config == 1) t[0] = t[2];
      else std::swap(t[0], t[1]);
      ASSAY_TRY(t[2], src.next());
    }
    out.insert(out.end(), {t[0], t[1], t[2]});
  }
  return out;
}

}  // namespace assay::igz

// Private: a layout compiled once into a flat program for the walk of `oni check`.
// The walk of spec oni.md#oni-6 over a layout whose arrays are fixed, or variable at the top level
// with a flat element, is a fixed run of bytes with links at known offsets, then per variable
// array a count and n equal elements: one bounds check per run or array instead of one per field.
// Layouts it cannot express (a variable array nested in an array, .raw/.sep fields) keep
// walk_instance, and so does any instance the program finds a problem in, so errors read the same.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/record.h"
#include "assay/formats/oni/layout.h"

namespace assay::oni::detail {

struct FlatLink {
  std::uint32_t offset = 0;  // from the start of its run
  std::uint32_t tag = 0;     // expected tag (0: any)
};

// Bytes walked as one block, with the link fields the engine records in them (spec: oni.md#oni-6-1).
struct FlatRun {
  std::uint64_t size = 0;
  std::vector<FlatLink> links;
};

// A fixed run, then optionally a top-level variable array (spec: oni.md#oni-4-3 opcode 07).
struct FlatSegment {
  FlatRun fixed;
  std::uint8_t count_size = 0;  // 0: no array; else the count field's bytes (8, 4 or 2)
  FlatRun element;              // the array's element (size >= 1)
};

struct FlatProgram {
  std::vector<FlatSegment> segments;
};

// The program for l, or nullopt when l is not flat (walk_instance then walks it).
std::optional<FlatProgram> compile_flat(const CompiledLayout& l);

struct FlatWalk {
  std::uint64_t end = 0;                 // walked end
  std::uint32_t count_high_nonzero = 0;  // 8-byte counts with a non-zero high half
};

// Walks inst by p, calling link(offset, value, tag) for each non-zero link field in walk order;
// false when a field lies past the end or link() refuses a value (the caller then walks again
// with walk_instance to report it).
template <class OnLink>
[[nodiscard]] inline bool walk_flat(const FlatProgram& p, ByteView inst, FlatWalk& out, OnLink&& link) {
  const std::uint64_t size = inst.size();
  // Each read lies in a run whose size was checked against the instance just before (decode_in
  // stops the program otherwise, never reads past it).
  auto u32 = [&](std::uint64_t at) { return decode_in<Word32>(inst, at).value; };
  // Inlined into both loops below (an out-of-line call per element cost a fifth of the walk).
  auto run = [&](const FlatRun& r, std::uint64_t base) __attribute__((always_inline)) {
    for (const FlatLink& l : r.links)
      if (const std::uint32_t v = u32(base + l.offset); v != 0 && !link(static_cast<std::uint32_t>(base + l.offset), v, l.tag)) return false;
    return true;
  };
  std::uint64_t cur = 0;
  for (const FlatSegment& s : p.segments) {
    if (size - cur < s.fixed.size || !run(s.fixed, cur)) return false;
    cur += s.fixed.size;
    if (s.count_size == 0) continue;
    if (size - cur < s.count_size) return false;
    const std::uint64_t n = s.count_size == 2 ? decode_in<Word16>(inst, cur).value : u32(cur);
    if (s.count_size == 8 && u32(cur + 4) != 0) ++out.count_high_nonzero;
    cur += s.count_size;
    // n < 2^32 and element sizes are capped at 2^24 by compile_flat: the product cannot wrap.
    if (n * s.element.size > size - cur) return false;
    if (!s.element.links.empty())
      for (std::uint64_t k = 0; k < n; ++k)
        if (!run(s.element, cur + k * s.element.size)) return false;
    cur += n * s.element.size;
  }
  out.end = cur;
  return true;
}

}  // namespace assay::oni::detail

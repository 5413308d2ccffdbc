// The flat walk program of `oni check` (spec: oni.md#oni-4-3 opcodes, oni.md#oni-6 walk).
#include "check_walk.h"

namespace assay::oni::detail {

namespace {

// Bounds that keep the program small and its arithmetic far from wrapping; larger layouts are
// walked by walk_instance.
constexpr std::uint64_t kMaxFlatSize = std::uint64_t{1} << 24;
constexpr std::size_t kMaxFlatLinks = 4096;

std::uint8_t count_size(std::uint8_t kind) { return kind == 1 ? 8 : kind == 2 ? 4 : 2; }

// Appends steps [i, end) to r; false when they hold a variable array or a .raw/.sep field.
bool append_steps(const std::vector<Step>& st, std::uint32_t i, std::uint32_t end, FlatRun& r, bool links_on) {
  while (i < end) {
    const Step& s = st[i];
    switch (s.op) {
      case Op::f8: r.size += 8; ++i; break;
      case Op::f4: r.size += 4; ++i; break;
      case Op::f2: r.size += 2; ++i; break;
      case Op::f1: r.size += 1; ++i; break;
      case Op::link:
        if (links_on) r.links.push_back({static_cast<std::uint32_t>(r.size), s.tag});
        r.size += 4;
        ++i;
        break;
      case Op::fixed: {  // n copies of the element, unrolled
        FlatRun e;
        if (!append_steps(st, i + 1, s.end, e, links_on)) return false;
        if (e.links.size() * s.arg > kMaxFlatLinks || e.size * s.arg > kMaxFlatSize) return false;
        for (std::uint32_t k = 0; k < s.arg; ++k)
          for (const FlatLink& l : e.links) r.links.push_back({static_cast<std::uint32_t>(r.size + k * e.size + l.offset), l.tag});
        r.size += e.size * s.arg;
        i = s.end + 1;
        break;
      }
      case Op::end_fixed: case Op::end_var: ++i; break;
      case Op::var: case Op::raw: case Op::sep: return false;
    }
    if (r.size > kMaxFlatSize || r.links.size() > kMaxFlatLinks) return false;
  }
  return true;
}

}  // namespace

std::optional<FlatProgram> compile_flat(const CompiledLayout& l) {
  // Retail chunk rules see plain 4-byte fields by position (spec: oni.md#oni-9-3): not flat.
  if (l.code.has_raw_ops || !l.chunk_rules.empty() || l.code.steps.empty()) return std::nullopt;
  const std::vector<Step>& st = l.code.steps;
  FlatProgram p;
  FlatSegment seg;
  bool links_on = !l.leaf();  // spec: oni.md#oni-4-2: a leaf template records no links
  const auto end = static_cast<std::uint32_t>(st.size() - 1);  // the last step is the final 06
  for (std::uint32_t i = 0; i < end;) {
    const Step& s = st[i];
    if (s.op != Op::var) {
      const std::uint32_t next = s.op == Op::fixed ? s.end + 1 : i + 1;
      if (!append_steps(st, i, next, seg.fixed, links_on)) return std::nullopt;
      i = next;
      continue;
    }
    // spec: oni.md#oni-4-2: a VarArrayIsLeaf walk stops recording at the first opcode 07.
    if (l.layout.flags & kTemplateVarArrayIsLeaf) links_on = false;
    seg.count_size = count_size(s.arg);
    if (!append_steps(st, i + 1, s.end, seg.element, links_on) || seg.element.size == 0) return std::nullopt;
    p.segments.push_back(std::move(seg));
    seg = {};
    i = s.end + 1;
  }
  p.segments.push_back(std::move(seg));
  return p;
}

}  // namespace assay::oni::detail

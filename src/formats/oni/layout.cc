// The layout byte code: grammar check, compilation and the walk of one instance
// (spec: oni.md#oni-4-3, oni.md#oni-6; seed: TMiGame_Instance_PrepareForMemory 0x421c50,
// the empty-array skip 0x420390).
#include "assay/formats/oni/layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "assay/formats/oni/instance_file.h"
#include "assay/formats/oni/names.h"
#include "records.h"

namespace assay::oni {

namespace {

constexpr std::uint64_t kSaturate = std::uint64_t{1} << 62;
std::uint64_t sat_add(std::uint64_t a, std::uint64_t b) { return std::min(kSaturate, a + b); }
std::uint64_t sat_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return mul_ok(a, b, r) ? std::min(kSaturate, r) : kSaturate;
}
std::uint32_t count_field_size(std::uint8_t k) { return k == 1 ? 8 : k == 2 ? 4 : 2; }

Error layout_error(std::size_t at, std::string m) { return make_error(kFormat, "layout", at, std::move(m)); }

struct Frame {
  std::size_t step;       // the opening step (or npos for the top level)
  Op kind;                // fixed or var (top level: end_fixed)
  std::uint64_t acc = 0;  // minimum bytes so far
  bool nested_var = false;
  bool top_var = false;   // inside a top-level variable array
};

}  // namespace

Result<CompiledCode> compile_layout(ByteView code, bool allow_trailing) {
  CompiledCode out;
  if (code.size() > kMaxLayoutBytes && !allow_trailing)
    return layout_error(0, fmt::format("layout of {} bytes, longer than 65,535", code.size()));
  const std::size_t limit = std::min(code.size(), kMaxLayoutBytes);
  if (limit < 2 || code[0] != 2 || code[1] != 2) return layout_error(0, "layout does not start 02 02 (the instance header)");
  std::vector<Frame> stack;
  stack.push_back({static_cast<std::size_t>(-1), Op::end_fixed});
  std::size_t i = 0;
  bool done = false;
  while (!done) {
    if (i >= limit) return layout_error(i, "layout never ends (no final 06)");
    const std::uint8_t op = code[i];
    Step s;
    s.op = static_cast<Op>(op);
    Frame& top = stack.back();
    const std::size_t at = i;
    ++i;
    switch (s.op) {
      case Op::f8: top.acc = sat_add(top.acc, 8); break;
      case Op::f4: case Op::raw: case Op::sep: top.acc = sat_add(top.acc, 4); break;
      case Op::f2: top.acc = sat_add(top.acc, 2); break;
      case Op::f1: top.acc = sat_add(top.acc, 1); break;
      case Op::link:
        if (i + 4 > limit) return layout_error(at, "link opcode 09 without its 4-byte tag");
        s.tag = records::word_at<std::uint32_t>(code, i);
        i += 4;
        top.acc = sat_add(top.acc, 4);
        out.has_links = true;
        for (const Frame& f : stack) if (f.top_var) out.links_in_var = true;
        break;
      case Op::fixed: case Op::var: {
        if (i >= limit) return layout_error(at, "array opcode without its operand");
        s.arg = code[i++];
        if (s.op == Op::fixed && s.arg == 0) return layout_error(at, "fixed array count 0");
        if (s.op == Op::var && (s.arg < 1 || s.arg > 3)) return layout_error(at, fmt::format("variable array count kind {} (must be 1-3)", s.arg));
        if (static_cast<int>(stack.size()) > kMaxNesting) return layout_error(at, "arrays nested deeper than 32");
        Frame f{out.steps.size(), s.op};
        f.top_var = top.top_var || (s.op == Op::var && stack.size() == 1);
        if (s.op == Op::var) {
          for (Frame& g : stack) g.nested_var = true;
          if (stack.size() == 1) out.has_var = true;
        }
        out.steps.push_back(s);
        stack.push_back(f);
        continue;
      }
      case Op::end_fixed: case Op::end_var: {
        if (stack.size() == 1) {
          if (s.op == Op::end_var) return layout_error(at, "08 closes no variable array");
          out.steps.push_back(s);
          out.fixed_size = top.acc;
          done = true;
          continue;
        }
        Frame f = stack.back();
        if ((s.op == Op::end_fixed) != (f.kind == Op::fixed))
          return layout_error(at, fmt::format("{:02x} closes the wrong kind of array", op));
        if (f.acc == 0) return layout_error(at, "empty array element (no field)");
        stack.pop_back();
        Step& open = out.steps[f.step];
        open.end = static_cast<std::uint32_t>(out.steps.size());
        open.min = f.acc;
        Frame& parent = stack.back();
        if (f.kind == Op::fixed) {
          parent.acc = sat_add(parent.acc, sat_mul(open.arg, f.acc));
        } else {
          parent.acc = sat_add(parent.acc, count_field_size(open.arg));
          if (stack.size() == 1 && !out.var_element) {
            // element size "where fixed": no variable array nested inside (spec: oni.md#oni-4-5 step 6)
            bool nested = false;
            for (std::size_t k = f.step + 1; k < out.steps.size(); ++k) if (out.steps[k].op == Op::var) nested = true;
            if (!nested) out.var_element = f.acc;
          }
        }
        out.steps.push_back(s);
        continue;
      }
      default:
        return layout_error(at, fmt::format("opcode 0x{:02x} outside 1-11", op));
    }
    out.steps.push_back(s);
  }
  out.has_raw_ops = std::any_of(out.steps.begin(), out.steps.end(), [](const Step& s) { return s.op == Op::raw || s.op == Op::sep; });
  out.length = i;
  if (!allow_trailing && i != code.size()) return layout_error(i, "bytes after the final 06");
  return out;
}

std::vector<ChunkRule> retail_chunk_rules(std::uint32_t tag, std::uint64_t checksum) {
  // spec: oni.md#oni-9-2 (set per template checksum), oni.md#oni-9-3 (positions).
  using K = FieldKind;
  using S = ChunkSize;
  switch (tag) {
    case make_tag("TXMP"):
      if (checksum == 0x891187581ull) return {{0x9C, K::raw, S::txmp, 0}};
      if (checksum == 0x8911EEB5Full) return {{0xA0, K::sep, S::txmp, 0}};
      break;
    case make_tag("BINA"):
      if (checksum == 0xDB41) return {{0x0C, K::raw, S::u32_field, 0x08}};
      if (checksum == 0x15E11) return {{0x0C, K::sep, S::u32_field, 0x08}};
      break;
    case make_tag("OSBD"):
      if (checksum == 0xDB6C) return {{0x0C, K::raw, S::u32_field, 0x08}};
      if (checksum == 0x15E3C) return {{0x0C, K::sep, S::u32_field, 0x08}};
      break;
    case make_tag("SNDD"):
      if (checksum == 0x411EB) return {{0x14, K::raw, S::u32_field, 0x10}};
      if (checksum == 0x370578) return {{0x44, K::raw, S::u32_field, 0x40}};  // oni-templates.md: settled by checksum
      break;
    // oni-templates.md "OniSplit compared": raw fields on plain 4-byte fields, same in both sets;
    // chunk sizes come from other data (left to the next chunk start).
    case make_tag("SUBT"):
      if (checksum == 0x46C68) return {{0x18, K::raw, S::unknown, 0}};
      break;
    case make_tag("TRAM"):
      if (checksum == 0x107E3CC918ull) {
        std::vector<ChunkRule> r;
        for (std::uint32_t o = 0x0C; o <= 0x38; o += 4) r.push_back({o, K::raw, S::unknown, 0});
        r.push_back({0x13C, K::raw, S::unknown, 0});
        return r;
      }
      break;
    case make_tag("AKVA"):
      if (checksum == 0xDF05E0) return {{0x24, K::raw, S::unknown, 0, true}};
      break;
    case make_tag("AGDB"):
      if (checksum == 0x72E17) return {{0x00, K::raw, S::unknown, 0, true}, {0x04, K::raw, S::unknown, 0, true}};
      break;
    default: break;
  }
  return {};
}

Result<std::vector<TxmpLevel>> txmp_levels(std::uint32_t w, std::uint32_t h, std::uint32_t format, bool mips) {
  if (w == 0 || h == 0 || w > kTxmpMaxDim || h > kTxmpMaxDim)
    return make_error(kFormat, "TXMP", kNoOffset, fmt::format("size {}x{} (must be 1-16384)", w, h));
  auto one = [&](std::uint64_t x, std::uint64_t y) -> std::uint64_t {
    switch (format) {
      case 0: case 1: case 2: return x * y * 2;
      case 7: case 8: return x * y * 4;
      default: return ((x + 3) / 4) * ((y + 3) / 4) * 8;  // 9: DXT1, 8 bytes per 4x4 block
    }
  };
  if (format > 9 || (format > 2 && format < 7))
    return make_error(kFormat, "TXMP", kNoOffset, fmt::format("unsupported TXMP format {}", format));
  std::vector<TxmpLevel> out;
  std::uint64_t at = 0;
  for (std::uint32_t x = w, y = h;;) {  // x, y >= 1: at most 15 halvings of 16384
    out.push_back({x, y, at, one(x, y)});
    at += out.back().size;
    if (!mips || (x == 1 && y == 1)) break;
    x = std::max<std::uint32_t>(1, x / 2);
    y = std::max<std::uint32_t>(1, y / 2);
  }
  return out;
}

std::optional<std::uint64_t> txmp_data_size(std::uint32_t w, std::uint32_t h, std::uint32_t format, bool mips) {
  auto l = txmp_levels(w, h, format, mips);
  if (!l) return std::nullopt;
  return l->back().offset + l->back().size;
}

namespace {

struct Walker {
  const CompiledLayout& l;
  ByteView b;
  std::vector<FieldRef>& out;
  WalkResult res;
  std::uint64_t cur = 0;
  bool links_on;
  int in_var = 0;
  std::uint64_t elem_start = 0;  // start of the current top-level variable-array element

  Error past_end(std::uint64_t need) const {
    return make_error(kFormat, "walk", cur,
                      fmt::format("field past end of instance (needs 0x{:x}, size 0x{:x})", cur + need, b.size()));
  }
  // The field at the cursor (bounded: 0 past the end; every caller checks the room first).
  std::uint32_t u32() const { return records::word_at<std::uint32_t>(b, cur); }
  // The size of an array element that is one plain field no chunk rule can see, else 0.
  std::uint32_t plain_size(std::uint32_t i, const Step& s) const {
    if (s.end != i + 2) return 0;
    switch (l.code.steps[i + 1].op) {
      case Op::f1: return 1;
      case Op::f2: return 2;
      case Op::f4: return l.chunk_rules.empty() ? 4 : 0;
      case Op::f8: return 8;
      default: return 0;
    }
  }

  Result<void> seq(std::uint32_t i, std::uint32_t end) {
    const auto& steps = l.code.steps;
    while (i < end) {
      const Step& s = steps[i];
      switch (s.op) {
        case Op::f8: if (b.size() - cur < 8) return past_end(8); cur += 8; ++i; break;
        case Op::f4:
          if (b.size() - cur < 4) return past_end(4);
          if (!l.chunk_rules.empty() && in_var <= 1)
            for (const ChunkRule& r : l.chunk_rules)
              if (r.in_element ? (in_var == 1 && r.offset == cur - elem_start) : (in_var == 0 && r.offset == cur))
                out.push_back({static_cast<std::uint32_t>(cur), u32(), 0, r.kind, r.size, r.size_offset});
          cur += 4; ++i; break;
        case Op::f2: if (b.size() - cur < 2) return past_end(2); cur += 2; ++i; break;
        case Op::f1: if (b.size() - cur < 1) return past_end(1); cur += 1; ++i; break;
        case Op::raw: case Op::sep:
          if (b.size() - cur < 4) return past_end(4);
          out.push_back({static_cast<std::uint32_t>(cur), u32(), 0, s.op == Op::raw ? FieldKind::raw : FieldKind::sep, ChunkSize::unknown, 0});
          cur += 4; ++i; break;
        case Op::link: {
          if (b.size() - cur < 4) return past_end(4);
          const std::uint32_t v = u32();
          if (v != 0 && links_on) out.push_back({static_cast<std::uint32_t>(cur), v, s.tag, FieldKind::link, ChunkSize::unknown, 0});
          cur += 4; ++i; break;
        }
        case Op::fixed:
          if (const std::uint32_t fs = plain_size(i, s); fs != 0) {  // fast path: n plain fields (padding, strings)
            const std::uint64_t fit = std::min<std::uint64_t>(s.arg, (b.size() - cur) / fs);
            cur += fit * fs;
            if (fit < s.arg) return past_end(fs);
          } else {
            for (unsigned k = 0; k < s.arg; ++k) ASSAY_CHECK(seq(i + 1, s.end));
          }
          i = s.end + 1;
          break;
        case Op::var: {
          const std::uint32_t cs = count_field_size(s.arg);
          if (b.size() - cur < cs) return past_end(cs);
          std::uint64_t n;
          if (cs == 2) n = records::word_at<std::uint16_t>(b, cur);
          else n = u32();
          if (cs == 8 && records::word_at<std::uint32_t>(b, cur + 4) != 0) ++res.count_high_nonzero;  // spec: oni.md#oni-4-3 k = 1
          cur += cs;
          // spec: oni.md#oni-4-2: a VarArrayIsLeaf walk stops recording at opcode 7.
          if (l.layout.flags & kTemplateVarArrayIsLeaf) links_on = false;
          if (n == 0) {  // the element code is skipped; the cursor does not move
            i = s.end + 1;
            break;
          }
          std::uint64_t need = 0;
          if (!mul_ok(n, s.min, need) || need > b.size() - cur)
            return make_error(kFormat, "walk", cur - cs,
                              fmt::format("variable array of {} elements (at least 0x{:x} bytes each) too long for the instance (0x{:x} bytes left)", n, s.min, b.size() - cur));
          if (const std::uint32_t fs = plain_size(i, s); fs != 0) {  // fast path: n plain fields (fits: checked above)
            cur += n * fs;
            i = s.end + 1;
            break;
          }
          if (s.end == i + 2 && steps[i + 1].op == Op::link) {  // fast path: n links (fits: checked above)
            for (std::uint64_t k = 0; k < n; ++k, cur += 4)
              if (const std::uint32_t v = u32(); v != 0 && links_on)
                out.push_back({static_cast<std::uint32_t>(cur), v, steps[i + 1].tag, FieldKind::link, ChunkSize::unknown, 0});
            i = s.end + 1;
            break;
          }
          ++in_var;
          for (std::uint64_t k = 0; k < n; ++k) {
            if (in_var == 1) elem_start = cur;
            ASSAY_CHECK(seq(i + 1, s.end));
          }
          --in_var;
          i = s.end + 1;
          break;
        }
        case Op::end_fixed: case Op::end_var: ++i; break;
      }
    }
    return {};
  }
};

}  // namespace

Result<WalkResult> walk_instance(const CompiledLayout& l, ByteView inst, std::vector<FieldRef>& out) {
  Walker w{l, inst, out, {}, 0, !l.leaf()};
  const auto n = static_cast<std::uint32_t>(l.code.steps.size());
  ASSAY_CHECK(w.seq(0, n - 1));  // the last step is the final 06
  w.res.end = w.cur;
  return w.res;
}

namespace {

// spec: oni-templates.md "TXMP v1.1 size 0xB0 vs OniSplit 0xAC" (OniSplit OniMacMetadata.cs: pad 4
// at 0x9C, the .sep offset at 0xA0, pad 8 at 0xA4, 0xAC bytes): the v1.1 TXMP layout without its
// last top-level fields, a u8 and a fixed array of 3 u8 (`04 05 03 04 06`, padding only), when it
// ends so. The v1.0 layout (0x891187581) is 0xAC already and has none.
constexpr std::uint64_t kTxmpV11Checksum = 0x8911EEB5Full;  // spec: oni.md#oni-9-2

std::optional<CompiledLayout> onisplit_short_form(const CompiledLayout& c) {
  static constexpr std::uint8_t kTail[] = {0x04, 0x05, 0x03, 0x04, 0x06, 0x06};
  const ByteBuffer& code = c.layout.code;
  if (c.tag() != make_tag("TXMP") || c.checksum() != kTxmpV11Checksum || c.code.has_var || code.size() <= sizeof kTail ||
      !std::equal(std::begin(kTail), std::end(kTail), code.end() - sizeof kTail))
    return std::nullopt;
  CompiledLayout s;
  s.layout = c.layout;
  s.layout.code.erase(s.layout.code.end() - sizeof kTail, s.layout.code.end() - 1);  // keeps the final 06
  s.layout.name += " (OniSplit -import:sep form, 4 bytes shorter)";
  auto compiled = compile_layout(s.layout.code);
  if (!compiled || compiled->fixed_size + 4 != c.code.fixed_size) return std::nullopt;
  s.code = std::move(*compiled);
  s.chunk_rules = c.chunk_rules;  // the .sep offset at 0xA0 is inside the short form
  return s;
}

}  // namespace

Result<void> LayoutSet::add(Layout l, Diagnostics* warnings) {
  const auto key = std::make_pair(l.tag, l.checksum);
  if (index_.count(key))
    return make_error(kFormat, "layouts", kNoOffset, fmt::format("template {} checksum 0x{:016x} given twice", tag_string(l.tag), l.checksum));
  auto code = compile_layout(l.code);
  if (!code) {
    Error e = code.error();
    e.structure = fmt::format("layout of {} 0x{:016x} byte", tag_string(l.tag), l.checksum);
    return e;
  }
  CompiledLayout c;
  c.code = std::move(*code);
  if (!c.code.has_raw_ops) c.chunk_rules = retail_chunk_rules(l.tag, l.checksum);  // opcodes win
  if (warnings) {
    const std::string s = fmt::format("layout of {}", tag_string(l.tag));
    if ((l.flags & kTemplateLeaf) && c.code.has_links)
      warnings->warning(make_error(kFormat, s, kNoOffset, "template flag 2 (leaf) but the layout has links"));
    if ((l.flags & kTemplateVarArrayIsLeaf) && c.code.links_in_var)
      warnings->warning(make_error(kFormat, s, kNoOffset, "template flag 4 but the variable array has links"));
  }
  c.layout = std::move(l);
  if (auto s = onisplit_short_form(c)) short_forms_[all_.size()] = std::make_shared<const CompiledLayout>(std::move(*s));
  index_[key] = all_.size();
  all_.push_back(std::move(c));
  return {};
}

const CompiledLayout* LayoutSet::short_form(const CompiledLayout* l) const {
  if (short_forms_.empty() || l == nullptr || all_.empty() || l < all_.data() || l >= all_.data() + all_.size()) return nullptr;
  const auto it = short_forms_.find(static_cast<std::size_t>(l - all_.data()));
  return it == short_forms_.end() ? nullptr : it->second.get();
}

const CompiledLayout* LayoutSet::for_size(const CompiledLayout* l, std::uint64_t size) const {
  const CompiledLayout* s = short_form(l);
  return s != nullptr && size >= s->code.fixed_size && size < l->code.fixed_size ? s : l;
}

const CompiledLayout* LayoutSet::find(std::uint32_t tag, std::uint64_t checksum) const {
  const auto it = index_.find({tag, checksum});
  return it == index_.end() ? nullptr : &all_[it->second];
}

Result<const CompiledLayout*> LayoutSet::choose_without_table(std::uint32_t tag, std::uint64_t header_checksum) const {
  std::vector<const CompiledLayout*> cands;
  for (auto it = index_.lower_bound({tag, 0}); it != index_.end() && it->first.first == tag; ++it) cands.push_back(&all_[it->second]);
  if (cands.size() == 1) return cands[0];
  // spec: oni.md#oni-8: several: the one whose oni.md#oni-9-2 checksum belongs to the header's set.
  const bool v10 = header_checksum == kChecksumV10, v11 = header_checksum == kChecksumV11;
  for (const CompiledLayout* c : cands) {
    if (retail_chunk_rules(tag, c->checksum()).empty()) continue;
    const auto k = retail_chunk_rules(tag, c->checksum())[0];
    const bool is_v11 = (k.kind == FieldKind::sep) || (tag == make_tag("SNDD") && c->checksum() == 0x411EB);
    if ((v10 && !is_v11) || (v11 && is_v11)) return c;
  }
  return make_error(kFormat, "layouts", kNoOffset, fmt::format("no template table; cannot choose a layout for {}", tag_string(tag)));
}

}  // namespace assay::oni

// The built-in layouts: the project's layouts file data/oni/templates.txt is
// compiled in (builtin_layouts.cmake generates builtin_layouts_data.cc from it at build time) and
// split into the two retail template sets (spec: oni.md#oni-3-2, oni-templates.md).
#include <fmt/format.h>

#include <map>
#include <vector>

#include "assay/formats/oni/instance_file.h"
#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/names.h"

namespace assay::oni {

namespace detail {
std::string_view builtin_layouts_text();  // generated
}

std::string_view builtin_layouts_text() { return detail::builtin_layouts_text(); }

std::optional<TemplateSet> template_set_of(std::uint64_t c) {
  if (c == kChecksumV10) return TemplateSet::v10;
  if (c == kChecksumV11) return TemplateSet::v11;
  return std::nullopt;
}

namespace {

constexpr std::size_t kMaxVariantTags = 8;  // 2^8 combinations at most

// One set: for each tag in table order one of its lines, chosen so that
// Σ (n+1) × checksum[n] equals the set's header checksum (oni-templates.md, "Sources").
LayoutSet build_set(std::uint64_t want, const char* name) {
  auto all = parse_layouts_file(builtin_layouts_text(), "oni-templates.txt (built in)");
  LayoutSet out;
  out.source = fmt::format("built-in {} layouts", name);
  if (!all) return out;
  std::vector<std::uint32_t> order;
  std::map<std::uint32_t, std::vector<const CompiledLayout*>> lines;
  for (const CompiledLayout& c : all->all()) {
    if (!lines.count(c.tag())) order.push_back(c.tag());
    lines[c.tag()].push_back(&c);
  }
  std::vector<std::uint32_t> variants;
  for (std::uint32_t t : order)
    if (lines[t].size() > 2) return out;
    else if (lines[t].size() == 2) variants.push_back(t);
  if (variants.size() > kMaxVariantTags) return out;
  for (std::uint32_t combo = 0; combo < (1u << variants.size()); ++combo) {
    auto pick = [&](std::uint32_t tag) -> const CompiledLayout* {
      for (std::size_t k = 0; k < variants.size(); ++k)
        if (variants[k] == tag) return lines[tag][(combo >> k) & 1];
      return lines[tag][0];
    };
    std::uint64_t sum = 0;
    for (std::size_t n = 0; n < order.size(); ++n) sum += (n + 1) * pick(order[n])->checksum();
    if (sum != want) continue;
    for (std::uint32_t t : order) {
      Layout l = pick(t)->layout;
      if (!out.add(std::move(l))) return LayoutSet{};
    }
    out.source = fmt::format("built-in {} layouts", name);
    return out;
  }
  return out;
}

}  // namespace

// Each set is built on its first use only (immutable afterwards; a level set needs one of them).
const LayoutSet& builtin_layouts(TemplateSet set) {
  if (set == TemplateSet::v10) {
    static const LayoutSet v10 = build_set(kChecksumV10, "v1.0");
    return v10;
  }
  static const LayoutSet v11 = build_set(kChecksumV11, "v1.1");
  return v11;
}

Result<const LayoutSet*> LayoutSource::for_checksum(std::uint64_t header_checksum) const {
  if (user_ != nullptr) return user_;
  const auto set = template_set_of(header_checksum);
  if (!set)
    return make_error(kFormat, "header", 0,
                      fmt::format("template set 0x{:016x} is neither retail v1.0 (0x{:016x}) nor v1.1 (0x{:016x}): the built-in "
                                  "layouts do not apply; give --exe Oni.exe or --layouts FILE",
                                  header_checksum, kChecksumV10, kChecksumV11));
  const LayoutSet& s = builtin_layouts(*set);
  if (s.empty()) return make_error(kFormat, "layouts", kNoOffset, "the built-in layouts table is broken (no set reproduces the header checksum)");
  return &s;
}

}  // namespace assay::oni

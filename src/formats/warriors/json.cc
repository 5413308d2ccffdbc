// The warriors family's JSON: info fields, classify counts and the edit report (a load's report
// prints through load.h's printer). Shapes: docs/cli.md#warriors.
#include <fmt/format.h>

#include <array>
#include <map>

#include "assay/container.h"

#include "family_parts.h"
#include "formats/serialise.h"

namespace assay::warriors {

namespace {

Json header_json(const ContainerHeader& h) {
  return Json{{"count", h.count}, {"size", h.size}, {"zero", h.zero}, {"id", h.id}};
}

}  // namespace

Json disc_info_fields(const Disc& disc) {
  Json j{{"source", to_string(disc.source())}, {"entry_count", disc.count()},
         {"dir_size", disc.dir_bytes().size()}, {"wad_size", disc.wad_bytes().size()}};
  j.update(wad_truncation_fields(disc));
  return j;
}

Result<Json> chunk_info_fields(const Input& in) {
  ByteReader r(in.bytes, Endian::little, kFormat);
  ASSAY_TRY(std::uint32_t count, r.u32(0, "container header"));
  const ExactInfo as_pack = check_exact_pack(in.bytes);
  const bool pack = as_pack.exact;
  const ExactInfo x = pack ? as_pack : check_exact_resource(in.bytes);
  return Json{{"container", pack ? "pack" : "resource"},
              {"header", header_json({count, *r.u32(4, ""), *r.u32(8, ""), *r.u32(12, "")})},
              {"exact", x.exact},
              {"size", in.bytes.size()}};
}

Json kind_counts_json(const Disc& disc, std::span<const EntryKind> kinds) {
  const std::uint32_t n = disc.count();
  std::array<std::uint64_t, kEntryKindCount> count{}, bytes{};
  for (std::uint32_t i = 0; i < n; ++i) {
    ++count[static_cast<int>(kinds[i])];
    bytes[static_cast<int>(kinds[i])] += disc.entry(i).size;
  }
  Json counts = Json::object(), sizes = Json::object();
  for (int k = 0; k < kEntryKindCount; ++k) {
    counts[std::string(to_string(static_cast<EntryKind>(k)))] = count[k];
    sizes[std::string(to_string(static_cast<EntryKind>(k)))] = bytes[k];
  }
  return Json{{"format", kFormat}, {"entry_count", n}, {"counts", counts}, {"bytes", sizes}};
}

Json wad_truncation_fields(const Disc& disc) {
  Json j = Json::object();
  if (auto w = disc.wad_truncation_warning()) {
    j["warning"] = w->where.message;
    j["problems"] = Json::array({problem_json(*w)});
  }
  return j;
}

Json disc_edit_json(std::string_view input, std::string_view output, bool in_place, std::uint64_t entry_count,
                    std::uint64_t wad_bytes, const std::vector<DiscEditLine>& changes) {
  Json lines = Json::array();
  for (const DiscEditLine& c : changes) {
    Json j{{"op", c.op}, {"name", c.name ? Json(*c.name) : Json(nullptr)}, {"hash", c.hash}};
    if (c.index) j["index"] = *c.index;
    if (c.old_size) j["old_size"] = *c.old_size;
    if (c.new_size) j["new_size"] = *c.new_size;
    lines.push_back(std::move(j));
  }
  return Json{{"format", kFormat}, {"input", input}, {"output", output}, {"in_place", in_place},
              {"entry_count", entry_count}, {"wad_bytes", wad_bytes}, {"changes", std::move(lines)}};
}

}  // namespace assay::warriors

// JSON views of an igz (docs/cli.md#igz). spec: alchemy.md#igz
#include "json.h"

#include <fmt/format.h>

#include <cmath>
#include "formats/serialise.h"

namespace assay::igz {

Result<OpenOptions> open_options(const ReadOptions& opt) {
  OpenOptions o;
  auto it = opt.family.find("igz-pointer-size");
  if (it != opt.family.end() && !it->second.empty()) {
    if (it->second == "4") o.pointer_size = 4;
    else if (it->second == "8") o.pointer_size = 8;
    else return usage_error("--igz-pointer-size must be 4 or 8");
  }
  return o;
}

// ---- a texture entry's details ----
namespace {

Json data_json(const ImageData& d) {
  switch (d.where) {
    case ImageData::Where::pool:
      return {{"where", "pool"}, {"offset", d.offset}, {"size", d.size},
              {"memory_handle", d.in_place ? Json(nullptr) : Json(d.handle)}};  // null: an igMemory in place
    case ImageData::Where::external:
      return {{"where", "external"}, {"reference", d.reference}};
    case ImageData::Where::none:
      break;
  }
  return {{"where", "none"}};
}

}  // namespace

Json image_details_json(const Image2& img) {
  Json j = {{"width", img.width},   {"height", img.height}, {"mips", img.levels},
            {"format", img.format}, {"pixel_format", img.format}, {"platform", img.platform}, {"depth", img.depth},
            {"images", img.images}};
  j["image_name"] = img.name ? Json(*img.name) : Json(nullptr);
  j["data"] = data_json(img.data);
  // data_needed: the bytes of every level as the layout places them; not_decoded: why the format
  // or layout does not decode
  if (auto need = decoded_data_size(img)) j["data_needed"] = *need;
  if (auto all = data_size(img); !all) j["not_decoded"] = all.error().message;
  j["fields"] = {{"width", img.field_base}, {"format", img.format_field}, {"data", img.data_field}};
  std::string assumed(texel_assumption(img));
  if (!img.field_assumption.empty()) assumed = assumed.empty() ? img.field_assumption : img.field_assumption + "; " + assumed;
  if (!assumed.empty()) j["assumed"] = std::move(assumed);
  return j;
}

// ---- a model entry's details ----
Json model_details_json(const Model& m) {
  Json j;
  j["name"] = m.name;
  j["model_data"] = m.data_object;
  j["min"] = {m.min[0], m.min[1], m.min[2]};
  j["max"] = {m.max[0], m.max[1], m.max[2]};
  j["transforms"] = m.transforms.size();
  j["layout"] = m.layout;
  if (!m.layout_assumption.empty()) j["assumed"] = m.layout_assumption;
  Json draws = Json::array();
  for (const DrawCall& d : m.draws) {
    Json x;
    x["object"] = d.object;
    if (d.name) x["name"] = *d.name;
    x["vertices"] = d.vertices.count;
    x["stride"] = d.vertices.stride;
    Json els = Json::array();
    for (const VertexElement& e : d.vertices.elements)
      els.push_back(fmt::format("{}{} {} +{}", vertex_usage_name(e.usage), e.usage_index, vertex_type_name(e.type), e.offset));
    x["elements"] = std::move(els);
    x["indices"] = d.indices.count;
    x["index_format"] = d.indices.format.empty() ? Json(nullptr) : Json(d.indices.format);
    x["primitive_count"] = d.primitive_count;
    x["min"] = {d.min[0], d.min[1], d.min[2]};
    x["max"] = {d.max[0], d.max[1], d.max[2]};
    if (!d.material.empty()) x["material"] = d.material;
    if (d.transform) x["transform"] = *d.transform;
    draws.push_back(std::move(x));
  }
  j["draw_calls"] = std::move(draws);
  if (m.skeleton)
    j["skeleton"] = {{"object", m.skeleton->object}, {"name", m.skeleton->name}, {"bones", m.skeleton->bones.size()},
                     {"inverse_joints", m.skeleton->inverse_joints.size()}};
  return j;
}

namespace {
Json text_or_null(const std::string& t) { return t.empty() ? Json(nullptr) : Json(t); }
}  // namespace

Json texture_units_json(const std::vector<TextureBinding>& bindings) {
  Json units = Json::array();
  for (const TextureBinding& b : bindings) units.push_back({{"unit", b.unit}, {"image", b.image}, {"file", text_or_null(b.file)}});
  return units;
}

Json materials_json(const std::vector<std::pair<std::string, const detail::MaterialTexture*>>& materials) {
  Json out = Json::array();
  for (const auto& [handle, m] : materials) {
    out.push_back({{"handle", handle},
                   {"material_file", text_or_null(m->material_file)},
                   {"texture_units", texture_units_json(m->bindings)},
                   {"base_color_texture", m->image_file ? Json(m->base->file) : Json(nullptr)},
                   {"note", text_or_null(m->note)}});
  }
  return out;
}

Json edge_details_json(const EdgeGeometry& e) {
  Json j;
  j["edge_geometry"] = e.object;
  j["min"] = e.min ? Json{(*e.min)[0], (*e.min)[1], (*e.min)[2]} : Json(nullptr);
  j["max"] = e.max ? Json{(*e.max)[0], (*e.max)[1], (*e.max)[2]} : Json(nullptr);
  Json segs = Json::array();
  for (const EdgeSegment& s : e.segments)
    segs.push_back(Json{{"object", s.object}, {"vertices", s.vertex_count}, {"indices", s.index_count},
                        {"indexes_flavor", s.indexes_flavor}, {"input_format", s.input_format}, {"skinning_flavor", s.skinning_flavor}});
  j["segments"] = std::move(segs);
  j["material"] = e.material.empty() ? Json(nullptr) : Json(e.material);
  if (e.skin) j["skin"] = Json{{"blend_matrix_select", e.skin->select}, {"palette", e.skin->palette.size()}, {"bones", e.skin->skeleton.bones.size()}};
  return j;
}

// ---- the edit report ----
Json edit_json(std::string_view input, std::string_view output, bool in_place, const std::vector<ImageReplaced>& changes) {
  Json lines = Json::array();
  for (const ImageReplaced& r : changes) {
    const Image2& img = *r.image;
    lines.push_back(Json{{"name", r.name}, {"op", "replace"}, {"pixel_format", img.format}, {"width", img.width},
                         {"height", img.height}, {"levels", img.levels}, {"bytes", r.bytes},
                         {"psnr_db", std::isfinite(r.psnr_db) ? Json(r.psnr_db) : Json(nullptr)},
                         {"exact", !std::isfinite(r.psnr_db)}});
  }
  return Json{{"format", "igz"}, {"input", input}, {"output", output}, {"in_place", in_place}, {"changes", std::move(lines)}};
}

}  // namespace assay::igz

// An igImage2's fields as a texture entry's details (docs/cli.md#igz).
#include "report.h"
#include "assay/formats/igz/image.h"
#include "formats/serialise.h"

namespace assay::igz {

namespace {

Json data_json(const ImageData& d) {
  switch (d.where) {
    case ImageData::Where::pool:
      return {{"where", "pool"}, {"offset", d.offset}, {"size", d.size}, {"memory_handle", d.handle}};
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
            {"format", img.format}, {"platform", img.platform}, {"depth", img.depth},
            {"images", img.images}};
  j["image_name"] = img.name ? Json(*img.name) : Json(nullptr);
  j["data"] = data_json(img.data);
  if (auto need = data_size(img)) j["data_needed"] = *need;
  else j["not_decoded"] = need.error().message;
  if (const std::string_view a = texel_assumption(img); !a.empty()) j["assumed"] = std::string(a);
  return j;
}

}  // namespace assay::igz

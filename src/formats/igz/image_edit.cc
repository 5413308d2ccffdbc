// `assay replace X.igz (-o OUT | --in-place) IMAGE=PNG`: a PNG into an igImage2's own format,
// size and levels, over its _data in the file's pool; every other byte kept (docs/cli.md#igz).
#include <fmt/format.h>

#include <cmath>
#include <cstring>

#include "json.h"
#include "assay/core/output.h"
#include "assay/formats/edit_input.h"
#include "assay/formats/edit_target.h"
#include "assay/formats/igz/image.h"
#include "assay/image/encode.h"
#include "diag_util.h"
#include "formats/serialise.h"

namespace assay::igz {

namespace {

// The image a change names: its _name, its entry path (`0003_name.png`, with or without `.png`)
// or its object index.
const Image2* image_named(const std::vector<Image2>& images, std::string_view name) {
  for (const Image2& img : images) {
    const std::string path = fmt::format("{:04}_{}", img.object, img.name && !img.name->empty() ? *img.name : "igImage2");
    if ((img.name && *img.name == name) || name == path || name == path + ".png" || name == std::to_string(img.object))
      return &img;
  }
  return nullptr;
}

// The PNG of change `c` at the image's size: as given, or scaled with --resize.
Result<image::Rgba> image_pixels(const EditRequest& req, const EditChange& c, const Image2& img) {
  const std::string what = fmt::format("the image '{}'", c.name);
  ASSAY_CHECK(require_png(req, c, what));
  ASSAY_TRY(image::Rgba top, read_source_png(c.data, edit_source(req, c), what));
  if (top.width == img.width && top.height == img.height) return top;
  switch (edit_size_rule(req)) {
    case EditSizeRule::resize: return image::resize(top, img.width, img.height);
    case EditSizeRule::png:
      return usage_error(fmt::format("{}: an igz image keeps its size and _data (--png-size cannot apply); use --resize", what));
    case EditSizeRule::refuse: break;
  }
  return usage_error(fmt::format("{} is {} x {}, {} is {} x {}: give --resize to scale it (an igz image keeps its size)",
                                 edit_source(req, c), top.width, top.height, what, img.width, img.height));
}

// Image `img` re-encoded from change `c` into `out` (the file's bytes); its report line.
Result<ImageReplaced> replace_image(const EditRequest& req, const EditChange& c, const Image2& img, const OpenOptions& o,
                           ByteBuffer& out) {
  if (img.data.where != ImageData::Where::pool)
    return usage_error(fmt::format("the image '{}' keeps no pixels in this file ({})", c.name,
                                   img.data.where == ImageData::Where::external ? img.data.reference : "no _data"));
  ASSAY_TRY(image::Rgba top, image_pixels(req, c, img));
  ASSAY_TRY(std::vector<image::Rgba> levels, image::mip_chain(top, img.levels));
  ASSAY_TRY(ByteBuffer data, encode_image2(img, levels));
  if (data.size() > img.data.size || img.data.offset > out.size() || data.size() > out.size() - img.data.offset)
    return detail::err("igImage2", img.data.offset,
                       fmt::format("{} bytes of pixels do not fit its _data of {} bytes", data.size(), img.data.size));
  std::memcpy(out.data() + img.data.offset, data.data(), data.size());
  ASSAY_TRY(IgzFile edited, IgzFile::open(out, o));
  ASSAY_TRY(image::Rgba back, decode_image2(edited, img, 0));
  return ImageReplaced{c.name, &img, data.size(), image::psnr(top, back)};
}

}  // namespace

Result<Json> edit_format(const Input& in, const EditRequest& req) {
  if (in.is_directory) return usage_error(in.name + " is a folder, not an igz file");
  ASSAY_TRY(const std::filesystem::path target, edit_target(in, req));
  ASSAY_TRY(const assay::ContainerOptions co, container_options(req.read));
  const OpenOptions o{co.igz.pointer_size};
  ASSAY_TRY(const IgzFile f, IgzFile::open(in.bytes, o));
  ASSAY_TRY(const Fixups fx, decode_fixups(f));
  const Graph g = build_graph(f, fx, nullptr);
  const std::vector<Image2> images = find_images(f, fx, g);
  ByteBuffer out(in.bytes.begin(), in.bytes.end());
  std::vector<ImageReplaced> changes;
  for (const EditChange& c : req.changes) {
    if (c.op != EditOp::replace)
      return usage_error(fmt::format("{}: an igz file takes replace of an image only (its objects are not entries to add or remove)", c.name));
    const Image2* img = image_named(images, c.name);
    if (img == nullptr)
      return usage_error(fmt::format("{}: no image named '{}' (`assay list {}` shows the textures)", in.name, c.name, in.name));
    ASSAY_TRY(ImageReplaced line, replace_image(req, c, *img, o, out));
    changes.push_back(std::move(line));
  }
  ASSAY_CHECK(write_file_atomic(target, out, req.force || req.in_place));
  return edit_json(in.name, target.string(), req.in_place, changes);
}

}  // namespace assay::igz

// What the new data of a replace/add change must be, checked before it is decoded: a texture takes a PNG ("x.jpg is a JPEG, not a PNG"), and a PNG of another size than
// the texture it replaces is refused unless asked to resize it (or to keep its own size).
// The CLI (tools/assay/edit.cc) and the Python module record in ReadOptions::family the file
// each change's data came from and the size rule; the families read them here.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "assay/options.h"
#include "assay/image/encode.h"
#include "assay/image/resize.h"

namespace assay {

// ReadOptions::family key naming the file NAME's new data came from ("source:NAME" -> "x.jpg").
inline std::string edit_source_key(std::string_view name) { return "source:" + std::string(name); }

// The file the change's data came from, or "the data for NAME" when it was given as bytes.
inline std::string edit_source(const EditRequest& req, const EditChange& c) {
  auto it = req.read.family.find(edit_source_key(c.name));
  return it != req.read.family.end() && !it->second.empty() ? it->second : "the data for " + c.name;
}

// A usage error when the change's data is not a PNG: "x.jpg is a JPEG, not a PNG" (the kind
// read from its magic bytes), or "x.bin is not a PNG".
inline Result<void> require_png(const EditRequest& req, const EditChange& c, std::string_view what) {
  const std::string_view kind = image::image_file_kind(c.data);
  if (kind == "PNG") return {};
  const std::string src = edit_source(req, c);
  if (kind.empty()) return usage_error(fmt::format("{} is not a PNG ({} takes a PNG)", src, what));
  const bool an = kind == "ICO";  // "an ICO"
  return usage_error(fmt::format("{} is {} {}, not a PNG ({} takes a PNG)", src, an ? "an" : "a", kind, what));
}

// The PNG `source` holds, decoded: one that does not decode is the user's FILE, so a usage error
// naming it (exit 2), not a problem of the container.
inline Result<image::Rgba> read_source_png(ByteView png, const std::string& source, std::string_view what,
                                           const image::PngLimits& limits = {}) {
  auto img = image::read_png(png, limits);
  if (!img) return usage_error(fmt::format("{}: {} (the PNG for {})", source, img.error().str(), what));
  return img;
}

// How a replacement PNG of another size than the texture is taken: family["size"] is "resize"
// (`--resize`: scaled to the texture's size), "png" (`--png-size`: the texture takes the PNG's
// size) or absent (refused).
enum class EditSizeRule : std::uint8_t { refuse, resize, png };
inline EditSizeRule edit_size_rule(const EditRequest& req) {
  auto it = req.read.family.find("size");
  if (it == req.read.family.end()) return EditSizeRule::refuse;
  return it->second == "resize" ? EditSizeRule::resize : it->second == "png" ? EditSizeRule::png : EditSizeRule::refuse;
}

// The refusal: "b.png is 32 x 16, the texture 'tex' is 64 x 64: give --resize ... or --png-size ...".
inline Error size_mismatch_error(const std::string& source, std::string_view what, std::uint32_t w, std::uint32_t h,
                                 std::uint32_t tw, std::uint32_t th) {
  return usage_error(fmt::format("{} is {} x {}, {} is {} x {}: give --resize to scale it to {} x {}, or --png-size to "
                                 "make the texture {} x {}",
                                 source, w, h, what, tw, th, tw, th, w, h));
}

}  // namespace assay

// libFuzzer target: `assay replace|add|remove` on a RenderWare texture dictionary (issue 16).
// The input is a (hostile) .txd; byte 0 picks the edit: replace / add / remove of its first
// texture (or a new one) with a small fixed image. Any result must read back (edit_dictionary
// checks it itself) and never crash.
#include <cstddef>
#include <cstdint>

#include "assay/formats/renderware/edit.h"
#include "../src/formats/renderware/json.h"
#include "formats/serialise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  if (size < 2) return 0;
  static const ByteBuffer kPng = [] {
    image::Rgba img{8, 8, ByteBuffer(8 * 8 * 4)};
    for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = static_cast<std::uint8_t>(i * 7);
    return *image::encode_png(img);
  }();
  const ByteView txd(data + 1, size - 1);
  auto d = rw::TextureDictionary::open(txd, 0, {}, {});
  std::string first = d && !d->textures().empty() ? std::string(d->textures()[0].name) : "t";
  const auto op = static_cast<EditOp>(data[0] % 3);
  EditChange c{op, op == EditOp::add ? std::string("fuzz_new") : first, op == EditOp::remove ? ByteBuffer{} : kPng};
  rw::DictionaryEditOptions opt;
  opt.threads = 1;
  opt.encode.threads = 1;
  opt.encode.speed = 10;
  rw::DictionaryEditReport report;
  auto out = rw::edit_dictionary(txd, {c}, opt, report);
  (void)out;
  return 0;
}

// decode_clump and the export on damaged input: every truncation of a clump is an error (the
// clump section claims bytes that are gone), and byte mutations of a real skinned ped never
// crash (the ASan build checks every read) and every error carries a code.
#include <gtest/gtest.h>

#include "assay/formats/renderware/gltf_export.h"
#include "assay/formats/renderware/model.h"
#include "assay/formats/renderware/writer.h"
#include "assay/model/gltf.h"
#include "golden.h"
#include "testing/testing.h"

namespace assay {
namespace {

// Decodes and exports `b`; false when decode_clump refused it. An error without a code fails.
bool decode_and_export(ByteView b) {
  auto c = rw::decode_clump(b);
  if (!c.ok()) {
    EXPECT_FALSE(c.error().code.empty()) << c.error().str();
    return false;
  }
  rw::ExportNotes notes;
  auto scene = rw::clump_scene(std::move(*c), "x", {}, notes);
  if (scene.ok()) {
    auto glb = model::write_glb(*scene);
    if (glb.ok()) {
      EXPECT_EQ(glb->size() % 4, 0u);  // GLB chunks are 4-byte aligned
    }
  }
  return true;
}

TEST(RwModelSweep, EveryTruncationIsAnError) {
  const ByteBuffer dff = rw::writer::clump(
      {.frames = 2, .geometries = {{4, 2, "tex"}, {3, 1, ""}}, .node_names = {"root", "child"}});
  ASSERT_TRUE(decode_and_export(dff));
  for (std::size_t n = 0; n < dff.size(); ++n)
    EXPECT_FALSE(decode_and_export(ByteView(dff.data(), n))) << "cut at " << n;
}

TEST(RwModelSweep, MutatedSkinnedPedNeverCrashes) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/rw-parser/wuzimu.dff");
  ByteBuffer b = testing::read_file(p);
  ASSERT_TRUE(decode_and_export(b));
  std::size_t refused = 0, tried = 0;
  for (std::size_t at = 0; at < b.size(); at += 13) {
    for (std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0xFF}, static_cast<std::uint8_t>(b[at] + 1)}) {
      const std::uint8_t keep = b[at];
      b[at] = v;
      refused += !decode_and_export(b);
      ++tried;
      b[at] = keep;
    }
  }
  EXPECT_GT(refused, 0u);  // some mutations hit sizes and counts
  EXPECT_LT(refused, tried);
}

// Every byte of a 2d Effect plugin (counts, sizes, texts) set to 0x00, 0xFF and +1: never a crash.
TEST(RwModelSweep, MutatedTwoDEffectsNeverCrash) {
  rw::writer::ClumpDesc d;
  d.geometries[0].plugins.push_back({0x0253F2F8, testing::two_effects()});
  ByteBuffer b = rw::writer::clump(d);
  ASSERT_TRUE(decode_and_export(b));
  const std::size_t body = testing::two_effects().size();
  std::size_t start = 0;
  for (std::size_t i = 0; i + 4 <= b.size(); ++i)
    if (b[i] == 0xF8 && b[i + 1] == 0xF2 && b[i + 2] == 0x53 && b[i + 3] == 0x02) start = i + 12;
  ASSERT_GT(start, 0u);
  for (std::size_t at = start; at < start + body; ++at)
    for (std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0xFF}, static_cast<std::uint8_t>(b[at] + 1)}) {
      const std::uint8_t keep = b[at];
      b[at] = v;
      decode_and_export(b);
      b[at] = keep;
    }
}

}  // namespace
}  // namespace assay

// verify's model checks: a bounding sphere too small for its positions is a warning with its
// code; the real files (whose spheres hold every position, by librw's golden) raise none.
#include <gtest/gtest.h>

#include <cstring>

#include "assay/container.h"
#include "testing/testing.h"

namespace assay {
namespace {

std::vector<std::string> model_codes(ByteBuffer bytes) {
  auto c = open(Input::from_buffer("m.dff", std::move(bytes)), {}, "renderware");
  EXPECT_TRUE(c.ok());
  if (!c.ok()) return {};
  Diagnostics d;
  (*c)->verify(d);
  std::vector<std::string> codes;
  for (const Diagnostic& x : d.items())
    if (x.where.code == "renderware.bounding-sphere" || x.where.code == "renderware.skin-bones" ||
        x.where.code == "renderware.binmesh-indices")
      codes.push_back(x.where.code);
  return codes;
}

TEST(RwModelVerify, SphereTooSmallIsAWarning) {
  ASSAY_REQUIRE_SAMPLE(p, "renderware/rw-parser/wuzimu.dff");
  ByteBuffer b = testing::read_file(p);
  EXPECT_TRUE(model_codes(b).empty());
  // wuzimu (samples README, golden): one clump at 0, geometry flags 0x36 (one UV set, no
  // prelit), 990 vertices, 1,218 triangles, RW 3.6: the radius is at struct body + 16 +
  // 990 x 8 + 1,218 x 8 + 12. The geometry section is found by its id 0x0F and size.
  std::size_t geometry = 0;
  for (std::size_t at = 0; at + 24 < b.size(); ++at) {
    std::uint32_t id, vertices;
    std::memcpy(&id, b.data() + at, 4);
    std::memcpy(&vertices, b.data() + at + 24 + 8, 4);
    if (id == 0x0F && vertices == 990) geometry = at;
  }
  ASSERT_NE(geometry, 0u);
  const std::size_t radius = geometry + 24 + 16 + 990 * 8 + 1218 * 8 + 12;
  const float tiny = 0.01f;
  std::memcpy(b.data() + radius, &tiny, 4);
  EXPECT_EQ(model_codes(b), std::vector<std::string>{"renderware.bounding-sphere"});
}

TEST(RwModelVerify, RealFilesRaiseNone) {
  for (const char* rel : {"renderware/more/mh1_ps2_MODELS.DFF", "renderware/more2/industrialpark_Torus_rw3403_hanim.dff"}) {
    ASSAY_REQUIRE_SAMPLE(p, rel);
    EXPECT_TRUE(model_codes(testing::read_file(p)).empty()) << rel;
  }
}

}  // namespace
}  // namespace assay

// D3D8 (platform 8) and D3D9 (platform 9) native geometry decoded from hand-made Native Data
// (d3d_native_fixture.h, whose comment works the model out by hand): positions, normals,
// D3DCOLOR prelit (B, G, R, A bytes -> RGBA), UV sets (the D3D9 second set from stream 1),
// triangle lists and strips per mesh (strip winding alternates; repeated-corner triangles
// skipped), materials per mesh; each layout error named with its offset; truncations and
// mutations never crash; the fuzz corpus seeds are these fixtures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "assay/core/diag.h"
#include "assay/formats/renderware/gltf_export.h"
#include "assay/formats/renderware/model.h"
#include "assay/model/gltf.h"
#include "d3d_native_fixture.h"
#include "testing/testing.h"

namespace rw_d3d_native_test {
namespace {

using namespace assay;
using namespace assay::rw;
namespace fx = assay::rw::d3d_native_fixture;

// Where `body` (the Native Data body) starts in `file`.
std::size_t body_at(const ByteBuffer& file, const ByteBuffer& body) {
  const auto it = std::search(file.begin(), file.end(), body.begin(), body.begin() + 24);
  EXPECT_NE(it, file.end());
  return static_cast<std::size_t>(it - file.begin());
}

// The decoded geometry equals the hand-worked model: every vertex found by its position with
// its normal, UVs and colour; the triangles as (mesh, corner) triples with their materials.
void expect_model(const ModelGeometry& g, std::size_t uv_sets, bool d3d9) {
  EXPECT_FALSE(g.native);
  ASSERT_EQ(g.vertices, 8u);
  ASSERT_EQ(g.morph_targets.size(), 1u);
  const auto& mt = g.morph_targets[0];
  ASSERT_EQ(mt.positions.size(), 8u);
  ASSERT_EQ(mt.normals.size(), 8u);
  ASSERT_EQ(g.prelit.size(), 8u);
  ASSERT_EQ(g.texcoords.size(), uv_sets);
  std::vector<std::pair<int, int>> who(8, {-1, -1});  // decoded vertex -> (mesh, v)
  for (std::size_t i = 0; i < 8; ++i) {
    for (int m = 0; m < 2; ++m)
      for (int v = 0; v < 4; ++v)
        if (fx::vertex(m, v).position == mt.positions[i]) who[i] = {m, v};
    ASSERT_GE(who[i].first, 0) << "vertex " << i << " is at no expected position";
    const fx::Vertex x = fx::vertex(who[i].first, who[i].second);
    EXPECT_EQ(mt.normals[i], x.normal) << i;
    EXPECT_EQ(g.prelit[i], x.rgba) << i;
    EXPECT_EQ(g.texcoords[0][i], x.uv) << i;
    if (uv_sets > 1) {
      EXPECT_EQ(g.texcoords[1][i], (std::array<float, 2>{1 - x.uv[0], 1 - x.uv[1]})) << i;
    }
  }
  std::vector<std::array<int, 4>> got;
  for (const ModelTriangle& t : g.triangles) {
    const int m = who[t.v[0]].first;
    EXPECT_EQ(who[t.v[1]].first, m);
    EXPECT_EQ(who[t.v[2]].first, m);
    EXPECT_EQ(t.material, m);
    got.push_back({m, who[t.v[0]].second, who[t.v[1]].second, who[t.v[2]].second});
  }
  EXPECT_EQ(got, fx::expected_triangles(d3d9));
}

TEST(RwD3dNative, D3d8MeshesListAndStrip) {
  Diagnostics d;
  auto c = decode_clump(fx::d3d8_clump(), 0, d.sink());
  ASSERT_TRUE(c.ok()) << c.error().str();
  EXPECT_TRUE(d.items().empty());
  ASSERT_EQ(c->geometries.size(), 1u);
  expect_model(c->geometries[0], 1, false);
}

// Records 44 bytes apart (the size librw's writer reserves per record) read the same.
TEST(RwD3dNative, D3d8RecordsFortyFourBytesApart) {
  auto c = decode_clump(fx::d3d8_clump(44));
  ASSERT_TRUE(c.ok()) << c.error().str();
  expect_model(c->geometries[0], 1, false);
}

// A zero vertex shader: librw's layout from the geometry flags (the same bytes here).
TEST(RwD3dNative, D3d8ZeroFvfUsesTheGeometryFlags) {
  ByteBuffer f = fx::d3d8_clump();
  const std::size_t at = body_at(f, fx::d3d8_native_body());
  for (std::size_t fvf : {at + 44, at + 87}) {
    ASSERT_EQ(load<std::uint32_t>(f.data() + fvf, Endian::little), 0x152u);
    std::fill_n(f.begin() + static_cast<std::ptrdiff_t>(fvf), 4, 0);
  }
  auto c = decode_clump(f);
  ASSERT_TRUE(c.ok()) << c.error().str();
  expect_model(c->geometries[0], 1, false);
}

TEST(RwD3dNative, D3d9DeclarationStreamsAndStrips) {
  Diagnostics d;
  auto c = decode_clump(fx::d3d9_clump(), 0, d.sink());
  ASSERT_TRUE(c.ok()) << c.error().str();
  EXPECT_TRUE(d.items().empty());
  expect_model(c->geometries[0], 2, true);
}

// Packed element types (FLOAT16_4 positions, UBYTE4N colours, FLOAT16_2 UVs, DEC3N normals,
// their encodings worked out by hand in the fixture) decode to the same model.
TEST(RwD3dNative, D3d9PackedElementTypes) {
  EXPECT_EQ(fx::half_of(0.375f), 0x3600);  // 1.5 x 2^-2: exponent 13, fraction 0x200
  EXPECT_EQ(fx::dec3n_of({0, 0, 1}), 0x1FF00000u);
  Diagnostics d;
  auto c = decode_clump(fx::d3d9_clump(true), 0, d.sink());
  ASSERT_TRUE(c.ok()) << c.error().str();
  EXPECT_TRUE(d.items().empty());
  expect_model(c->geometries[0], 2, true);
}

// One byte (or word) changed at `rel` in the Native Data body: decode_clump's error, with its
// code and file offset.
Error mutated_error(ByteBuffer f, const ByteBuffer& body, std::size_t rel, std::uint32_t value, int bytes = 4) {
  const std::size_t at = body_at(f, body) + rel;
  for (int k = 0; k < bytes; ++k) f[at + k] = static_cast<std::uint8_t>(value >> (8 * k));
  auto c = decode_clump(f);
  EXPECT_FALSE(c.ok());
  return c.ok() ? Error{} : c.error();
}

void expect_error(const Error& e, std::size_t offset, const std::string& text) {
  EXPECT_EQ(e.code, "renderware.native-geometry") << e.str();
  EXPECT_EQ(e.offset, offset) << e.str();
  EXPECT_NE(e.message.find(text), std::string::npos) << e.str();
}

TEST(RwD3dNative, D3d9LayoutErrorsNameTheirOffsets) {
  const ByteBuffer f = fx::d3d9_clump(), body = fx::d3d9_native_body();
  const std::size_t at = body_at(f, body);
  const std::size_t e0 = fx::kD3d9Elements;
  expect_error(mutated_error(f, body, e0 + 4, 18, 1), at + e0 + 4, "vertex element 0: unknown type 18");
  expect_error(mutated_error(f, body, e0 + 8 + 6, 14, 1), at + e0 + 8 + 6, "vertex element 1: unknown usage 14");
  expect_error(mutated_error(f, body, e0, 2, 2), at + e0, "no POSITION element");
  expect_error(mutated_error(f, body, e0 + 4, 1, 1), at + e0, "POSITION has type 1");
  expect_error(mutated_error(f, body, e0 + 2, 30, 2), at + e0 + 2, "offset 30 (12 bytes) past stream 0's stride 36");
  expect_error(mutated_error(f, body, 32, 6), at + 32, "primitive type 6");
  expect_error(mutated_error(f, body, fx::kD3d9Header, 66), at + fx::kD3d9Header, "66 vertex elements");
  const std::size_t idx = e0 + 7 * 8;
  expect_error(mutated_error(f, body, idx, 9, 2), at + idx, "mesh 0: index 9 (+ minVert 0) of 8 vertices");
  expect_error(mutated_error(f, body, 20 + 64 + 36 + 8, 2), at + 20 + 64 + 36 + 8, "mesh 1 names material 2 of 2");
  expect_error(mutated_error(f, body, 20 + 64 + 36 + 28, 7), at + 20 + 64 + 36, "mesh 1: indices 7..11 of 10");
  expect_error(mutated_error(f, body, 20 + 60, 100000), at + idx + 20 + 8, "stream 0: 100000 vertices of 36 bytes");
}

TEST(RwD3dNative, D3d8LayoutErrorsNameTheirOffsets) {
  const ByteBuffer f = fx::d3d8_clump(), body = fx::d3d8_native_body();
  const std::size_t at = body_at(f, body);
  expect_error(mutated_error(f, body, 44, 0x144), at + 44, "transformed (XYZRHW)");
  expect_error(mutated_error(f, body, 44, 0x153), at + 44, "not a fixed-function vertex format");
  expect_error(mutated_error(f, body, 48, 6), at + 48, "mesh 0: primitive type 6");
  expect_error(mutated_error(f, body, 28, 20), at + 28, "mesh 0: stride 20 is less than vertex format 0x00000152's 36 bytes");
  expect_error(mutated_error(f, body, 40, 2), at + 40, "mesh 0 names material 2 of 2");
  const std::size_t idx0 = 20 + 4 + 2 * 44;  // mesh 0's indices follow the 92-byte header block
  expect_error(mutated_error(f, body, idx0 + 2, 4, 2), at + idx0 + 2, "mesh 0: index 4 of 4 vertices");
  expect_error(mutated_error(f, body, 20 + 4 + 43 + 8, 1000), at + 20 + 4 + 43 + 8, "mesh 1: 1000 vertices of 36 bytes");
  expect_error(mutated_error(f, body, 16, 5000), at + 16, "a 5000-byte header");
}

// A Skin PLG on D3D native geometry: no known layout (librw reads none); a warning, and the
// atomic stays native (left out of the model), as for any platform or pipeline not decoded.
TEST(RwD3dNative, SkinnedD3dGeometryIsAWarning) {
  ByteWriter sk;
  sk.u32(id::kStruct), sk.u32(4), sk.u32(fx::kStamp), sk.u32(9);
  const ByteBuffer f = fx::native_clump(fx::d3d9_native_body(), fx::kD3d9Flags, true,
                                        {writer::section(id::kSkin, sk.buffer(), fx::kStamp)});
  Diagnostics d;
  auto c = decode_clump(f, 0, d.sink());
  ASSERT_TRUE(c.ok()) << c.error().str();
  EXPECT_TRUE(c->geometries.at(0).native);
  EXPECT_TRUE(c->geometries[0].triangles.empty());
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].where.code, "renderware.native-pipeline");
  EXPECT_NE(d.items()[0].where.message.find("D3D9"), std::string::npos) << d.items()[0].where.message;
}

// Decodes and exports `b`; false when decode_clump refused it (with a code).
bool decode_and_export(ByteView b) {
  auto c = decode_clump(b);
  if (!c.ok()) {
    EXPECT_FALSE(c.error().code.empty()) << c.error().str();
    return false;
  }
  ExportNotes notes;
  if (auto scene = clump_scene(std::move(*c), "x", {}, notes); scene.ok()) (void)model::write_glb(*scene);
  return true;
}

TEST(RwD3dNative, EveryTruncationIsAnError) {
  for (const ByteBuffer& f : {fx::d3d8_clump(), fx::d3d9_clump()}) {
    ASSERT_TRUE(decode_and_export(f));
    for (std::size_t n = 0; n < f.size(); ++n) EXPECT_FALSE(decode_and_export(ByteView(f.data(), n))) << "cut at " << n;
  }
}

// Every byte of each Native Data body set to 0x00, 0xFF and +1: never a crash (the ASan build
// checks every read), every error with a code, some refused.
TEST(RwD3dNative, MutatedNativeDataNeverCrashes) {
  for (const auto& [f0, body] : {std::pair{fx::d3d8_clump(), fx::d3d8_native_body()},
                                 std::pair{fx::d3d9_clump(), fx::d3d9_native_body()},
                                 std::pair{fx::d3d9_clump(true), fx::d3d9_native_body(true)}}) {
    ByteBuffer f = f0;
    const std::size_t at = body_at(f, body);
    std::size_t refused = 0;
    for (std::size_t i = at; i < at + body.size(); ++i) {
      const std::uint8_t keep = f[i];
      for (std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0xFF}, static_cast<std::uint8_t>(keep + 1)}) {
        f[i] = v;
        refused += !decode_and_export(f);
      }
      f[i] = keep;
    }
    EXPECT_GT(refused, 0u);
  }
}

// The fuzz target rw_model's seeds are these fixtures, byte for byte (ASSAY_WRITE_SEEDS=1
// writes them).
TEST(RwD3dNative, FuzzSeedsAreTheFixtures) {
  const std::filesystem::path dir = std::filesystem::path(ASSAY_SOURCE_DIR) / "fuzz" / "corpus" / "rw_model";
  if (std::getenv("ASSAY_WRITE_SEEDS")) {
    for (const auto& [name, bytes] : {std::pair{"d3d8_native.dff", fx::d3d8_clump()}, std::pair{"d3d9_native.dff", fx::d3d9_clump()},
                                      std::pair{"d3d9_native_packed.dff", fx::d3d9_clump(true)}}) {
      std::FILE* out = std::fopen((dir / name).string().c_str(), "wb");
      ASSERT_NE(out, nullptr);
      std::fwrite(bytes.data(), 1, bytes.size(), out);
      std::fclose(out);
    }
  }
  EXPECT_EQ(assay::testing::read_file(dir / "d3d8_native.dff"), fx::d3d8_clump());
  EXPECT_EQ(assay::testing::read_file(dir / "d3d9_native.dff"), fx::d3d9_clump());
  EXPECT_EQ(assay::testing::read_file(dir / "d3d9_native_packed.dff"), fx::d3d9_clump(true));
}

}  // namespace
}  // namespace rw_d3d_native_test

// igz models on 64-bit platforms (issue #28 item 3): writer fixtures in the 64-bit version 9 layout
// and the Crash NST / CTR version 10 layouts (model_fixture.h lists the sources of every offset).
// The raw bytes at the documented offsets are checked by hand first (so the fixture is what the
// sources say), then the reader's positions, indices, bounds checks, transforms, JSON and a sweep.
// The glTF side (tinygltf, Khronos validator) is tests/model/igz_model64_test.cc.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <memory>

#include "assay/container.h"
#include "assay/formats/igz/model.h"
#include "formats/serialise.h"
#include "model_fixture.h"
#include "testing/testing.h"

namespace assay {
namespace igz_model64_test {
namespace {

using igz::fixtures::FixtureLayout;

struct Case {
  FixtureLayout layout;
  bool data_handle;
  const char* name;        // the reader's layout name
  std::uint32_t vb_count;  // igVertexBuffer::_vertexCount offset (sources, not the reader)
  std::uint32_t vb_data;   // igVertexBuffer::_data offset
};
// v9_64: NoesisPlugins fmt_alchemy_igz.py 0x0C / 0x20; nst: NST editor igVertexBuffer.cs nst: 16 / 40;
// ctr: ctr: 12 / 32.
const Case kCases[] = {{FixtureLayout::v9_64, true, "64-bit version 9", 0x0C, 0x20},
                       {FixtureLayout::nst, false, "64-bit NST", 16, 40},
                       {FixtureLayout::nst, true, "64-bit NST", 16, 40},
                       {FixtureLayout::ctr, false, "64-bit CTR", 12, 32}};

igz::fixtures::ModelSpec spec(const Case& c) {
  auto s = igz::fixtures::triangle_spec(Endian::little);
  s.layout = c.layout;
  s.data_handle = c.data_handle;
  return s;
}

struct Read {
  std::shared_ptr<const ByteBuffer> bytes;
  igz::IgzFile file;
  igz::Fixups fixups;
  igz::Graph graph;
  std::size_t model_object = igz::kNoObject;
  Result<igz::Model> model = Error{};
};
Read read(ByteBuffer b) {
  auto bytes = std::make_shared<const ByteBuffer>(std::move(b));
  auto f = igz::IgzFile::open(*bytes);
  if (!f.ok()) throw std::runtime_error("fixture does not open: " + f.error().str());
  auto fx = igz::decode_fixups(*f);
  if (!fx.ok()) throw std::runtime_error("fixture fixups: " + fx.error().str());
  Read r{bytes, *f, *fx, igz::build_graph(*f, *fx, nullptr)};
  const auto models = igz::find_models(r.file, r.graph);
  EXPECT_EQ(models.size(), 1u);
  if (models.empty()) return r;
  r.model_object = models[0];
  r.model = igz::read_model(r.file, r.fixups, r.graph, models[0]);
  return r;
}

std::size_t object_of(const igz::Graph& g, std::string_view type) {
  for (std::size_t i = 0; i < g.objects.size(); ++i)
    if (g.objects[i].type_name == type) return i;
  return igz::kNoObject;
}

std::unique_ptr<Container> open_bytes(ByteBuffer b) {
  auto c = open(Input::from_buffer("fixture64.igz", std::move(b)));
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().str());
  return c.ok() ? std::move(*c) : nullptr;
}

std::vector<Diagnostic> diagnostics(const Container& c, Severity s) {
  Diagnostics d;
  c.verify(d);
  std::vector<Diagnostic> out;
  for (const Diagnostic& x : d.items())
    if (x.severity == s) out.push_back(x);
  return out;
}

class IgzModel64 : public ::testing::TestWithParam<Case> {};

// The fixture's bytes at the sources' offsets, read by hand: the vertex buffer's count, and its
// _data (a u64 TMHN index, or {u32 size 36, u32 flags 0x01100000, u64 pointer}); then the reader
// finds the same vertex bytes and decodes the positions stored there.
TEST_P(IgzModel64, FieldsWhereTheSourcesPutThem) {
  const Case& c = GetParam();
  auto b = igz::fixtures::build_model_igz(spec(c));
  ASSERT_TRUE(b.ok()) << b.error().str();
  const Read r = read(*b);
  ASSERT_EQ(r.file.header().pointer_size, 8u);
  const std::size_t vb = object_of(r.graph, "igVertexBuffer");
  ASSERT_NE(vb, igz::kNoObject);
  const std::uint64_t at = r.graph.objects[vb].position;
  const ByteReader rd = r.file.reader();
  EXPECT_EQ(*rd.u32(at + c.vb_count, "count"), 3u);
  if (c.data_handle) {
    EXPECT_EQ(*rd.u64(at + c.vb_data, "handle"), 0u);  // TMHN 0: the vertex bytes come first
  } else {
    EXPECT_EQ(*rd.u32(at + c.vb_data, "size"), 36u);  // 3 FLOAT3 vertices
    EXPECT_EQ(*rd.u32(at + c.vb_data + 4, "flags"), 0x01100000u);
  }
  ASSERT_TRUE(r.model.ok()) << r.model.error().str();
  const igz::Model& m = *r.model;
  EXPECT_EQ(m.layout, c.name);
  EXPECT_NE(m.layout_assumption.find("no real file has shown this layout"), std::string::npos);
  EXPECT_EQ(m.name, "fixture_model");
  ASSERT_EQ(m.draws.size(), 1u);
  const igz::DrawCall& d = m.draws[0];
  EXPECT_EQ(d.name, "fixture_draw");
  EXPECT_EQ(d.vertices.count, 3u);
  EXPECT_EQ(d.vertices.stride, 12u);
  EXPECT_EQ(d.vertices.data.size, 36u);
  EXPECT_EQ(d.indices.format, "i16_cafe");
  EXPECT_EQ(d.indices.count, 3u);
  EXPECT_EQ(d.properties, 0x4052u);
  EXPECT_EQ(d.primitive_count, 1);
  // The float at the vertex bytes' position + 4 is vertex 0's y = 2.0 (0x40000000), little-endian.
  EXPECT_EQ(std::bit_cast<float>(*rd.u32(d.vertices.data.offset + 4, "y")), 2.0f);
  auto geo = igz::decode_draw(r.file, d);
  ASSERT_TRUE(geo.ok()) << geo.error().str();
  EXPECT_EQ(geo->positions, (std::vector<model::Vec3>{{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}}));
  EXPECT_EQ(geo->triangles, (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(d.min, (model::Vec4{-4, -8, 0.5f, 0}));
  EXPECT_EQ(m.max, (model::Vec4{7, 5, 6, 1}));
}

TEST_P(IgzModel64, ContainerEntryVerifiesCleanAndSaysAssumed) {
  auto b = igz::fixtures::build_model_igz(spec(GetParam()));
  ASSERT_TRUE(b.ok());
  auto c = open_bytes(*b);
  ASSERT_TRUE(c);
  EXPECT_TRUE(diagnostics(*c, Severity::warning).empty());
  EXPECT_TRUE(diagnostics(*c, Severity::error).empty());
  ASSERT_GE(c->entries().size(), 2u);
  const Entry& e = c->entries()[1];  // [0] the root igObjectList
  ASSERT_EQ(e.kind, EntryKind::model);
  EXPECT_EQ(e.path, "0001_fixture_model.glb");
  const Json details = details_json(*c, e);
  EXPECT_EQ(details["model"]["layout"], GetParam().name);
  EXPECT_NE(details["model"]["assumed"].get<std::string>().find("no real file"), std::string::npos);
  EXPECT_EQ(details["model"]["draw_calls"][0]["vertices"], 3);
  auto glb = c->model(e);
  ASSERT_TRUE(glb.ok()) << glb.error().str();
  EXPECT_EQ(std::string(glb->begin(), glb->begin() + 4), "glTF");
}

// Stored figures that differ are warned at the 64-bit field positions: _min at +0x20,
// _primitiveCount at +0x68 (igRewrite7 64-bit column; NST editor 32 and 104).
TEST_P(IgzModel64, StoredFiguresAreCheckedAtTheirFields) {
  auto s = spec(GetParam());
  s.min[1] = -7.5f;  // the vertices' min y is -8
  s.primitive_count = 4;
  auto b = igz::fixtures::build_model_igz(s);
  ASSERT_TRUE(b.ok());
  const Read r = read(*b);
  ASSERT_TRUE(r.model.ok());
  const std::uint64_t draw = r.graph.objects[object_of(r.graph, "igModelDrawCallData")].position;
  auto c = open_bytes(*b);
  const auto w = diagnostics(*c, Severity::warning);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NE(w[0].where.message.find("stored bounds (-4, -7.5, 0.5)..(7, 5, 6) differ"), std::string::npos) << w[0].where.message;
  EXPECT_EQ(w[0].where.offset, draw + 0x20);
  EXPECT_NE(w[1].where.message.find("says 4 primitives, the index buffer holds 1 triangles"), std::string::npos);
  EXPECT_EQ(w[1].where.offset, draw + 0x68);
}

TEST_P(IgzModel64, TransformAtItsMatrixField) {
  auto s = spec(GetParam());
  s.transform = model::Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1};
  const Read r = read(*igz::fixtures::build_model_igz(s));
  ASSERT_TRUE(r.model.ok()) << r.model.error().str();
  ASSERT_EQ(r.model->transforms.size(), 1u);
  EXPECT_EQ(r.model->draws.at(0).transform, 0u);
  auto scene = igz::model_scene(r.file, *r.model);
  ASSERT_TRUE(scene.ok()) << scene.error().str();
  EXPECT_EQ(scene->nodes.at(1).translation, (model::Vec3{10, 20, 30}));
}

// CTR on Switch: index formats for IG_GFX_PLATFORM NX ("i16_nx"; the NST editor's EIG_GFX_PLATFORM
// has NX = 2), and the vertex-type caveat of version 10 in the assumption.
TEST(IgzModel64Layouts, SwitchIndexFormat) {
  auto s = spec(kCases[3]);
  s.index_format = "i16_nx";
  const Read r = read(*igz::fixtures::build_model_igz(s));
  ASSERT_TRUE(r.model.ok()) << r.model.error().str();
  EXPECT_EQ(r.model->draws.at(0).indices.format, "i16_nx");
  EXPECT_EQ(r.model->draws.at(0).indices.index_size, 2u);
  EXPECT_NE(r.model->layout_assumption.find("vertex types numbered as version 9's"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Layouts, IgzModel64, ::testing::ValuesIn(kCases),
                         [](const auto& i) { return std::string(i.param.layout == FixtureLayout::v9_64 ? "v9_64" : i.param.layout == FixtureLayout::nst ? "nst" : "ctr") + (i.param.data_handle ? "_handle" : ""); });

// Version 10: the table follows the MTSZ sizes of the buffers and formats (the editor's ObjectAttr:
// igVertexBuffer NST 104, CTR 96), and the two files differ (CTR's buffer fields 4 bytes earlier).
TEST(IgzModel64Layouts, NstAndCtrAreTold) {
  auto nst = igz::fixtures::build_model_igz(spec(kCases[1]));
  auto ctr = igz::fixtures::build_model_igz(spec(kCases[3]));
  ASSERT_TRUE(nst.ok() && ctr.ok());
  const Read rn = read(*nst), rc = read(*ctr);
  ASSERT_TRUE(rn.model.ok() && rc.model.ok());
  EXPECT_EQ(rn.model->layout, "64-bit NST");
  EXPECT_EQ(rc.model->layout, "64-bit CTR");
  EXPECT_NE(*nst, *ctr);
}

// ---- skins ------------------------------------------------------------------------------------

class IgzModelSkin : public ::testing::TestWithParam<std::pair<Endian, FixtureLayout>> {};

// The skinned fixture (model_fixture.h skinned_spec): bones, parents and blend matrices as written,
// BLENDINDICES mapped through _blendMatrixIndices {1, 0} to the skin's joints (hip joint 0, leg
// joint 1), the bones' local transforms from the inverse joint matrices (hip at (0, 1, 0), leg 0.5
// below it).
TEST_P(IgzModelSkin, JointsThroughTheBlendMatrixIndices) {
  const auto [endian, layout] = GetParam();
  auto b = igz::fixtures::build_model_igz(igz::fixtures::skinned_spec(endian, layout));
  ASSERT_TRUE(b.ok()) << b.error().str();
  const Read r = read(*b);
  ASSERT_TRUE(r.model.ok()) << r.model.error().str();
  const igz::Model& m = *r.model;
  ASSERT_TRUE(m.skeleton.has_value()) << (m.notes.empty() ? "" : m.notes[0]);
  const igz::Skeleton& sk = *m.skeleton;
  EXPECT_EQ(sk.name, "fixture_skeleton");
  ASSERT_EQ(sk.bones.size(), 3u);
  EXPECT_EQ(sk.bones[0].name, "root");
  EXPECT_EQ(sk.bones[0].parent, -1);
  EXPECT_EQ(sk.bones[0].blend_matrix, -1);
  EXPECT_EQ(sk.bones[2].name, "leg");
  EXPECT_EQ(sk.bones[2].parent, 1);
  EXPECT_EQ(sk.bones[1].translation, (model::Vec3{0, 1, 0}));
  ASSERT_EQ(sk.inverse_joints.size(), 2u);
  EXPECT_EQ(sk.inverse_joints[1][13], -0.5f);
  EXPECT_EQ(m.blend_matrix_indices, (std::vector<std::int32_t>{1, 0}));
  EXPECT_EQ(m.draws.at(0).blend_count, 2);
  EXPECT_EQ(m.draws.at(0).blend_offset, 0);
  auto geo = igz::decode_draw(r.file, m.draws[0]);
  ASSERT_TRUE(geo.ok()) << geo.error().str();
  using J = std::array<std::uint16_t, 4>;
  EXPECT_EQ(geo->blend_indices, (std::vector<J>{{0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}}));
  EXPECT_FLOAT_EQ(geo->blend_weights[2][0], 128.0f / 255);
  auto scene = igz::model_scene(r.file, m);
  ASSERT_TRUE(scene.ok()) << scene.error().str();
  ASSERT_EQ(scene->skins.size(), 1u);
  const model::Skin& skin = scene->skins[0];
  ASSERT_EQ(skin.joints.size(), 2u);
  EXPECT_EQ(scene->nodes[skin.joints[0]].name, "hip");
  EXPECT_EQ(scene->nodes[skin.joints[1]].name, "leg");
  EXPECT_EQ(scene->nodes[skin.joints[0]].translation, (model::Vec3{0, 1, 0}));
  EXPECT_EQ(scene->nodes[skin.joints[1]].translation, (model::Vec3{0, -0.5f, 0}));
  EXPECT_EQ(skin.inverse_bind[1], sk.inverse_joints[1]);
  const model::Mesh& mesh = scene->meshes.at(0);
  EXPECT_EQ(mesh.joints, (std::vector<J>{{1, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}}));
  EXPECT_EQ(mesh.weights[0], (model::Vec4{1, 0, 0, 0}));
  EXPECT_FLOAT_EQ(mesh.weights[2][0], 128.0f / 255);
  EXPECT_FLOAT_EQ(mesh.weights[2][1], 127.0f / 255);
  const model::Node& drawn = scene->nodes.back();
  EXPECT_EQ(drawn.skin, 0u);
  EXPECT_FALSE(drawn.parent.has_value());  // glTF: a skinned mesh node is a root
  auto c = open_bytes(*b);
  EXPECT_TRUE(diagnostics(*c, Severity::warning).empty());
  EXPECT_TRUE(diagnostics(*c, Severity::error).empty());
  const Json details = details_json(*c, c->entries()[1]);
  EXPECT_EQ(details["model"]["skeleton"]["bones"], 3);
  EXPECT_EQ(details["model"]["skeleton"]["inverse_joints"], 2);
}

// A BLENDINDICES slot past _blendVectorCount: the mesh exports unskinned and verify warns.
TEST_P(IgzModelSkin, SlotPastTheBlendVectorIsWarned) {
  const auto [endian, layout] = GetParam();
  auto s = igz::fixtures::skinned_spec(endian, layout);
  s.skin->blend_count = 1;  // vertex 1 uses slot 1
  auto b = igz::fixtures::build_model_igz(s);
  ASSERT_TRUE(b.ok());
  const Read r = read(*b);
  ASSERT_TRUE(r.model.ok());
  auto scene = igz::model_scene(r.file, *r.model);
  ASSERT_TRUE(scene.ok());
  EXPECT_TRUE(scene->meshes.at(0).joints.empty());
  auto c = open_bytes(*b);
  const auto w = diagnostics(*c, Severity::warning);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].where.message.find("vertex 1: index 1 ≥ _blendVectorCount 1"), std::string::npos) << w[0].where.message;
}

INSTANTIATE_TEST_SUITE_P(Layouts, IgzModelSkin,
                         ::testing::Values(std::pair{Endian::big, FixtureLayout::v32}, std::pair{Endian::little, FixtureLayout::nst},
                                           std::pair{Endian::little, FixtureLayout::v9_64}, std::pair{Endian::little, FixtureLayout::ctr}));

// Every byte of the skinned NST fixture set to 0x00, 0xFF and flipped, and truncations of it and of
// the version 9 64-bit one: opening, listing, model() and verify never crash (errors are fine).
TEST(IgzModel64Sweep, MutationsAndTruncationsNeverCrash) {
  auto nst = igz::fixtures::build_model_igz(igz::fixtures::skinned_spec(Endian::little, FixtureLayout::nst));
  auto v9 = igz::fixtures::build_model_igz(spec(kCases[0]));
  ASSERT_TRUE(nst.ok() && v9.ok());
  igz::fixtures::sweep_model_file(*nst);
  igz::fixtures::sweep_model_file(*v9, false);
}

// Writes the 64-bit and skinned seeds of fuzz/corpus/igz_model/ when ASSAY_WRITE_IGZ_MODEL_CORPUS
// names a folder.
TEST(IgzModel64Sweep, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_MODEL_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_MODEL_CORPUS to write the corpus";
  auto b = igz::fixtures::build_model_igz(spec(kCases[1]));
  ASSERT_TRUE(b.ok());
  testing::write_file(std::filesystem::path(dir) / "triangle_nst64.igz", *b);
  b = igz::fixtures::build_model_igz(spec(kCases[0]));
  ASSERT_TRUE(b.ok());
  testing::write_file(std::filesystem::path(dir) / "triangle_v9_64.igz", *b);
  b = igz::fixtures::build_model_igz(igz::fixtures::skinned_spec(Endian::little, FixtureLayout::nst));
  ASSERT_TRUE(b.ok());
  testing::write_file(std::filesystem::path(dir) / "skinned_nst64.igz", *b);
}

}  // namespace
}  // namespace igz_model64_test
}  // namespace assay

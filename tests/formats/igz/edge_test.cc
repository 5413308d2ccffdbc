// PS3 EDGE geometry (issue #28 item 3): the index decompression on streams made by hand, a writer
// fixture decoded to the values put in it, zap.pak's five EDGE models checked against what the
// file itself says (the igGeometry's igAABox, the segment's counts) and against geometry (face
// windings against the stored vertex normals), the verify checks and a truncation/mutation sweep.
// The GLBs' validator run is tests/model/igz_model_test.cc.
#include <gtest/gtest.h>

#include <bit>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

#include "assay/container.h"
#include "assay/formats/igz/edge.h"
#include "edge_fixture.h"
#include "testing/testing.h"

namespace assay {
namespace igz_edge_test {
namespace {

using Tris = std::vector<std::uint32_t>;

Tris decompress(const ByteBuffer& b, std::uint32_t count) {
  auto t = igz::decompress_edge_indexes(b, count);
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().str());
  return t.ok() ? *t : Tris{};
}

TEST(EdgeIndexes, SequentialNewIndexesAndTheThreeKeepRules) {
  // 3 triangles, no unique index: 1-bit stream 0x00 (new indexes 0, 1, 2, 3, 4), 2-bit stream
  // 11 01 10 00 = 0xD8: (0, 1, 2); config 1 keeps corners 2 and 1: (2, 1, 3); config 2 swaps
  // corners 0 and 1: (1, 2, 4).
  EXPECT_EQ(decompress({0, 0, 0, 0, 0, 1, 0, 0, 0x00, 0xD8}, 9), (Tris{0, 1, 2, 2, 1, 3, 1, 2, 4}));
  // config 0 keeps corners 0 and 2: 11 00 0000 = 0xC0 -> (0, 1, 2), (0, 2, 3)
  EXPECT_EQ(decompress({0, 0, 0, 0, 0, 1, 0, 0, 0x00, 0xC0}, 6), (Tris{0, 1, 2, 0, 2, 3}));
}

TEST(EdgeIndexes, UniqueIndexesMinusTheBaseDelta) {
  // 1 unique index, base delta 2, 4 bits: stored 1001 = 9 -> 7. 1-bit stream 0001 0000: new
  // indexes 0, 1, 2 sequential, then the unique 7. 2-bit 11 00: (0, 1, 2), (0, 2, 7).
  EXPECT_EQ(decompress({0, 1, 0, 2, 0, 1, 4, 0, 0x10, 0xC0, 0x90}, 6), (Tris{0, 1, 2, 0, 2, 7}));
}

TEST(EdgeIndexes, FromTheNinthUniqueIndexTheOneEightBeforeIsAdded) {
  // 9 unique indexes of 8 bits, base 0: 10..17, then 5 + the first (10) = 15. 1-bit stream nine
  // 1s (FF 80), 2-bit 11 11 11 00 = FC: three triangles of three unique indexes each.
  ByteBuffer b = {0, 9, 0, 0, 0, 2, 8, 0, 0xFF, 0x80, 0xFC, 10, 11, 12, 13, 14, 15, 16, 17, 5};
  EXPECT_EQ(decompress(b, 9), (Tris{10, 11, 12, 13, 14, 15, 16, 17, 15}));
}

TEST(EdgeIndexes, StreamsThatRunOutAreErrors) {
  // the 2-bit stream of 2 triangles does not fit
  EXPECT_FALSE(igz::decompress_edge_indexes(ByteBuffer{0, 0, 0, 0, 0, 1, 0, 0, 0x00}, 6).ok());
  // 3 new indexes in a 1-bit stream of 8 bits are fine; 3 triangles of 3 new ones need 9
  auto e = igz::decompress_edge_indexes(ByteBuffer{0, 0, 0, 0, 0, 1, 0, 0, 0x00, 0xFC}, 9);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("1-bit stream"), std::string::npos) << e.error().message;
  // a 1 bit asking for a unique index when there is none
  e = igz::decompress_edge_indexes(ByteBuffer{0, 0, 0, 0, 0, 1, 0, 0, 0x80, 0xC0}, 3);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("unique index 1 of 0"), std::string::npos) << e.error().message;
  EXPECT_FALSE(igz::decompress_edge_indexes(ByteBuffer{0, 0, 0, 0}, 3).ok());                         // no header
  EXPECT_FALSE(igz::decompress_edge_indexes(ByteBuffer{0, 0, 0, 0, 0, 1, 0, 0, 0, 0xC0}, 4).ok());  // not whole triangles
  EXPECT_FALSE(igz::decompress_edge_indexes(ByteBuffer{0, 1, 0, 0, 0, 1, 17, 0, 0x80, 0xC0, 0, 0, 0}, 3).ok());  // 17 bits
}

struct Opened {
  std::unique_ptr<Container> c;
  const Entry* model = nullptr;
};
Opened open_fixture(const igz::fixtures::EdgeSpec& s) {
  auto b = igz::fixtures::build_edge_igz(s);
  EXPECT_TRUE(b.ok());
  auto c = open(Input::from_buffer("fixture.igz", std::move(*b)));
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().str());
  Opened o{c.ok() ? std::move(*c) : nullptr};
  if (o.c)
    for (const Entry& e : o.c->entries())
      if (e.kind == EntryKind::model) o.model = &e;
  return o;
}

std::vector<Diagnostic> diagnostics(const Container& c) {
  Diagnostics d;
  c.verify(d);
  return d.items();
}

// The fixture's igPS3EdgeGeometry read through the library; the file views `bytes`, kept alive here.
struct ReadEdge {
  std::shared_ptr<const ByteBuffer> bytes;
  std::optional<igz::IgzFile> file;
  std::optional<igz::EdgeGeometry> edge;
};
ReadEdge read_fixture(const igz::fixtures::EdgeSpec& spec) {
  ReadEdge r;
  auto b = igz::fixtures::build_edge_igz(spec);
  if (!b.ok()) throw std::runtime_error("fixture not built");
  r.bytes = std::make_shared<const ByteBuffer>(std::move(*b));
  auto f = igz::IgzFile::open(*r.bytes);
  if (!f.ok()) throw std::runtime_error("fixture does not open: " + f.error().str());
  r.file = *f;
  auto fx = igz::decode_fixups(*f);
  if (!fx.ok()) throw std::runtime_error("fixups: " + fx.error().str());
  const igz::Graph g = igz::build_graph(*f, *fx, nullptr);
  for (std::size_t i = 0; i < g.objects.size(); ++i)
    if (g.objects[i].type_name == "igPS3EdgeGeometry") {
      auto e = igz::read_edge_geometry(*f, *fx, g, i);
      if (!e.ok()) throw std::runtime_error("edge geometry: " + e.error().str());
      r.edge = *e;
    }
  if (!r.edge) throw std::runtime_error("no igPS3EdgeGeometry");
  return r;
}

TEST(EdgeFixture, DecodesToTheValuesWritten) {
  const ReadEdge r = read_fixture({});
  const auto& f = r.file;
  const auto& e = r.edge;
  ASSERT_EQ(e->segments.size(), 1u);
  EXPECT_EQ(e->segments[0].vertex_count, 4u);
  EXPECT_EQ(e->segments[0].index_count, 6u);
  ASSERT_TRUE(e->min && e->max);
  EXPECT_EQ(*e->max, (model::Vec4{1, 1, 0, 1}));
  auto d = igz::decode_edge_segment(*f, e->segments[0]);
  ASSERT_TRUE(d.ok()) << d.error().str();
  EXPECT_EQ(d->positions, (std::vector<model::Vec3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}));
  EXPECT_EQ(d->triangles, (Tris{0, 1, 2, 2, 1, 3}));
  ASSERT_EQ(d->normals.size(), 4u);
  EXPECT_EQ(d->normals[3], (model::Vec3{0, 0, 1}));  // z 511 / 511
  ASSERT_EQ(d->texcoords.size(), 1u);
  EXPECT_EQ(d->texcoords[0][3], (model::Vec2{1, 1}));  // F16 0x3C00
  ASSERT_EQ(d->colors.size(), 4u);
  EXPECT_EQ(d->colors[2], (model::Rgba8{128, 0x80, 0xFF, 0xFF}));
  EXPECT_EQ(d->notes.size(), 1u);  // the tangent is left out
}

TEST(EdgeFixture, IsAModelEntryThatVerifiesCleanly) {
  const Opened o = open_fixture({});
  ASSERT_NE(o.model, nullptr);
  EXPECT_EQ(o.model->path, fmt::format("{:04}_fixture.glb", o.model->index));
  for (const Diagnostic& d : diagnostics(*o.c)) EXPECT_LT(d.severity, Severity::warning) << d.where.message;
  auto glb = o.c->model(*o.model);
  ASSERT_TRUE(glb.ok()) << glb.error().str();
  EXPECT_EQ(std::string(glb->begin(), glb->begin() + 4), "glTF");
}

TEST(EdgeFixture, StoredBoundsThatDifferAreAWarning) {
  igz::fixtures::EdgeSpec s;
  s.box_max = {2, 1, 0};
  const Opened o = open_fixture(s);
  int warnings = 0;
  for (const Diagnostic& d : diagnostics(*o.c))
    if (d.severity == Severity::warning) {
      ++warnings;
      EXPECT_NE(d.where.message.find("stored bounds (0, 0, 0)..(2, 1, 0) differ from the decoded positions' (0, 0, 0)..(1, 1, 0)"), std::string::npos)
          << d.where.message;
    }
  EXPECT_EQ(warnings, 1);
}

TEST(EdgeFixture, WhatIsNotDecodedSaysSo) {
  igz::fixtures::EdgeSpec s;
  s.input_format = 1;
  const Opened o = open_fixture(s);
  ASSERT_NE(o.model, nullptr);
  auto glb = o.c->model(*o.model);
  ASSERT_FALSE(glb.ok());
  EXPECT_EQ(glb.error().kind, ErrorKind::unsupported);
  EXPECT_NE(glb.error().message.find("SPU input format 1"), std::string::npos) << glb.error().message;
  s = {};
  s.indexes = {0, 0, 0, 0, 0, 1, 0, 0, 0x00, 0xF0};  // three new indexes twice: 0, 1, 2, 3, 4, 5 over 4 vertices
  const Opened bad = open_fixture(s);
  auto e = bad.c->model(*bad.model);
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.error().message.find("index 4 is 4, past the segment's 4 vertices"), std::string::npos) << e.error().message;
  bool error = false;
  for (const Diagnostic& d : diagnostics(*bad.c)) error = error || d.severity == Severity::error;
  EXPECT_TRUE(error);
}

TEST(EdgeFixture, SkinnedThroughThePaletteToTheBones) {
  igz::fixtures::EdgeSpec spec;
  spec.skinned = true;
  const ReadEdge r = read_fixture(spec);
  const auto& f = r.file;
  const auto& e = r.edge;
  ASSERT_TRUE(e->skin.has_value());
  EXPECT_EQ(e->skin->palette, (std::vector<std::int32_t>{1, 0}));
  ASSERT_EQ(e->skin->skeleton.bones.size(), 3u);
  EXPECT_EQ(e->skin->skeleton.bones[2].name, "b");
  auto w = igz::edge_segment_weights(*f, e->segments[0], *e->skin);
  ASSERT_TRUE(w.ok()) << w.error().str();
  // the skin's joints are the bones with a blend matrix in blend matrix order: a, b
  EXPECT_EQ(w->joints[0][0], 0u);  // palette 1 -> blend matrix 0 -> bone a
  EXPECT_EQ(w->weights[0], (model::Vec4{1, 0, 0, 0}));
  EXPECT_EQ(w->joints[1][0], 1u);  // palette 0 -> blend matrix 1 -> bone b
  EXPECT_EQ(w->joints[1][1], 0u);
  EXPECT_FLOAT_EQ(w->weights[1][0], 128.0f / 255);
  EXPECT_FLOAT_EQ(w->weights[1][1], 127.0f / 255);
  auto scene = igz::edge_scene(*f, *e, "skinned");
  ASSERT_TRUE(scene.ok()) << scene.error().str();
  ASSERT_EQ(scene->skins.size(), 1u);
  EXPECT_EQ(scene->skins[0].joints.size(), 2u);
  // bone b's node: its bind pose y = 1 (the inverse of the translation by -1), relative to a at 0
  const model::Node& b = scene->nodes[scene->skins[0].joints[1]];
  EXPECT_EQ(b.name, "b");
  EXPECT_NEAR(b.translation[1], 1.0f, 1e-6f);
}

TEST(EdgeFixture, TruncationAndMutationSweepStaysClean) {
  auto exercise = [](ByteBuffer b) {
    auto c = open(Input::from_buffer("m.igz", std::move(b)));
    if (!c.ok()) return;
    for (const Entry& e : (*c)->entries())
      if (e.kind == EntryKind::model) (void)(*c)->model(e);
    Diagnostics d;
    (*c)->verify(d);
  };
  igz::fixtures::EdgeSpec skinned;
  skinned.skinned = true;
  for (const auto& spec : {igz::fixtures::EdgeSpec{}, skinned}) {
    const auto good = igz::fixtures::build_edge_igz(spec);
    ASSERT_TRUE(good.ok());
    for (std::size_t n = 0; n < good->size(); n += 7) exercise(ByteBuffer(good->begin(), good->begin() + n));
    for (std::size_t i = 0; i < good->size(); ++i) {
      ByteBuffer b = *good;
      b[i] ^= static_cast<std::uint8_t>(0x5A + i);
      exercise(std::move(b));
    }
  }
}

TEST(EdgeFixture, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_EDGE_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_EDGE_CORPUS to write the corpus";
  auto b = igz::fixtures::build_edge_igz({});
  ASSERT_TRUE(b.ok());
  testing::write_file(std::filesystem::path(dir) / "quad.igz", *b);
  igz::fixtures::EdgeSpec skinned;
  skinned.skinned = true;
  auto sb = igz::fixtures::build_edge_igz(skinned);
  ASSERT_TRUE(sb.ok());
  testing::write_file(std::filesystem::path(dir) / "skinned_quad.igz", *sb);
  // an index stream alone: its count (6) in the first two bytes, then the stream
  testing::write_file(std::filesystem::path(dir) / "indexes.bin", ByteBuffer{0, 6, 0, 1, 0, 2, 0, 1, 4, 0, 0x10, 0xC0, 0x90});
}

// ---- zap.pak's models, read in place ----

float be_float(const ByteBuffer& f, std::uint64_t at) {
  return std::bit_cast<float>(std::uint32_t{f[at]} << 24 | std::uint32_t{f[at + 1]} << 16 | std::uint32_t{f[at + 2]} << 8 | f[at + 3]);
}

// How many vertices the triangles use.
std::size_t vertices_used(const igz::DrawGeometry& d) {
  std::vector<bool> used(d.positions.size());
  for (std::uint32_t t : d.triangles) used.at(t) = true;
  return static_cast<std::size_t>(std::count(used.begin(), used.end(), true));
}

// How many triangles face the way their corners' stored normals point (counter-clockwise fronts).
int windings_agreeing(const igz::DrawGeometry& d) {
  int agree = 0;
  for (std::size_t t = 0; t + 2 < d.triangles.size(); t += 3) {
    const auto& a = d.positions[d.triangles[t]];
    const auto& b = d.positions[d.triangles[t + 1]];
    const auto& c = d.positions[d.triangles[t + 2]];
    const model::Vec3 u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const model::Vec3 n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    float dot = 0;
    for (unsigned k = 0; k < 3; ++k)
      for (unsigned q = 0; q < 3; ++q) dot += n[k] * d.normals[d.triangles[t + q]][k];
    agree += dot > 0;
  }
  return agree;
}

TEST(EdgeZap, ZapwaveDecodesToItsStoredBoundsAndCounts) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  const std::string path = zap.string() + "::models\\characters\\skylanders\\zap\\zapwave.igz";
  auto c = open_path(path);
  ASSERT_TRUE(c.ok()) << c.error().str();
  auto raw = (*c)->input().bytes;
  const ByteBuffer file(raw.begin(), raw.end());
  // igPS3EdgeGeometry is object 24; igGeometry[18]'s _bound is igAABox[19] at file 0x18E0
  // (Geometry pool at 0x18B0 + 0x30): min at +8, max at +0x14.
  const Entry& e = (*c)->entries()[24];
  ASSERT_EQ(e.kind, EntryKind::model);
  EXPECT_EQ(e.path, "0024_zapwave.glb");
  auto f = igz::IgzFile::open(raw);
  ASSERT_TRUE(f.ok());
  auto fx = igz::decode_fixups(*f);
  ASSERT_TRUE(fx.ok());
  const igz::Graph g = igz::build_graph(*f, *fx, nullptr);
  auto edge = igz::read_edge_geometry(*f, *fx, g, 24);
  ASSERT_TRUE(edge.ok()) << edge.error().str();
  ASSERT_EQ(edge->segments.size(), 1u);
  // The igFxMaterialNode above it names its material by EXID 61ea6045::8cbcc515: FNV-1a of the
  // lower-cased TDEP namespace "zapwave_igb_materials" and of the node's _name "ZapWave".
  EXPECT_EQ(edge->material, "zapwave_igb_materials::ZapWave");
  auto d = igz::decode_edge_segment(*f, edge->segments[0]);
  ASSERT_TRUE(d.ok()) << d.error().str();
  // _spuConfigInfo at Default + 0x270 = 0xDB4: 00bb 028e -> 187 vertices, 654 indices
  EXPECT_EQ(file[0xDB4 + 8] << 8 | file[0xDB4 + 9], 187);
  ASSERT_EQ(d->positions.size(), 187u);
  ASSERT_EQ(d->triangles.size(), 654u);
  model::Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  for (const auto& p : d->positions)
    for (unsigned k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
  for (unsigned k = 0; k < 3; ++k) {
    EXPECT_EQ(lo[k], be_float(file, 0x18E0 + 8 + 4 * k)) << k;
    EXPECT_EQ(hi[k], be_float(file, 0x18E0 + 0x14 + 4 * k)) << k;
  }
  // every vertex is used, and the faces' windings agree with the stored normals (216 of 218:
  // two are slivers)
  EXPECT_EQ(vertices_used(*d), 187u);
  const int agree = windings_agreeing(*d);
  EXPECT_GE(agree, 216);
}

TEST(EdgeZap, EveryEdgeModelDecodesAndVerifies) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  int models = 0;
  for (const char* m : {"zapwave", "zapminiwave", "waterdragon2jetpack", "waterdragon2jetpackl2"}) {
    auto c = open_path(zap.string() + "::models\\characters\\skylanders\\zap\\" + m + ".igz");
    ASSERT_TRUE(c.ok()) << c.error().str();
    for (const Entry& e : (*c)->entries()) {
      if (e.kind != EntryKind::model) continue;
      ++models;
      auto glb = (*c)->model(e);
      EXPECT_TRUE(glb.ok()) << m << " " << e.path << ": " << (glb.ok() ? "" : glb.error().str());
    }
    for (const Diagnostic& d : diagnostics(**c)) EXPECT_LT(d.severity, Severity::warning) << m << ": " << d.where.message;
  }
  EXPECT_EQ(models, 5);  // waterdragon2jetpack holds two igPS3EdgeGeometry
}

// zap.pak's actor: skinned segments (flavour 1) whose normals are in the secondary SPU stream
// (input format 0xFF, described as NORMAL and TANGENT X11Y11Z10N in 8 bytes).
TEST(EdgeZap, ActorIsSkinnedToItsSkeleton) {
  ASSAY_REQUIRE_SAMPLE(zap, "alchemy/skylanders_zap.pak");
  auto c = open_path(zap.string() + "::actors\\zap.igz");
  ASSERT_TRUE(c.ok()) << c.error().str();
  auto f = igz::IgzFile::open((*c)->input().bytes);
  ASSERT_TRUE(f.ok());
  auto fx = igz::decode_fixups(*f);
  ASSERT_TRUE(fx.ok());
  const igz::Graph g = igz::build_graph(*f, *fx, nullptr);
  auto edge = igz::read_edge_geometry(*f, *fx, g, 86);
  ASSERT_TRUE(edge.ok()) << edge.error().str();
  ASSERT_EQ(edge->segments.size(), 3u);
  const igz::EdgeSegment& s = edge->segments[0];
  // _spuConfigInfo 83 12 00 ff 01 ff 31 00 | 0608 208e: 1544 vertices, 8334 indices, skinning 1
  EXPECT_EQ(s.vertex_count, 1544u);
  EXPECT_EQ(s.index_count, 8334u);
  EXPECT_EQ(s.secondary_input_format, 0xFF);
  EXPECT_EQ(s.skinning_flavor, 1);
  auto d = igz::decode_edge_segment(*f, s);
  ASSERT_TRUE(d.ok()) << d.error().str();
  ASSERT_EQ(d->normals.size(), 1544u);
  EXPECT_EQ(vertices_used(*d), 1544u);
  const int agree = windings_agreeing(*d);
  EXPECT_GE(agree, 2770);  // of 2778
  // The skin: igBlendMatrixSelect[65] above it (_blendMatrixIndices: 29 entries 6, 7, 0, 5, 9, 4, ...),
  // igSkeleton2 "DefaultSkeleton_0" with 32 bones and 31 inverse joint matrices.
  ASSERT_TRUE(edge->skin.has_value());
  EXPECT_EQ(edge->skin->select, 65u);
  ASSERT_EQ(edge->skin->palette.size(), 29u);
  EXPECT_EQ(edge->skin->palette[3], 5);
  EXPECT_EQ(edge->skin->skeleton.bones.size(), 32u);
  EXPECT_EQ(edge->skin->skeleton.inverse_joints.size(), 31u);
  EXPECT_EQ(edge->skin->skeleton.bones[1].name, "Bone Root");
  // Vertex 0's {weight, palette index} pairs c3 03 | 2b 00 | 11 05 | 00 00: palette[3] = 5,
  // palette[0] = 6, palette[5] = 4 are blend matrices 5, 6, 4 (of bones 6, 7, 5): the skin's
  // joints are the bones with a blend matrix in blend matrix order, 0-30 here, so joints 5, 6, 4;
  // weights 195, 43, 17 of 255.
  auto w = igz::edge_segment_weights(*f, s, *edge->skin);
  ASSERT_TRUE(w.ok()) << w.error().str();
  EXPECT_EQ(w->joints[0][0], 5u);
  EXPECT_EQ(w->joints[0][1], 6u);
  EXPECT_EQ(w->joints[0][2], 4u);
  EXPECT_FLOAT_EQ(w->weights[0][0], 195.0f / 255);
  EXPECT_FLOAT_EQ(w->weights[0][1], 43.0f / 255);
  EXPECT_FLOAT_EQ(w->weights[0][2], 17.0f / 255);
  EXPECT_EQ(w->weights[0][3], 0.0f);
}

}  // namespace
}  // namespace igz_edge_test
}  // namespace assay

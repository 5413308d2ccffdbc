// igz models (issue #28 item 3): vertex values decoded by hand for every IG_VERTEX_TYPE read, the
// Wii U sample igModelTool_model.igz read in place (values and bounds computed here from its bytes
// at documented offsets), fixtures from our writer in both byte orders, the stored-figure checks,
// a truncation/mutation sweep and the fuzz corpus. The glTF side (Khronos
// validator, tinygltf) is tests/model/igz_model_test.cc.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "assay/container.h"
#include "assay/formats/igz/model.h"
#include "model_fixture.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay {
namespace igz_model_test {
namespace {

using igz::VertexElement;
using igz::decode_vertex_value;
namespace vt = igz::vertex_type;
namespace vu = igz::vertex_usage;

constexpr const char* kSample = "alchemy/igModelTool_model.igz";
constexpr std::uint64_t kVertexPool = 0x110D;    // section 3 (pool 2 'Vertex'): header +0x48 = 0x0000110D
constexpr std::uint64_t kDraw0Vertices = kVertexPool;            // TMHN[0] data 0x10000000: pool 2 + 0
constexpr std::uint64_t kDraw0Indices = kVertexPool + 0x333E0;   // TMHN[1] data 0x100333E0
constexpr std::uint64_t kDraw1Vertices = kVertexPool + 0x385E0;  // TMHN[2] data 0x100385E0

model::Vec4 decode(std::uint8_t type, const ByteBuffer& b, Endian e = Endian::big) {
  auto v = decode_vertex_value(type, b, e);
  EXPECT_TRUE(v.ok()) << (v.ok() ? "" : v.error().str());
  return v.ok() ? *v : model::Vec4{NAN, NAN, NAN, NAN};
}

float be_float(const ByteBuffer& f, std::uint64_t at) {
  const std::uint32_t u = std::uint32_t{f[at]} << 24 | std::uint32_t{f[at + 1]} << 16 | std::uint32_t{f[at + 2]} << 8 | f[at + 3];
  return std::bit_cast<float>(u);
}

std::unique_ptr<Container> open_bytes(ByteBuffer b, const std::string& name = "fixture.igz") {
  auto c = open(Input::from_buffer(name, std::move(b)));
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().str());
  return c.ok() ? std::move(*c) : nullptr;
}

const Entry* model_entry(const Container& c) {
  for (const Entry& e : c.entries())
    if (e.kind == assay::EntryKind::model) return &e;
  return nullptr;
}

std::vector<std::string> messages(const Container& c, Severity s) {
  Diagnostics d;
  c.verify(d);
  std::vector<std::string> out;
  for (const Diagnostic& x : d.items())
    if (x.severity == s) out.push_back(x.where.structure + ": " + x.where.message);
  return out;
}

// The one model of a fixture, read through the library.
// The file views its bytes, so Read keeps them alive.
struct Read {
  std::shared_ptr<const ByteBuffer> bytes;
  igz::IgzFile file;
  igz::Model model;
};
Read read_fixture(ByteBuffer b) {
  auto bytes = std::make_shared<const ByteBuffer>(std::move(b));
  auto f = igz::IgzFile::open(*bytes);
  if (!f.ok()) throw std::runtime_error("fixture does not open: " + f.error().str());
  auto fx = igz::decode_fixups(*f);
  EXPECT_TRUE(fx.ok());
  const igz::Graph g = igz::build_graph(*f, *fx, nullptr);
  const auto models = igz::find_models(*f, g);
  EXPECT_EQ(models.size(), 1u);
  auto m = igz::read_model(*f, *fx, g, models.at(0));
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().str());
  return {bytes, *f, m.ok() ? *m : igz::Model{}};
}

// ---- vertex types decoded by hand ------------------------------------------------------------

TEST(IgzModelVertex, TypeNamesFromTheEnum) {
  // IG_VERTEX_TYPE and IG_VERTEX_USAGE values (igRewrite8 EV_SkylandersSuperchargers/metaenums.xml)
  EXPECT_EQ(igz::vertex_type_name(2), "FLOAT3");
  EXPECT_EQ(igz::vertex_type_name(40), "DEC3N");
  EXPECT_EQ(igz::vertex_type_name(42), "HALF2");
  EXPECT_EQ(igz::vertex_type_name(44), "UNUSED");
  EXPECT_EQ(igz::vertex_type_name(54), "SHORT4N_EDGE");
  EXPECT_EQ(igz::vertex_type_name(56), "");
  EXPECT_EQ(igz::vertex_usage_name(5), "TEXCOORD");
  EXPECT_EQ(igz::vertex_usage_name(8), "BLENDINDICES");
  EXPECT_EQ(igz::vertex_type_size(2), 12u);
  EXPECT_EQ(igz::vertex_type_size(40), 4u);
  EXPECT_EQ(igz::vertex_type_size(34), 6u);  // SHORT3N
}

TEST(IgzModelVertex, FloatsBothByteOrders) {
  // 1.0 = 3F800000, -2.0 = C0000000, 0.5 = 3F000000
  const model::Vec4 be = decode(vt::kFloat3, {0x3F, 0x80, 0, 0, 0xC0, 0, 0, 0, 0x3F, 0, 0, 0}, Endian::big);
  EXPECT_EQ(be, (model::Vec4{1, -2, 0.5f, 1}));
  const model::Vec4 le = decode(vt::kFloat3, {0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0, 0, 0, 0, 0x3F}, Endian::little);
  EXPECT_EQ(le, (model::Vec4{1, -2, 0.5f, 1}));
  EXPECT_EQ(decode(0 /*FLOAT1*/, {0x40, 0x40, 0, 0}), (model::Vec4{3, 0, 0, 1}));
  EXPECT_EQ(decode(3 /*FLOAT4*/, ByteBuffer{0x3F, 0x80, 0, 0, 0x3F, 0x80, 0, 0, 0x3F, 0x80, 0, 0, 0xBF, 0x80, 0, 0}),
            (model::Vec4{1, 1, 1, -1}));
}

TEST(IgzModelVertex, HalvesByHand) {
  // 0x3C00 = 1.0; 0xC000 = -2.0; 0x3555: exponent 13, mantissa 0x155 = 341 -> (1 + 341/1024) / 4;
  // 0x0001: the smallest subnormal, 2^-24; 0x7C00 infinity.
  EXPECT_EQ(decode(vt::kHalf2, {0x3C, 0x00, 0xC0, 0x00}), (model::Vec4{1, -2, 0, 1}));
  EXPECT_EQ(decode(vt::kHalf2, {0x55, 0x35, 0x01, 0x00}, Endian::little), (model::Vec4{0.333251953125f, 0x1p-24f, 0, 1}));
  EXPECT_EQ(decode(43 /*HALF4*/, {0x3C, 0, 0x3C, 0, 0x3C, 0, 0x80, 0}), (model::Vec4{1, 1, 1, -0.0f}));
  EXPECT_TRUE(std::isinf(igz::half_to_float(0x7C00)));
}

TEST(IgzModelVertex, Dec3NAndUdec3ByHand) {
  // x bits 0-9, y 10-19, z 20-29 of a u32 in file order; 10-bit two's complement / 511.
  // x = 0x1FF (511) -> 1; y = 0x201 (-511) -> -1; z = 0x200 (-512) -> clamped -1:
  // 0x200 << 20 | 0x201 << 10 | 0x1FF = 0x20080600 | 0x1FF = 0x200805FF
  EXPECT_EQ(decode(vt::kDec3N, {0x20, 0x08, 0x05, 0xFF}), (model::Vec4{1, -1, -1, 1}));
  // x = 0x100 (256), y = 0x3FF (-1), z = 0: 0x3FF << 10 | 0x100 = 0x000FFD00, little-endian 00 FD 0F 00
  const model::Vec4 v = decode(vt::kDec3N, {0x00, 0xFD, 0x0F, 0x00}, Endian::little);
  EXPECT_FLOAT_EQ(v[0], 256.0f / 511);
  EXPECT_FLOAT_EQ(v[1], -1.0f / 511);
  EXPECT_EQ(v[2], 0);
  // the sample's normal bytes 00 01 00 00 (big-endian 0x00010000): y = 0x40 = 64 -> 64/511
  const model::Vec4 n = decode(vt::kDec3N, {0x00, 0x01, 0x00, 0x00});
  EXPECT_EQ(n[0], 0);
  EXPECT_FLOAT_EQ(n[1], 64.0f / 511);
  EXPECT_EQ(n[2], 0);
  // UDEC3: x = 1023, y = 1, z = 512: 0x200 << 20 | 1 << 10 | 0x3FF = 0x200007FF
  EXPECT_EQ(decode(39 /*UDEC3*/, {0x20, 0x00, 0x07, 0xFF}), (model::Vec4{1023, 1, 512, 1}));
}

TEST(IgzModelVertex, IntegersByHand) {
  EXPECT_EQ(decode(33 /*SHORT2N*/, {0x7F, 0xFF, 0x80, 0x00}), (model::Vec4{1, -1, 0, 1}));  // -32768 clamps
  EXPECT_FLOAT_EQ(decode(33, {0x40, 0x00, 0, 0})[0], 16384.0f / 32767);
  EXPECT_EQ(decode(vt::kShort4N, {0, 0, 0x7F, 0xFF, 0x80, 0x01, 0x7F, 0xFF}), (model::Vec4{0, 1, -1, 1}));
  EXPECT_EQ(decode(34 /*SHORT3N*/, {0xFF, 0x7F, 0, 0, 0x01, 0x80}, Endian::little), (model::Vec4{1, 0, -1, 1}));
  EXPECT_EQ(decode(29 /*SHORT2*/, {0xFF, 0xFE, 0x00, 0x07}), (model::Vec4{-2, 7, 0, 1}));
  EXPECT_EQ(decode(47 /*USHORT3*/, {0xFF, 0xFF, 0, 1, 0, 2}), (model::Vec4{65535, 1, 2, 1}));
  EXPECT_EQ(decode(36 /*USHORT2N*/, {0xFF, 0xFF, 0, 0}), (model::Vec4{1, 0, 0, 1}));
  EXPECT_FLOAT_EQ(decode(38 /*USHORT4N*/, {0x80, 0, 0, 0, 0, 0, 0, 0})[0], 32768.0f / 65535);
  EXPECT_EQ(decode(11 /*INT1*/, {0xFF, 0xFF, 0xFF, 0xFD}), (model::Vec4{-3, 0, 0, 1}));
  EXPECT_EQ(decode(15 /*UINT2*/, {0, 0, 1, 0, 0, 0, 0, 9}), (model::Vec4{256, 9, 0, 1}));
  EXPECT_EQ(decode(17 /*INT1N*/, {0x7F, 0xFF, 0xFF, 0xFF}), (model::Vec4{1, 0, 0, 1}));
  EXPECT_EQ(decode(20 /*UINT1N*/, {0xFF, 0xFF, 0xFF, 0xFF}), (model::Vec4{1, 0, 0, 1}));
  EXPECT_EQ(decode(45 /*BYTE3N*/, {0x7F, 0x81, 0x00}), (model::Vec4{1, -1, 0, 1}));
  EXPECT_EQ(decode(50 /*BYTE3*/, {0xFF, 0x05, 0x80}), (model::Vec4{-1, 5, -128, 1}));
}

TEST(IgzModelVertex, BytesAndColoursByHand) {
  // UBYTE4(N): a u32 in the file's byte order, x its low byte (igRewrite7 and the Noesis plugin agree):
  // big-endian bytes 11 22 33 44 = 0x11223344 -> x 0x44; little-endian the same bytes -> x 0x11.
  EXPECT_EQ(decode(23 /*UBYTE4*/, {0x11, 0x22, 0x33, 0x44}), (model::Vec4{0x44, 0x33, 0x22, 0x11}));
  EXPECT_EQ(decode(23, {0x11, 0x22, 0x33, 0x44}, Endian::little), (model::Vec4{0x11, 0x22, 0x33, 0x44}));
  EXPECT_EQ(decode(26 /*UBYTE4N*/, {0xFF, 0, 0, 0}, Endian::little), (model::Vec4{1, 0, 0, 0}));
  EXPECT_EQ(decode(6 /*UBYTE4N_COLOR_RGBA*/, {255, 0, 255, 0}), (model::Vec4{1, 0, 1, 0}));
  EXPECT_EQ(decode(5 /*UBYTE4N_COLOR_ARGB*/, {0, 255, 0, 255}), (model::Vec4{1, 0, 1, 0}));
}

TEST(IgzModelVertex, UndecodedTypesSaySo) {
  for (std::uint8_t t : {4, 7, 8, 25, 28, 41, 44, 48, 53, 54, 55, 200}) {
    auto v = decode_vertex_value(t, ByteBuffer(16, 0), Endian::big);
    ASSERT_FALSE(v.ok()) << int(t);
    EXPECT_EQ(v.error().kind, ErrorKind::unsupported) << int(t);
    EXPECT_NE(v.error().message.find("is not decoded"), std::string::npos) << v.error().message;
  }
  auto short_input = decode_vertex_value(vt::kFloat3, ByteBuffer(8, 0), Endian::big);
  EXPECT_FALSE(short_input.ok());
}

TEST(IgzModelVertex, ElementLayout) {
  // igVertexElement {u8 type, stream, mapToElement, count, usage, usageIndex, packDataOffset,
  // packTypeAndFracHint, u16 offset, u16 freq}: the sample's second element at file 0xD08
  // (28 00 00 00 01 00 00 00 00 0C 00 00) is DEC3N NORMAL at +12.
  const VertexElement e = igz::parse_vertex_element(ByteBuffer{0x28, 0, 0, 0, 1, 0, 0, 0, 0x00, 0x0C, 0, 0}, Endian::big);
  EXPECT_EQ(e.type, vt::kDec3N);
  EXPECT_EQ(e.usage, vu::kNormal);
  EXPECT_EQ(e.offset, 12);
  EXPECT_EQ(igz::parse_vertex_element(ByteBuffer{0x2A, 1, 2, 3, 5, 1, 0, 0, 0x10, 0x00, 0x02, 0x00}, Endian::little).offset, 16);
}

// ---- the Wii U sample ---------------------------------------------------------------------------

TEST(IgzModelSample, ModelEntryAndHandCheckedVertices) {
  ASSAY_REQUIRE_SAMPLE(path, kSample);
  const ByteBuffer bytes = testing::read_file(path);
  auto c = open_path(path.string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* e = model_entry(**c);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->index, 1u);  // igModelInfo at 0xB48; its _name (RSTR 0xB50 -> String + 0) "igSceneInfo0"
  EXPECT_EQ(e->path, "0001_igSceneInfo0.glb");
  const Json details = details_json(**c, *e);
  const auto& draws = details["model"]["draw_calls"];
  ASSERT_EQ(draws.size(), 2u);
  // igVertexBuffer[5] at 0xC80: _vertexCount (+0x08) 0x28FE = 10494; igVertexFormat[6] _vertexSize 0x14
  EXPECT_EQ(draws[0]["vertices"], 10494);
  EXPECT_EQ(draws[0]["stride"], 20);
  EXPECT_EQ(draws[1]["vertices"], 828);  // igVertexBuffer[11] at 0xE90: 0x33C
  EXPECT_EQ(draws[0]["index_format"], "i16_cafe");  // EXID[1] c3927e65::76f482e9 = fnv1a("indexformats")::fnv1a("i16_cafe")
  EXPECT_EQ(fnv1a32("i16_cafe", true), 0x76F482E9u);

  auto f = igz::IgzFile::open(bytes);
  ASSERT_TRUE(f.ok());
  auto fx = igz::decode_fixups(*f);
  ASSERT_TRUE(fx.ok());
  const igz::Graph g = igz::build_graph(*f, *fx, nullptr);
  auto m = igz::read_model(*f, *fx, g, 1);
  ASSERT_TRUE(m.ok()) << m.error().str();
  auto geo = igz::decode_draw(*f, m->draws.at(0));
  ASSERT_TRUE(geo.ok()) << geo.error().str();
  ASSERT_EQ(geo->positions.size(), 10494u);
  // vertex 0 at 0x110D: c0021954 41242bd4 c00bfc48 (FLOAT3), 00010000 (DEC3N), 3319 31d3 (HALF2)
  EXPECT_EQ(geo->positions[0], (model::Vec3{be_float(bytes, kDraw0Vertices), be_float(bytes, kDraw0Vertices + 4),
                                            be_float(bytes, kDraw0Vertices + 8)}));
  EXPECT_FLOAT_EQ(geo->positions[0][0], -2.0327959f);
  ASSERT_EQ(bytes[kDraw0Vertices + 16], 0x33);
  ASSERT_EQ(bytes[kDraw0Vertices + 17], 0x19);
  // 0x3319: exponent 12, mantissa 0x319 = 793 -> (1 + 793/1024) / 8; 0x31D3: mantissa 467 -> (1 + 467/1024) / 8
  ASSERT_EQ(geo->texcoords.size(), 1u);
  EXPECT_EQ(geo->texcoords[0][0], (model::Vec2{0.2218017578125f, 0.1820068359375f}));
  // vertex 5 (at +100): its position read from the bytes the same way
  EXPECT_EQ(geo->positions[5][1], be_float(bytes, kDraw0Vertices + 5 * 20 + 4));
  // normals: every vertex stores 00 01 00 00 -> (0, 64/511, 0), unit length (0, 1, 0)
  ASSERT_EQ(geo->normals.size(), 10494u);
  EXPECT_EQ(geo->normals[0], (model::Vec3{0, 1, 0}));
  // indices at Vertex + 0x333E0: 0000 0001 0002 ... (big-endian u16)
  ASSERT_EQ(geo->triangles.size(), 10494u);
  for (std::size_t i = 0; i < 6; ++i)
    EXPECT_EQ(geo->triangles[i], std::uint32_t{bytes[kDraw0Indices + 2 * i]} << 8 | bytes[kDraw0Indices + 2 * i + 1]);
  // draw 1's first position from its own buffer
  auto geo1 = igz::decode_draw(*f, m->draws.at(1));
  ASSERT_TRUE(geo1.ok());
  EXPECT_EQ(geo1->positions[0][2], be_float(bytes, kDraw1Vertices + 8));
  EXPECT_EQ(geo1->triangles.size(), 828u);
}

TEST(IgzModelSample, BoundsFromTheBytesAndTheStoredFiguresWarned) {
  ASSAY_REQUIRE_SAMPLE(path, kSample);
  const ByteBuffer bytes = testing::read_file(path);
  // Bounds of draw call 0 computed here: 10494 FLOAT3 positions, stride 20, from 0x110D.
  model::Vec3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  for (std::uint64_t i = 0; i < 10494; ++i)
    for (unsigned k = 0; k < 3; ++k) {
      const float v = be_float(bytes, kDraw0Vertices + 20 * i + 4 * k);
      lo[k] = std::min(lo[k], v), hi[k] = std::max(hi[k], v);
    }
  auto f = igz::IgzFile::open(bytes);
  auto fx = igz::decode_fixups(*f);
  const igz::Graph g = igz::build_graph(*f, *fx, nullptr);
  auto m = igz::read_model(*f, *fx, g, 1);
  ASSERT_TRUE(m.ok());
  auto geo = igz::decode_draw(*f, m->draws[0]);
  ASSERT_TRUE(geo.ok());
  model::Vec3 dlo{INFINITY, INFINITY, INFINITY}, dhi{-INFINITY, -INFINITY, -INFINITY};
  for (const auto& p : geo->positions)
    for (unsigned k = 0; k < 3; ++k) dlo[k] = std::min(dlo[k], p[k]), dhi[k] = std::max(dhi[k], p[k]);
  EXPECT_EQ(dlo, lo);
  EXPECT_EQ(dhi, hi);
  // The stored draw-call figures are igModelTool's placeholders (hYdos/igModelTool Program.cs
  // BuildMesh: _min (-1, -1, -1, 0), _max (1, 1, 1, 1), _propertiesBitField 0b100000001011100 =
  // IG_INDEX_TYPE_INT32, no _primitiveCount; its indices are written as u16 with format i16_cafe), and
  // the igModelData's bounds are the replaced model's: verify says so, one warning each.
  EXPECT_EQ(m->draws[0].min, (model::Vec4{-1, -1, -1, 0}));
  EXPECT_EQ(m->draws[0].primitive_count, 0);
  EXPECT_EQ(m->draws[0].index_type(), 4u);
  auto c = open_path(path.string());
  ASSERT_TRUE(c.ok());
  const auto warnings = messages(**c, Severity::warning);
  auto count = [&](std::string_view needle) {
    return std::count_if(warnings.begin(), warnings.end(), [&](const std::string& w) { return w.find(needle) != std::string::npos; });
  };
  EXPECT_EQ(count("_min/_max: stored bounds (-1, -1, -1)..(1, 1, 1) differ from its 10494 vertices"), 1);
  EXPECT_EQ(count("_min/_max: stored bounds (-1, -1, -1)..(1, 1, 1) differ from its 828 vertices"), 1);
  EXPECT_EQ(count("says 0 primitives, the index buffer holds 3498 triangles"), 1);  // 10494 / 3
  EXPECT_EQ(count("says 0 primitives, the index buffer holds 276 triangles"), 1);   // 828 / 3
  EXPECT_EQ(count("the index buffer's format 'i16_cafe' holds 2-byte indices"), 2);
  EXPECT_EQ(count("TANGENT DEC3N at +20 ends past the 20-byte vertex"), 2);
  EXPECT_EQ(count("igModelData[2] _min/_max"), 1);
  EXPECT_EQ(warnings.size(), 9u);
  EXPECT_TRUE(messages(**c, Severity::error).empty());
}

TEST(IgzModelSample, ExtractWritesTheGlb) {
  ASSAY_REQUIRE_SAMPLE(path, kSample);
  testing::TempDir dir;
  auto st = testing::run_cli("extract " + testing::quote_path(path) + " -o " + testing::quote_path(dir.path()) + " -q");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  const ByteBuffer glb = testing::read_file(dir / "0001_igSceneInfo0.glb");
  ASSERT_GE(glb.size(), 12u);
  EXPECT_EQ(std::string(glb.begin(), glb.begin() + 4), "glTF");
  st = testing::run_cli("extract " + testing::quote_path(path) + " -o " + testing::quote_path(dir / "g") + " --gltf -q");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_TRUE(std::filesystem::exists(dir / "g" / "0001_igSceneInfo0.gltf"));
  EXPECT_TRUE(std::filesystem::exists(dir / "g" / "0001_igSceneInfo0.bin"));
  st = testing::run_cli("extract " + testing::quote_path(path) + " -o " + testing::quote_path(dir / "s") + " --stored -q");
  ASSERT_EQ(st.exit_code, 0) << st.err;
  EXPECT_EQ(std::filesystem::file_size(dir / "s" / "0001_igModelInfo.bin"), 24u);  // MTSZ[igModelInfo]
}

// ---- fixtures from our writer ---------------------------------------------------------------------

class IgzModelFixture : public ::testing::TestWithParam<Endian> {};

TEST_P(IgzModelFixture, TriangleReadsAndChecksClean) {
  auto b = igz::fixtures::build_model_igz(igz::fixtures::triangle_spec(GetParam()));
  ASSERT_TRUE(b.ok()) << b.error().str();
  const Read r = read_fixture(*b);
  ASSERT_EQ(r.model.draws.size(), 1u);
  EXPECT_EQ(r.model.name, "fixture_model");
  EXPECT_EQ(r.model.draws[0].name, "fixture_draw");
  EXPECT_EQ(r.model.draws[0].indices.format, "i16_cafe");
  auto geo = igz::decode_draw(r.file, r.model.draws[0]);
  ASSERT_TRUE(geo.ok()) << geo.error().str();
  EXPECT_EQ(geo->positions, (std::vector<model::Vec3>{{1, 2, 3}, {-4, 5, 6}, {7, -8, 0.5f}}));
  EXPECT_EQ(geo->triangles, (std::vector<std::uint32_t>{0, 1, 2}));
  auto c = open_bytes(*b);
  ASSERT_TRUE(c);
  EXPECT_TRUE(messages(*c, Severity::warning).empty());
  EXPECT_TRUE(messages(*c, Severity::error).empty());
  const Entry* e = model_entry(*c);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->path, "0001_fixture_model.glb");
  auto glb = c->model(*e);
  ASSERT_TRUE(glb.ok()) << glb.error().str();
}

TEST_P(IgzModelFixture, StoredFiguresThatDifferAreWarned) {
  auto s = igz::fixtures::triangle_spec(GetParam());
  s.min[0] = -3.9f;            // the stored bound is not the vertices' -4
  s.primitive_count = 2;       // one triangle
  s.properties = 0x405C;       // IG_INDEX_TYPE_INT32 with a 16-bit index format
  auto c = open_bytes(*igz::fixtures::build_model_igz(s));
  ASSERT_TRUE(c);
  const auto w = messages(*c, Severity::warning);
  ASSERT_EQ(w.size(), 3u) << (w.empty() ? "" : w[0]);  // the model's own bounds (-4 ..) still hold
  EXPECT_NE(w[0].find("stored bounds (-3.9, -8, 0.5)..(7, 5, 6) differ from its 3 vertices' bounds (-4, -8, 0.5)..(7, 5, 6)"), std::string::npos) << w[0];
  EXPECT_NE(w[1].find("says 2 primitives, the index buffer holds 1 triangles"), std::string::npos) << w[1];
  EXPECT_NE(w[2].find("says 4-byte indices"), std::string::npos) << w[2];
}

TEST_P(IgzModelFixture, Short4NPositionsHoldTheirScaleInW) {
  // igModelTool ScaleToShortBounds: (x, y, z) * s as shorts and s in w; position = xyz / w.
  auto s = igz::fixtures::triangle_spec(GetParam());
  s.stride = 8;
  s.elements = {VertexElement{.type = vt::kShort4N, .usage = vu::kPosition}};
  s.vertex_bytes.assign(24, 0);
  const std::int16_t raw[3][4] = {{100, -200, 300, 100}, {0, 50, -25, 25}, {10, 10, 10, 10}};
  for (unsigned i = 0; i < 3; ++i)
    for (unsigned k = 0; k < 4; ++k) store<std::uint16_t>(s.vertex_bytes.data() + 8 * i + 2 * k, static_cast<std::uint16_t>(raw[i][k]), GetParam());
  s.min = {0, -2, -1, 0}, s.max = {1, 2, 3, 1}, s.model_min = s.min, s.model_max = s.max;
  const Read r = read_fixture(*igz::fixtures::build_model_igz(s));
  auto geo = igz::decode_draw(r.file, r.model.draws.at(0));
  ASSERT_TRUE(geo.ok()) << geo.error().str();
  EXPECT_EQ(geo->positions, (std::vector<model::Vec3>{{1, -2, 3}, {0, 2, -1}, {1, 1, 1}}));
}

TEST_P(IgzModelFixture, StripsNoIndexBufferAndTransforms) {
  auto s = igz::fixtures::triangle_spec(GetParam());
  s.vertex_count = 4;
  s.vertex_bytes = igz::fixtures::float3_bytes({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}}, GetParam());
  s.indices = std::vector<std::uint16_t>{0, 1, 2, 3};
  s.primitive_type = 4;  // IG_GFX_DRAW_TRIANGLE_STRIP: (0 1 2), then (2 1 3) wound as (1 3 2)
  const Read strip = read_fixture(*igz::fixtures::build_model_igz(s));
  auto geo = igz::decode_draw(strip.file, strip.model.draws.at(0));
  ASSERT_TRUE(geo.ok()) << geo.error().str();
  EXPECT_EQ(geo->triangles, (std::vector<std::uint32_t>{0, 1, 2, 1, 3, 2}));

  s = igz::fixtures::triangle_spec(GetParam());
  s.indices.reset();  // the vertices in order
  model::Mat4 m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1};  // translation in the last row
  s.transform = m;
  const Read plain = read_fixture(*igz::fixtures::build_model_igz(s));
  ASSERT_EQ(plain.model.transforms.size(), 1u);
  EXPECT_EQ(plain.model.draws.at(0).transform, 0u);
  auto g2 = igz::decode_draw(plain.file, plain.model.draws[0]);
  ASSERT_TRUE(g2.ok());
  EXPECT_EQ(g2->triangles, (std::vector<std::uint32_t>{0, 1, 2}));
  auto scene = igz::model_scene(plain.file, plain.model);
  ASSERT_TRUE(scene.ok()) << scene.error().str();
  ASSERT_EQ(scene->nodes.size(), 2u);
  EXPECT_EQ(scene->nodes[1].translation, (model::Vec3{10, 20, 30}));
}

TEST_P(IgzModelFixture, BadBuffersAreClearErrors) {
  auto s = igz::fixtures::triangle_spec(GetParam());
  s.indices = std::vector<std::uint16_t>{0, 1, 3};  // past the 3 vertices
  const Read r = read_fixture(*igz::fixtures::build_model_igz(s));
  auto geo = igz::decode_draw(r.file, r.model.draws.at(0));
  ASSERT_FALSE(geo.ok());
  EXPECT_NE(geo.error().message.find("index 2 is 3, past the 3 vertices"), std::string::npos) << geo.error().message;

  s = igz::fixtures::triangle_spec(GetParam());
  s.vertex_count = 4;  // 48 bytes needed, 36 stored
  const Read big = read_fixture(*igz::fixtures::build_model_igz(s));
  geo = igz::decode_draw(big.file, big.model.draws.at(0));
  ASSERT_FALSE(geo.ok());
  EXPECT_NE(geo.error().message.find("4 vertices of 12 bytes need 48 bytes, the memory holds 36"), std::string::npos) << geo.error().message;

  s = igz::fixtures::triangle_spec(GetParam());
  s.elements[0].usage = vu::kNormal;  // no POSITION
  const Read nopos = read_fixture(*igz::fixtures::build_model_igz(s));
  geo = igz::decode_draw(nopos.file, nopos.model.draws.at(0));
  ASSERT_FALSE(geo.ok());
  EXPECT_EQ(geo.error().kind, ErrorKind::unsupported);

  s = igz::fixtures::triangle_spec(GetParam());
  s.index_format = "i16_xbox";  // no igIndexFormat name
  const Read unknown = read_fixture(*igz::fixtures::build_model_igz(s));
  geo = igz::decode_draw(unknown.file, unknown.model.draws.at(0));
  ASSERT_FALSE(geo.ok());
  EXPECT_NE(geo.error().message.find("is not known"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(ByteOrders, IgzModelFixture, ::testing::Values(Endian::big, Endian::little));

// Every byte of a fixture set to 0x00, 0xFF and flipped, and every truncation: opening, listing,
// model() and verify never crash (errors are fine).
TEST(IgzModelSweep, MutationsAndTruncationsNeverCrash) {
  auto b = igz::fixtures::build_model_igz(igz::fixtures::triangle_spec(Endian::big));
  ASSERT_TRUE(b.ok());
  igz::fixtures::sweep_model_file(*b);
}

// Writes the seed corpus of fuzz/igz_model.cc (fuzz/corpus/igz_model/) when
// ASSAY_WRITE_IGZ_MODEL_CORPUS names a folder; skipped otherwise.
TEST(IgzModelSweep, WritesFuzzCorpus) {
  const char* dir = std::getenv("ASSAY_WRITE_IGZ_MODEL_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set ASSAY_WRITE_IGZ_MODEL_CORPUS to write the corpus";
  auto write = [&](const std::string& name, const igz::fixtures::ModelSpec& s) {
    auto b = igz::fixtures::build_model_igz(s);
    ASSERT_TRUE(b.ok());
    testing::write_file(std::filesystem::path(dir) / name, *b);
  };
  write("triangle_be.igz", igz::fixtures::triangle_spec(Endian::big));
  write("triangle_le.igz", igz::fixtures::triangle_spec(Endian::little));
  auto s = igz::fixtures::triangle_spec(Endian::big);
  s.indices.reset();
  s.transform = model::Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1};
  write("unindexed_transform.igz", s);
  s = igz::fixtures::triangle_spec(Endian::big);
  s.stride = 20;
  s.elements = {VertexElement{.type = vt::kFloat3, .usage = vu::kPosition},
                VertexElement{.type = vt::kDec3N, .usage = vu::kNormal, .offset = 12},
                VertexElement{.type = vt::kHalf2, .usage = vu::kTexcoord, .offset = 16}};
  s.vertex_bytes.assign(60, 0x3C);
  write("float3_dec3n_half2.igz", s);
}

}  // namespace
}  // namespace igz_model_test
}  // namespace assay

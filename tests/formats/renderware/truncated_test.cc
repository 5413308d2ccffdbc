// Issue 29 item 4: a truncated texture dictionary is still a RenderWare TXD. identify claims it
// from its first header, list/extract give the textures that lie whole before the cut, and one
// error says where it is cut (7-Zip's "unexpected end of data"): exit 1.
//
// The fixture (hand_built.h), offsets by hand: dictionary header 0x00, its Struct 0x0C (4 bytes),
// three Xbox natives of 136 (0x88) bytes at 0x1C, 0xA4, 0x12C, the Extension at 0x1B4, end 0x1C0
// (448). Each native: header +0, Struct header +0x0C, Struct body +0x18 (100 bytes, name at
// +0x20), Extension +0x7C.
#include <gtest/gtest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "assay/options.h"
#include "assay/formats/renderware/truncation.h"
#include "hand_built.h"
#include "testing/testing.h"
#include "testing/families.h"

namespace assay::rw {
namespace {

using ::assay::testing::quote_path;
using ::assay::testing::run_cli;
using ::assay::testing::TempDir;
using ::assay::testing::write_file;
using namespace ::assay::rw::testing;

constexpr std::uint64_t kWhole = 448, kFirstNative = 0x1C;

ByteBuffer three_textures() {
  const std::uint32_t s = kStampGtaSa;
  return hand_dictionary({xbox_dxt1_native("tex0", s), xbox_dxt1_native("tex1", s), xbox_dxt1_native("tex2", s)}, 8,
                         s);
}

ByteBuffer cut(std::uint64_t n) {
  ByteBuffer b = three_textures();
  b.resize(n);
  return b;
}

TEST(RwTruncation, FixtureIsWhole) {
  ASSERT_EQ(three_textures().size(), kWhole);
  EXPECT_FALSE(find_truncation(three_textures()).has_value());
}

TEST(RwTruncation, CutInsideTheSecondNativesStruct) {
  // 0xD6 = 214: 50 bytes into the second native (0xA4): its Struct (0xB0) needs 12 + 100 = 0x70
  // bytes, to 0x120
  const auto t = find_truncation(cut(214));
  ASSERT_TRUE(t.has_value());
  ASSERT_EQ(t->path.size(), 3u);
  EXPECT_EQ(t->path[0].type, 0x16u);
  EXPECT_EQ(t->path[0].offset, 0u);
  EXPECT_EQ(t->path[1].type, 0x15u);
  EXPECT_EQ(t->path[1].offset, 0xA4u);
  EXPECT_EQ(t->deepest().type, 0x01u);
  EXPECT_EQ(t->deepest().offset, 0xB0u);
  EXPECT_EQ(t->deepest().needs, 0x70u);
  EXPECT_EQ(t->file_end, 214u);
  EXPECT_EQ(t->missing(), kWhole - 214);
  EXPECT_FALSE(t->header_cut);
  EXPECT_EQ(t->message(),
            "Struct at 0xb0: unexpected end of data: needs 0x70 bytes (to 0x120), the file ends at 0xd6; the Texture "
            "Dictionary at 0x0 needs 0xea bytes more");
}

TEST(RwTruncation, CutInsideAHeaderAndBetweenChildren) {
  const auto h = find_truncation(cut(0xA4 + 5));  // 5 bytes of the second native's header
  ASSERT_TRUE(h.has_value());
  EXPECT_TRUE(h->header_cut);
  EXPECT_EQ(h->deepest().offset, 0xA4u);
  EXPECT_EQ(h->deepest().needs, 12u);
  const auto b = find_truncation(cut(0xA4));  // right after the first native
  ASSERT_TRUE(b.has_value());
  ASSERT_EQ(b->path.size(), 1u);
  EXPECT_EQ(b->deepest().type, 0x16u);
  EXPECT_EQ(b->deepest().needs, kWhole);
}

TEST(RwTruncation, IdentifyClaimsACutDictionary) {
  for (std::uint64_t n : {12u, 20u, 28u, 100u, 214u, 447u})
    EXPECT_GT(kRenderWareFamily.identify(Input::from_buffer("t.txd", cut(n))), 0) << n;
  // without the extension too: the content decides
  EXPECT_GT(kRenderWareFamily.identify(Input::from_buffer("t.bin", cut(214))), 0);
  // a cut header of another kind is not claimed by this rule (a cut clump stays unrecognised)
  ByteBuffer other = cut(214);
  other[0] = 0x10;
  EXPECT_EQ(kRenderWareFamily.identify(Input::from_buffer("t.bin", other)), 0);
}

// Every cut length: never a crash; from the end of the dictionary's Struct (0x1C) on, list gives
// exactly the natives that end before the cut, and says it is cut (an error problem).
TEST(RwTruncation, SweepListsExactlyTheIntactTextures) {
  for (std::uint64_t n = 12; n < kWhole; ++n) {
    const Input in = Input::from_buffer("t.txd", cut(n));
    ASSERT_GT(kRenderWareFamily.identify(in), 0) << n;
    auto j = ::assay::testing::list_of(in, "renderware");
    if (n < kFirstNative) {  // not even the count is there: the error is the cut itself
      ASSERT_FALSE(j.ok()) << n;
      EXPECT_NE(j.error().message.find("unexpected end of data"), std::string::npos) << j.error().str();
      EXPECT_EQ(j.error().code, "renderware.truncated") << n;
      continue;
    }
    ASSERT_TRUE(j.ok()) << n << ": " << j.error().str();
    const std::uint64_t intact = std::min<std::uint64_t>(3, (n - kFirstNative) / kXboxNativeSize);
    EXPECT_EQ((*j)["entries"].size(), intact) << n;
    EXPECT_EQ((*j)["truncated"]["textures_intact"], intact) << n;
    EXPECT_EQ((*j)["truncated"]["textures_declared"], 3) << n;
    EXPECT_EQ((*j)["truncated"]["file_size"], n);
    ASSERT_EQ((*j)["problems"].size(), 1u);
    EXPECT_EQ((*j)["problems"][0]["severity"], "error");
  }
}

TEST(RwTruncation, ListInfoExtractVerifyOnTheCli) {
  TempDir tmp;
  const auto f = tmp / "cut.txd";
  write_file(f, cut(214));
  auto id = run_cli("identify " + quote_path(f));
  EXPECT_EQ(id.exit_code, 0);
  EXPECT_NE(id.out.find(": renderware"), std::string::npos) << id.out << id.err;

  auto ls = run_cli("list --json " + quote_path(f));
  EXPECT_EQ(ls.exit_code, 1) << ls.err;
  const auto j = nlohmann::json::parse(ls.out);
  ASSERT_EQ(j["entries"].size(), 1u);
  EXPECT_EQ(j["entries"][0]["name"], "tex0");
  EXPECT_EQ(j["truncated"]["structure"], "Struct");
  EXPECT_EQ(j["truncated"]["offset"], 0xB0);
  EXPECT_EQ(j["truncated"]["needs"], 0x70);
  EXPECT_EQ(j["truncated"]["missing"], kWhole - 214);
  EXPECT_EQ(j["truncated"]["cut_texture"], "tex1");  // its name lies before the cut (+0x20 of 0xA4)
  EXPECT_EQ(j["problems"][0]["offset"], 0xB0);
  EXPECT_EQ(j["problems"][0]["code"], "renderware.truncated");

  auto text = run_cli("list " + quote_path(f));
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("tex0"), std::string::npos) << text.out;
  EXPECT_NE(text.err.find("unexpected end of data"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("1 of 3 textures intact, texture 1 'tex1' (at 0xa4) cut, 1 after it lost"),
            std::string::npos)
      << text.err;

  auto info = run_cli("info --json " + quote_path(f));
  EXPECT_EQ(info.exit_code, 1) << info.err;
  const auto i = nlohmann::json::parse(info.out);
  EXPECT_EQ(i["kind"], "texture_dictionary");
  EXPECT_EQ(i["textures"], 3);
  EXPECT_EQ(i["top_size"], kWhole - 12);

  const auto out = tmp / "out";
  auto x = run_cli("extract " + quote_path(f) + " -o " + quote_path(out));
  EXPECT_EQ(x.exit_code, 1) << x.err;
  EXPECT_NE(x.err.find("unexpected end of data"), std::string::npos) << x.err;
  EXPECT_TRUE(std::filesystem::exists(out / "tex0.png"));
  EXPECT_FALSE(std::filesystem::exists(out / "tex1.png"));

  auto v = run_cli("verify " + quote_path(f));
  EXPECT_EQ(v.exit_code, 1);
  EXPECT_NE(v.out.find("Struct at 0xb0"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("FAILED"), std::string::npos) << v.out;
}

TEST(RwTruncation, WholeFileIsUnchanged) {
  TempDir tmp;
  const auto f = tmp / "whole.txd";
  write_file(f, three_textures());
  auto ls = run_cli("list --json " + quote_path(f));
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  const auto j = nlohmann::json::parse(ls.out);
  EXPECT_EQ(j["entries"].size(), 3u);
  EXPECT_FALSE(j.contains("truncated"));
}

}  // namespace
}  // namespace assay::rw

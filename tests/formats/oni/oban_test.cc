// OBAN decoding, list details and verify codes (oni/oban.h) over the hand-made level of
// tests/model/oni_oban_fixture.h (values by hand there; offsets from data/oni/templates.txt OBAN:
// 02 02, 05 0c 04 06 (padding to 0x14), 02 (flags), two 05 0c 02 06 matrices (0x18, 0x48),
// 03 03 03 (0x78, 0x7A, 0x7C), 07 03 (u16 count 0x7E) of 8 x 02 (32-byte keys from 0x80)); a
// truncation and mutation sweep of the instance file.
#include <gtest/gtest.h>

#include <cmath>

#include "assay/formats/oni/oban.h"
#include "model/oni_oban_fixture.h"
#include "formats/json_printer.h"

namespace assay {
namespace oni_oban_format_test {
namespace {

// The template's byte code gives the fixed part and key size the readers use.
TEST(OniOban, FieldsMatchTheTemplate) {
  EXPECT_EQ(oni::ObanFields::kSize, 8u + 12 + 4 + 48 + 48 + 2 * 4);  // header, padding, flags, 2 matrices, 4 x u16
  EXPECT_EQ(oni::ObanFields::kKeyCount, oni::ObanFields::kSize - 2);
  EXPECT_EQ(oni::ObanFields::kKeySize, 8u * 4);
  EXPECT_EQ(oni::OboaFields::kElement, 3u * 4 + 13 * 4 + 48 + 64 + 64);  // 3 links, 13 fields, matrix, 2 x 64 bytes
}

TEST(OniOban, DecodesTheHandValues) {
  const ByteBuffer dat = testing::oban_level();
  auto f = oni::InstanceFile::open(ByteView(dat), "hand.dat");
  ASSERT_TRUE(f.ok()) << f.error().str();
  auto a = oni::decode_oban(*f, 0);
  ASSERT_TRUE(a.ok()) << a.error().str();
  EXPECT_EQ(a->flags, 9u);
  EXPECT_EQ(a->frames, 91);
  EXPECT_EQ(a->half_stop, 30);
  EXPECT_EQ(a->ticks, 1);
  EXPECT_EQ(a->initial, (oni::Matrix4x3{2, 0, 0, 0, 0, -2, 0, 2, 0, 10, 20, 30}));
  EXPECT_EQ(a->base, (oni::Matrix4x3{2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0}));
  ASSERT_EQ(a->keys.size(), 3u);
  EXPECT_EQ(a->keys[1].frame, 30u);
  EXPECT_EQ(a->keys[1].translation, (model::Vec3{10, 25, 30}));
  EXPECT_EQ(a->keys[1].stored, (model::Vec4{0, 0, 0.6f, 0.8f}));
  // glTF x, y, z, w = stored (x, y, z, -w) (OniSplit ReadQuaternion; oban.cc's wiki example).
  const model::Vec4 q0 = a->keys[0].rotation();
  EXPECT_NEAR(q0[0], -0.70710678, 1e-6);
  EXPECT_NEAR(q0[3], 0.70710678, 1e-6);
  EXPECT_EQ(a->keys[1].rotation(), (model::Vec4{0, 0, 0.6f, -0.8f}));
  EXPECT_EQ(a->keys[2].rotation(), (model::Vec4{0, 0, 0, -1}));
  EXPECT_EQ(oni::to_mat4(a->initial)[9], 2.0f);   // image of y: (0, 0, -2) in column 1
  EXPECT_EQ(oni::to_mat4(a->initial)[13], 20.0f);  // translation in column 3
  Diagnostics d;
  oni::verify_oban(*f, 0, d);
  oni::verify_oban(*f, 8, d);
  EXPECT_TRUE(d.items().empty()) << d.items()[0].where.str();
}

TEST(OniOban, Details) {
  const ByteBuffer dat = testing::oban_level();
  auto f = oni::InstanceFile::open(ByteView(dat), "hand.dat");
  ASSERT_TRUE(f.ok());
  Json d;
  detail::JsonPrinter p(d);
  oni::print_oban_details(p, *f->instance_bytes(8));
  EXPECT_EQ(d.at("keys"), 2);
  EXPECT_EQ(d.at("frames"), 61);
  EXPECT_EQ(d.at("animation_flags"), 0);
  Json shortened;
  detail::JsonPrinter ps(shortened);
  oni::print_oban_details(ps, f->instance_bytes(8)->first(0x7F));
  EXPECT_FALSE(shortened.contains("keys"));
}

// The warning codes of verify_oban for the data it can prove wrong, one each.
std::vector<std::string> codes(const testing::ObanFixture& x) {
  const ByteBuffer dat = testing::oban_level(x);
  auto f = oni::InstanceFile::open(ByteView(dat), "hand.dat");
  if (!f) return {"open: " + f.error().str()};
  Diagnostics d;
  oni::verify_oban(*f, 0, d);
  std::vector<std::string> out;
  for (const auto& i : d.items()) {
    EXPECT_EQ(i.severity, Severity::warning);
    EXPECT_NE(i.where.offset, kNoOffset) << i.where.str();
    out.push_back(i.where.code);
  }
  return out;
}

TEST(OniOban, VerifyCodes) {
  using V = std::vector<std::string>;
  testing::ObanFixture x;
  x.hand.keys[1].frame = 0;  // not after key 0
  EXPECT_EQ(codes(x), V{"oni.oban-time"});
  x = {};
  x.hand.frames = 90;  // key 2 at frame 90 of 0..89
  EXPECT_EQ(codes(x), V{"oni.oban-frames"});
  x = {};
  x.hand.keys[0].q = {0, 0, 0.5f, 0.5f};  // length 0.707
  EXPECT_EQ(codes(x), V{"oni.oban-rotation"});
  x = {};
  x.hand.keys[2].t[0] = std::nanf("");
  EXPECT_EQ(codes(x), V{"oni.oban-translation"});
  x = {};
  x.hand.keys.clear();
  EXPECT_EQ(codes(x), V{"oni.oban-keys"});
  x = {};
  x.hand.count = 4;  // 4 keys stored as the count, 3 in the bytes
  EXPECT_EQ(codes(x), V{"oni.oban"});
  // The message names the key and frames.
  x = {};
  x.hand.keys[2].frame = 25;
  const ByteBuffer dat = testing::oban_level(x);
  auto f = oni::InstanceFile::open(ByteView(dat), "hand.dat");
  Diagnostics d;
  oni::verify_oban(*f, 0, d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_NE(d.items()[0].where.message.find("key 2 at frame 25, after frame 30"), std::string::npos) << d.items()[0].where.message;
  EXPECT_NE(d.items()[0].where.structure.find("OBANhand"), std::string::npos) << d.items()[0].where.str();
}

TEST(OniOban, NotAnOban) {
  const ByteBuffer dat = testing::oban_level();
  auto f = oni::InstanceFile::open(ByteView(dat), "hand.dat");
  auto a = oni::decode_oban(*f, 1);  // the OBOA
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().code, "oni.oban");
  EXPECT_FALSE(oni::decode_oban(*f, 999).ok());
}

// The writer-built level truncated at every length and with every byte set to 0xFF and 0x80:
// never a crash; an OBAN that decodes holds its keys inside its bytes, one that does not gives an
// "oni.oban" error naming the instance.
TEST(OniOban, TruncationAndMutationSweep) {
  const ByteBuffer good = testing::oban_level();
  std::size_t decoded = 0, refused = 0;
  const auto once = [&](const ByteBuffer& b) {
    auto f = oni::InstanceFile::open(ByteView(b), "hand.dat");
    if (!f) return;
    for (std::uint32_t i = 0; i < f->instance_count(); ++i) {
      if (f->descriptor(i).tag != oni::make_tag("OBAN")) continue;
      Diagnostics d;
      oni::verify_oban(*f, i, d);
      if (auto bytes = f->instance_bytes(i)) {
        Json d;
        detail::JsonPrinter p(d);
        oni::print_oban_details(p, *bytes);
      }
      auto a = oni::decode_oban(*f, i);
      if (a) {
        ++decoded;
        ASSERT_LE(oni::ObanFields::kKeys + oni::ObanFields::kKeySize * a->keys.size(), f->instance_bytes(i)->size());
        for (const auto& k : a->keys) {
          const model::Vec4 q = k.rotation();
          ASSERT_NEAR(std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), 1.0, 1e-5);
        }
        continue;
      }
      ++refused;
      EXPECT_EQ(a.error().code, "oni.oban") << a.error().str();
      EXPECT_FALSE(a.error().structure.empty()) << a.error().str();
    }
  };
  testing::sweep_cuts_and_bytes(good, once);
  EXPECT_GT(decoded, good.size());  // two OBANs; most bytes do not matter to the decoder
  EXPECT_GT(refused, 5u);           // sizes and key counts are refused
}

}  // namespace
}  // namespace oni_oban_format_test
}  // namespace assay

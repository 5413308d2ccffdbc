// Stamps and section ids. spec: renderware.md#rw-10-1, #rw-2-3, #rw-3.
#include <gtest/gtest.h>

#include "assay/formats/renderware/section.h"

namespace assay::rw {
namespace {

TEST(RwStamp, SpecVectorsRoundTrip) {
  struct V {
    std::uint32_t stamp, version, build;
    const char* text;
  };
  const V vs[] = {
      {0x1C02000A, 0x37002, 0x000A, "3.7.0.2 build 0x000A"},
      {0x1803FFFF, 0x36003, 0xFFFF, "3.6.0.3 build 0xFFFF"},
      {0x1400FFFF, 0x35000, 0xFFFF, "3.5.0.0 build 0xFFFF"},
      {0x0401FFFF, 0x31001, 0xFFFF, "3.1.0.1 build 0xFFFF"},
      {0x1C02FFFF, 0x37002, 0xFFFF, "3.7.0.2 build 0xFFFF"},
      {0x1005FFFF, 0x34005, 0xFFFF, "3.4.0.5 build 0xFFFF"},
      {0x1003FFFF, 0x34003, 0xFFFF, "3.4.0.3 build 0xFFFF"},
      {0x0C02FFFF, 0x33002, 0xFFFF, "3.3.0.2 build 0xFFFF"},
      {0x0800FFFF, 0x32000, 0xFFFF, "3.2.0.0 build 0xFFFF"},
  };
  for (const V& v : vs) {
    auto d = decode_stamp(v.stamp);
    ASSERT_TRUE(d.ok()) << std::hex << v.stamp;
    EXPECT_EQ(d->version, v.version) << std::hex << v.stamp;
    EXPECT_EQ(d->build, v.build);
    EXPECT_FALSE(d->old_form);
    EXPECT_EQ(d->str(), v.text);
    EXPECT_EQ(encode_stamp(d->version, d->build), v.stamp);
  }
}

TEST(RwStamp, OldForm) {
  auto d = decode_stamp(0x00000310);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->version, 0x31000u);
  EXPECT_TRUE(d->old_form);
  EXPECT_EQ(d->str(), "3.1.0.0");
  auto e = decode_stamp(0x00000302);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->version, 0x30200u);
  EXPECT_EQ(e->str(), "3.0.2.0");
}

TEST(RwStamp, ZeroIsErrorR3) {
  auto d = decode_stamp(0);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code, "R3");
  EXPECT_FALSE(plausible_stamp(0));
  EXPECT_FALSE(plausible_stamp(0x00000210));  // 2.1.0
  EXPECT_TRUE(plausible_stamp(0x1C02000A));
}

TEST(RwSection, IdsAndContainers) {
  EXPECT_EQ(section_name(0x16), "Texture Dictionary");
  EXPECT_EQ(section_name(0x0253F2FE), "Rockstar Node Name");
  EXPECT_EQ(section_name(0x0253F2F8), "Rockstar Plugin");
  EXPECT_TRUE(section_name(0x12345).empty());
  for (std::uint32_t c : {0x03u, 0x05u, 0x06u, 0x07u, 0x08u, 0x09u, 0x0Au, 0x0Bu, 0x0Eu, 0x0Fu, 0x10u, 0x12u,
                          0x14u, 0x15u, 0x16u, 0x1Au, 0x2Bu})
    EXPECT_TRUE(is_container(c)) << std::hex << c;
  for (std::uint32_t r : {0x01u, 0x02u, 0x0Cu, 0x0Du, 0x13u, 0x17u, 0x1Fu, 0x110u, 0x116u, 0x11Eu, 0x120u, 0x50Eu,
                          0x510u, 0x0253F2FEu, 0x999u})
    EXPECT_FALSE(is_container(r)) << std::hex << r;
}

TEST(RwSection, HeaderRead) {
  const std::uint8_t b[12] = {0x16, 0, 0, 0, 0x9C, 0x25, 0, 0, 0xFF, 0xFF, 0x03, 0x18};
  auto h = read_section_header(b, 0);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->type, 0x16u);
  EXPECT_EQ(h->size, 9628u);
  EXPECT_EQ(h->stamp, 0x1803FFFFu);
  auto bad = read_section_header(ByteView(b, 11), 0, 0x100);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().offset, 0x100u);
}

}  // namespace
}  // namespace assay::rw

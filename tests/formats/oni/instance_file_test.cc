// The instance file reader: header refusals, table and block bounds, the per-file rules, and
// truncation/mutation sweeps over files made by our writer (spec: oni.md#oni-3, oni.md#oni-10).
#include <gtest/gtest.h>

#include "fixtures.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

using test::Bytes;
using test::link_to;

struct Sample {
  testing::TempDir dir;
  ByteBuffer l0, l1;
  Sample() {
    EXPECT_TRUE(write_sample_files(dir.path()).ok());
    l0 = testing::read_file(dir / "level0_Final.dat");
    l1 = testing::read_file(dir / "level1_X.dat");
  }
};

bool has_message(const Diagnostics& d, const std::string& part, Severity s = Severity::error) {
  for (const auto& x : d.items())
    if (x.severity == s && x.where.message.find(part) != std::string::npos) return true;
  return false;
}

TEST(OniInstanceFile, ByteLevelFactsOfOurWriter) {
  Sample s;
  const ByteBuffer& b = s.l0;
  // spec: oni.md#oni-11 byte-level facts
  EXPECT_EQ(ByteBuffer(b.begin() + 8, b.begin() + 12), (ByteBuffer{0x31, 0x33, 0x52, 0x56}));
  EXPECT_EQ(ByteBuffer(b.begin() + 0x0C, b.begin() + 0x14), (ByteBuffer{0x40, 0, 0x14, 0, 0x10, 0, 0x08, 0}));
  EXPECT_EQ(ByteBuffer(b.begin(), b.begin() + 8), (ByteBuffer{0x1F, 0x27, 0xDC, 0x33, 0xDF, 0xBC, 0x03, 0x00}));
  auto f = InstanceFile::open(b, "l0");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->instance_count(), 6u);
  EXPECT_EQ(f->name_count(), 5u);  // 5 named (placeholder included), 1 unnamed
  EXPECT_EQ(f->header().data_offset % 32, 0u);
  EXPECT_EQ(f->header().name_offset % 32, 0u);
  // Descriptor 5's instance id would be 0x501; descriptor 0's data starts with 0x00000001.
  auto inst = f->instance_bytes(0);
  ASSERT_TRUE(inst.ok());
  EXPECT_EQ(load<std::uint32_t>(inst->data(), Endian::little), 1u);
  EXPECT_EQ(load<std::uint32_t>(inst->data() + 4, Endian::little), 1u);  // level 0's file id
  EXPECT_EQ(f->descriptor(2).flags(), kFlagUnnamed);
  EXPECT_TRUE(f->descriptor(5).placeholder());
  Diagnostics d;
  f->validate(d, 1);
  EXPECT_FALSE(d.has_errors()) << (d.items().empty() ? "" : d.items()[0].where.str());
}

TEST(OniInstanceFile, NameDirectoryBinarySearch) {
  Sample s;
  auto f = InstanceFile::open(s.l0, "l0");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->find("ZANMwalk"), 0u);
  EXPECT_EQ(f->find("TXMPbrick"), 3u);
  EXPECT_EQ(f->find("ZLSTmenu"), 4u);
  EXPECT_EQ(f->find("ZANMlevel1_only"), 5u);
  EXPECT_FALSE(f->find("ZANMnone").has_value());
  EXPECT_FALSE(f->find("").has_value());
}

TEST(OniInstanceFile, WrongRecordSizesRefused) {
  Sample s;
  for (std::size_t at : {0x0C, 0x0E, 0x10, 0x12}) {
    ByteBuffer b = s.l0;
    b[at] += 1;
    auto f = InstanceFile::open(b, "x");
    ASSERT_FALSE(f.ok()) << at;
    EXPECT_NE(f.error().message.find("record sizes"), std::string::npos);
  }
  // VR32 only warns.
  ByteBuffer b = s.l0;
  b[8] = 0x32;
  b[0x0E] = 0x18;
  EXPECT_TRUE(InstanceFile::open(b, "x").ok());
}

TEST(OniInstanceFile, VersionsRefused) {
  Sample s;
  ByteBuffer be = s.l0;
  be[8] = 0x56, be[9] = 0x52, be[10] = 0x33, be[11] = 0x31;
  auto f = InstanceFile::open(be, "x");
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.error().message.find("big-endian"), std::string::npos);
  ByteBuffer vr33 = s.l0;
  vr33[8] = 0x33;
  ASSERT_FALSE(InstanceFile::open(vr33, "x").ok());
  EXPECT_EQ(InstanceFile::open(vr33, "x").error().kind, ErrorKind::unsupported);
  ByteBuffer junk = s.l0;
  junk[9] = 0;
  EXPECT_FALSE(InstanceFile::open(junk, "x").ok());
  EXPECT_FALSE(InstanceFile::open(ByteView(s.l0).first(0x3F), "x").ok());
}

TEST(OniInstanceFile, HugeCountsAndBlocksPastTheFile) {
  Sample s;
  for (std::size_t at : {0x14, 0x18, 0x1C, 0x20, 0x24, 0x28, 0x2C}) {
    ByteBuffer b = s.l0;
    store<std::uint32_t>(b.data() + at, 0xFFFFFFFFu, Endian::little);
    auto f = InstanceFile::open(b, "x");
    EXPECT_FALSE(f.ok()) << "field 0x" << std::hex << at;
  }
}

TEST(OniInstanceFile, DescriptorRules) {
  Sample s;
  auto f0 = InstanceFile::open(s.l0, "x");
  ASSERT_TRUE(f0.ok());
  auto check = [&](std::size_t at, std::uint32_t v, const std::string& msg) {
    ByteBuffer b = s.l0;
    store<std::uint32_t>(b.data() + at, v, Endian::little);
    auto f = InstanceFile::open(b, "x");
    ASSERT_TRUE(f.ok());
    Diagnostics d;
    f->validate(d, 1);
    EXPECT_TRUE(has_message(d, msg)) << msg;
  };
  const std::size_t d1 = 0x40 + 1 * 0x14;
  check(d1 + 8, 0x100000, "past the name block");        // name offset past the name block
  check(d1 + 4, 0x100000, "outside the data block");     // data offset past the data block
  check(d1 + 4, 4, "outside the data block");            // data offset below 8
  check(d1 + 12, 0x7FFFFFFF, "outside the data block");  // size past the block
  check(0x40 + 5 * 0x14 + 16, kFlagPlaceholder | kFlagUnnamed, "placeholder without a name");
  // The last name's NUL removed: the name runs to the block's end.
  ByteBuffer b = s.l0;
  b.back() = 'x';
  auto f = InstanceFile::open(b, "x");
  ASSERT_TRUE(f.ok());
  Diagnostics d;
  f->validate(d, 1);
  EXPECT_TRUE(has_message(d, "no NUL"));
  // Instance header id and file id.
  ByteBuffer c = s.l0;
  const std::uint64_t inst1 = f0->instance_file_offset(f0->descriptor(1));
  store<std::uint32_t>(c.data() + inst1, 0x501, Endian::little);
  store<std::uint32_t>(c.data() + inst1 + 4, 7, Endian::little);
  auto g = InstanceFile::open(c, "x");
  Diagnostics e;
  g->validate(e, 1);
  EXPECT_TRUE(has_message(e, "instance id 0x00000501, expected 0x00000101"));
  EXPECT_TRUE(has_message(e, "differs from the file's"));
  Diagnostics w;
  f0->validate(w, 0x02000001);
  EXPECT_TRUE(has_message(w, "file renamed?", Severity::warning));
}

TEST(OniInstanceFile, NameDirectoryRules) {
  Sample s;
  auto f0 = InstanceFile::open(s.l0, "x");
  const std::size_t dir = 0x40 + 6 * 0x14;
  {  // swap two entries: not sorted
    ByteBuffer b = s.l0;
    for (int k = 0; k < 8; ++k) std::swap(b[dir + k], b[dir + 8 + k]);
    auto f = InstanceFile::open(b, "x");
    Diagnostics d;
    f->validate(d, 1);
    EXPECT_TRUE(has_message(d, "not sorted"));
  }
  {  // index out of range, and the named descriptor now missing
    ByteBuffer b = s.l0;
    store<std::uint32_t>(b.data() + dir, 99, Endian::little);
    auto f = InstanceFile::open(b, "x");
    Diagnostics d;
    f->validate(d, 1);
    EXPECT_TRUE(has_message(d, "out of range"));
    EXPECT_TRUE(has_message(d, "missing from the name directory"));
  }
  {  // entry for the unnamed descriptor 2
    ByteBuffer b = s.l0;
    store<std::uint32_t>(b.data() + dir, 2, Endian::little);
    auto f = InstanceFile::open(b, "x");
    Diagnostics d;
    f->validate(d, 1);
    EXPECT_TRUE(has_message(d, "unnamed descriptor"));
  }
  {  // no template entries
    ByteBuffer b = s.l0;
    store<std::uint32_t>(b.data() + 0x1C, 0, Endian::little);
    auto f = InstanceFile::open(b, "x");
    Diagnostics d;
    f->validate(d, 1);
    EXPECT_TRUE(has_message(d, "no template entries"));
    EXPECT_TRUE(has_message(d, "has no template entry"));
  }
}

// Every prefix and every single-byte mutation: a clean error or a result, never a crash.
TEST(OniInstanceFile, TruncationAndMutationSweep) {
  Sample s;
  const LayoutSet layouts = test::sample_layouts();
  for (const ByteBuffer* file : {&s.l0, &s.l1}) {
    for (std::size_t n = 0; n < file->size(); ++n) {
      ByteBuffer b(file->begin(), file->begin() + static_cast<std::ptrdiff_t>(n));
      auto f = load_file("", b, nullptr, &layouts);
      EXPECT_TRUE(f->diags.has_errors()) << n;
    }
    for (std::size_t i = 0; i < file->size(); ++i)
      for (std::uint8_t x : {0xFF, 0x80, 0x01}) {
        ByteBuffer b = *file;
        b[i] ^= x;
        auto f = load_file("", b, nullptr, &layouts);
        std::vector<const LoadedFile*> set{f.get()};
        if (f->opened) (void)resolve_links(set, 0);
      }
  }
}

}  // namespace
}  // namespace assay::oni

// Bad input: truncation and mutation sweeps over containers built by our writers and over the
// DIR (spec warriors.md#wr-4-3 "sizes first", #wr-2-5): every prefix and every corrupted word
// must give a clean result or a clear error, never a crash (run under ASan/UBSan too).
#include <gtest/gtest.h>

#include <set>

#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/samples.h"
#include "helpers.h"

namespace assay::warriors {
namespace {

std::vector<ByteBuffer> fixtures() {
  std::vector<ByteBuffer> f = {samples::level(), samples::pack(), samples::sprite_sheet(), samples::scene_list(2),
                               *write_resource(1, samples::character_chunks(2, {0, 1})),
                               *write_resource(2, samples::global_chunks()), samples::world_part("a_ms1.sec"),
                               samples::world_stream()};
  return f;
}

void exercise(ByteView b, const HandlerTable& t) {
  LoadResult r = load_container(b, t);
  if (r.error) {
    EXPECT_FALSE(r.error->message.empty());
  }
  EXPECT_LE(r.consumed, b.size());
  (void)classify_entry(b);
  (void)check_exact_pack(b);
}

TEST(WarriorsSweep, TruncatedContainers) {
  const HandlerTable t = HandlerTable::standard();
  for (const auto& f : fixtures()) {
    const std::size_t step = std::max<std::size_t>(1, f.size() / 300);  // keeps ASan runs short
    for (std::size_t n = 0; n < f.size(); n += (n < 64 ? 1 : step)) {
      ByteBuffer cut(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(n));  // its own allocation: ASan sees overreads
      exercise(cut, t);
    }
  }
}

TEST(WarriorsSweep, MutatedWords) {
  const HandlerTable t = HandlerTable::standard();
  const std::uint32_t values[] = {0, 1, 0x53, 0x54, 0xFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x10, 0x2d2};
  for (const auto& f : fixtures()) {
    // every header word (container, group and chunk headers), plus a sample of data words
    std::set<std::size_t> at_set;
    for (std::size_t k = 0; k < 16 && k + 4 <= f.size(); k += 4) at_set.insert(k);
    LoadResult raw = load_container(f, HandlerTable());
    for (const auto& c : raw.chunks)
      for (std::size_t k = 0; k < 16; k += 4) at_set.insert(c.offset + k), at_set.insert(c.offset >= 16 ? c.offset - 16 + k : k);
    for (const auto& c : raw.chunks)  // the payload fields the models read (counts, sizes, slots)
      for (std::size_t k = 0; k < std::min<std::size_t>(c.header.size, 160); k += 4) at_set.insert(c.offset + 16 + k);
    const std::size_t step = std::max<std::size_t>(4, (f.size() / 200) & ~std::size_t{3});
    for (std::size_t k = 0; k + 4 <= f.size(); k += step) at_set.insert(k);
    for (std::size_t at : at_set) {
      if (at + 4 > f.size()) continue;
      for (std::uint32_t v : values) {
        ByteBuffer m = f;
        test::set32(m, at, v);
        exercise(m, t);
      }
    }
  }
}

TEST(WarriorsSweep, BadCountsAndTypesAreErrorsNotAllocations) {
  const HandlerTable t = HandlerTable::standard();
  ByteBuffer huge = test::le32({0x7FFFFFFF, 0, 0, 0});
  LoadResult r = load_flat(huge, t);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.chunks.empty());
  ByteBuffer g = test::le32({1, 0, 0, kPackageMarker, 0x7FFFFFFF, 0, 0, 5});
  LoadResult gr = load_grouped(g, t);
  ASSERT_FALSE(gr.ok());
  EXPECT_NE(gr.error->message.find("count 2147483647"), std::string::npos);
  for (std::uint32_t type : {0x54u, 0x55u, 0xFFFFFFFFu}) {
    ByteBuffer b = test::le32({1, 16, 0, 0, type, 16, 0, 0});
    b.resize(48, 0);
    LoadResult x = load_flat(b, t);
    ASSERT_FALSE(x.ok());
    EXPECT_NE(x.error->message.find("not below 0x54"), std::string::npos);
  }
  ByteBuffer past = test::le32({1, 0xFFFFFFF0u, 0, 0, 0x28, 0xFFFFFFF0u, 0, 0});
  LoadResult p = load_flat(past, t);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error->message.find("past the entry"), std::string::npos);
}

TEST(WarriorsSweep, DirTruncationAndMutation) {
  const DiscImage img = samples::disc(samples::disc_entries());
  for (std::size_t n = 0; n < img.dir.size(); ++n) {
    ByteBuffer cut(img.dir.begin(), img.dir.begin() + static_cast<std::ptrdiff_t>(n));
    auto d = Disc::from_views(cut, img.wad);
    EXPECT_FALSE(d) << n;  // D1: the size no longer fits the count
  }
  const std::uint32_t values[] = {0, 1, 2047, 2048, 0x7FFFFFFF, 0xFFFFFFFF};
  for (std::size_t at = 0; at + 4 <= img.dir.size(); at += 4) {
    for (std::uint32_t v : values) {
      ByteBuffer m = img.dir;
      test::set32(m, at, v);
      auto d = Disc::from_views(m, img.wad);
      if (!d) continue;
      Diagnostics diag;
      d->validate(diag);
      const HandlerTable t = HandlerTable::standard();
      for (std::uint32_t i = 0; i < d->count(); ++i) {
        auto b = d->entry_bytes(d->entry(i));
        if (b) exercise(*b, t);
      }
    }
  }
}

}  // namespace
}  // namespace assay::warriors

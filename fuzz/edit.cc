// libFuzzer target: the edit verbs (`assay replace|add|remove`) through Family::edit on a hostile
// original, for igArchive and Warriors (issue 15 item 7; formats/format.h EditRequest).
//
// Input layout (the seeds in fuzz/corpus/edit/ are made by fuzz/tools/make_edit_corpus.cc, from
// the project's writers):
//   byte 0: bit 0 family (0 igArchive, 1 Warriors DIR/WAD); bits 1-3 replace / add / remove;
//           bits 4-5 the igArchive compression for new data (none, lz4, deflate, none)
//   byte 1: which entry is replaced (index mod count); byte 2: which is removed
//   igArchive: the rest is the original archive
//   Warriors:  a 16-bit little-endian DIR size, the DIR, then the WAD
// The edit either fails with an Error or succeeds; a success must read back: the output opens,
// has (count + added - removed) entries, and the added and replaced entries hold the new bytes.
// Anything else (a crash, a sanitizer report, a lost or wrong byte) is a finding.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "assay/family.h"
#include "assay/options.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/warriors/disc.h"
#include "fuzz_util.h"

namespace {

using namespace assay;

constexpr const char* kAdded = "fuzz-added.bin";

struct Plan {
  EditRequest req;
  std::string replaced;  // name of the replaced entry ("" = none)
  long delta = 0;        // entries added minus removed
};

ByteBuffer payload(std::uint8_t seed, std::size_t n) {
  ByteBuffer b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + i * 7);
  return b;
}

// The changes byte 0-2 ask for, over entry names `names` (the original's, in order).
Plan make_plan(const std::uint8_t* d, const std::vector<std::string>& names) {
  Plan p;
  const bool rep = (d[0] & 2) != 0, add = (d[0] & 4) != 0, rem = (d[0] & 8) != 0;
  std::size_t ri = names.empty() ? 0 : d[1] % names.size(), mi = names.empty() ? 0 : d[2] % names.size();
  if (rep && !names.empty()) {
    p.req.changes.push_back({EditOp::replace, names[ri], payload(d[1], 300 + d[2])});
    p.replaced = names[ri];
  }
  if (add) {
    p.req.changes.push_back({EditOp::add, kAdded, payload(d[2], 5000)});
    ++p.delta;
  }
  if (rem && !names.empty() && !(rep && mi == ri)) {
    p.req.changes.push_back({EditOp::remove, names[mi], {}});
    --p.delta;
  }
  static const char* const kCodec[] = {"none", "lz4", "deflate", "none"};
  p.req.read.family["compression"] = kCodec[(d[0] >> 4) & 3];
  p.req.read.threads = 1;
  p.req.force = true;
  return p;
}

bool holds(ByteView got, const ByteBuffer& want) { return got.size() == want.size() && std::equal(want.begin(), want.end(), got.begin()); }

void edit_igarchive(const std::uint8_t* d, ByteView original) {
  auto a = igarchive::Archive::open(original, "original");
  if (!a || a->files().size() > 256) return;
  std::vector<std::string> names;
  for (const auto& f : a->files()) names.emplace_back(f.name);
  Plan p = make_plan(d, names);
  if (p.req.changes.empty()) return;
  const fs::path dir = fuzz::fresh_dir("edit-iga");
  fuzz::write_bytes(dir / "in.arc", original.data(), original.size());
  auto in = Input::open(dir / "in.arc");
  if (!in) __builtin_trap();
  p.req.output = dir / "out.arc";
  auto r = find_family("igarchive")->edit(*in, p.req);
  if (!r) return;  // refused with an Error: fine
  auto out = Input::open(p.req.output);
  if (!out) __builtin_trap();  // reported success, wrote nothing
  auto b = igarchive::Archive::open(out->bytes, "edited");
  if (!b || static_cast<long>(b->files().size()) != static_cast<long>(a->files().size()) + p.delta) __builtin_trap();
  for (const auto& c : p.req.changes) {
    if (c.op == EditOp::remove) continue;
    const igarchive::FileEntry* e = b->find(c.name);
    ByteBuffer back;
    if (e == nullptr || !b->read(*e, back, 1, 1u << 20)) __builtin_trap();
    if (c.op == EditOp::add && back != c.data) __builtin_trap();  // the new entry lost bytes
  }
}

void edit_warriors(const std::uint8_t* d, ByteView rest) {
  if (rest.size() < 2) return;
  const std::size_t dn = rest[0] | (std::size_t{rest[1]} << 8);
  if (dn > rest.size() - 2) return;
  const ByteView dir_bytes = rest.subspan(2, dn), wad_bytes = rest.subspan(2 + dn);
  auto disc = warriors::Disc::from_views(dir_bytes, wad_bytes);
  if (!disc || disc->count() > 256) return;
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < disc->count(); ++i) names.push_back(fmt::format("0x{:08x}", disc->entry(i).hash));
  Plan p = make_plan(d, names);
  if (p.req.changes.empty()) return;
  const fs::path in_dir = fuzz::fresh_dir("edit-wr-in"), out_dir = fuzz::fresh_dir("edit-wr-out");
  fuzz::write_bytes(in_dir / "WARRIORS.DIR", dir_bytes.data(), dir_bytes.size());
  fuzz::write_bytes(in_dir / "WARRIORS.WAD", wad_bytes.data(), wad_bytes.size());
  auto in = Input::open(in_dir);
  if (!in) __builtin_trap();
  p.req.output = out_dir;
  auto r = find_family("warriors")->edit(*in, p.req);
  if (!r) return;
  auto out_in = Input::open(out_dir);
  if (!out_in) __builtin_trap();
  auto out = warriors::Disc::open(*out_in);
  if (!out || static_cast<long>(out->count()) != static_cast<long>(disc->count()) + p.delta) __builtin_trap();
  for (const auto& c : p.req.changes) {
    if (c.op == EditOp::remove) continue;
    auto e = out->find(warriors::name_hash(c.name));
    if (!e) __builtin_trap();
    auto bytes = out->entry_bytes(*e);
    if (!bytes || !holds(*bytes, c.data)) __builtin_trap();  // the new bytes are not what was asked
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 3 || size > (256u << 10)) return 0;
  const ByteView rest(data + 3, size - 3);
  if (data[0] & 1) edit_warriors(data, rest);
  else edit_igarchive(data, rest);
  return 0;
}

// Shared helpers for the igarchive tests: deterministic data and archive builders.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/options.h"
#include "assay/ops.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"

namespace assay::igarchive::test {

// Deterministic pseudo-random bytes (incompressible).
inline ByteBuffer noise(std::size_t n, std::uint32_t seed) {
  ByteBuffer b(n);
  std::uint64_t x = 0x9E3779B97F4A7C15ull ^ seed;
  for (auto& c : b) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    c = static_cast<std::uint8_t>(x >> 24);
  }
  return b;
}

// Compressible text-like bytes.
inline ByteBuffer text(std::size_t n, std::uint32_t seed) {
  static const char* words[] = {"igObjectList ", "igNameList ", "spawn ", "actor ", "level ", "0.5 ", "\n", "mesh "};
  ByteBuffer b;
  b.reserve(n);
  std::uint32_t x = seed * 2654435761u + 1;
  while (b.size() < n) {
    x = x * 1103515245u + 12345u;
    const char* w = words[(x >> 16) % 8];
    for (const char* p = w; *p && b.size() < n; ++p) b.push_back(static_cast<std::uint8_t>(*p));
  }
  return b;
}

inline Archive open_ok(const ByteBuffer& bytes) {
  auto a = Archive::open(bytes, "test");
  EXPECT_TRUE(a.ok()) << (a.ok() ? "" : a.error().str());
  if (!a.ok()) throw std::runtime_error("open failed");
  return std::move(a).value();
}

inline ByteBuffer read_ok(const Archive& a, const FileEntry& f, unsigned threads = 1) {
  ByteBuffer out;
  auto r = a.read(f, out, threads);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().str());
  return out;
}

// assay::extract (what `assay extract` runs) of an archive held in memory.
inline Result<ExtractStats> extract_archive(const ByteBuffer& bytes, const OutputDir& dir, ExtractOptions x = {},
                                            unsigned threads = 1) {
  assay::ContainerOptions co;
  co.threads = threads;
  ASSAY_TRY(std::unique_ptr<Container> c, open(Input::from_buffer("test.arc", bytes), co, "igarchive"));
  Diagnostics diags;
  return extract(*c, x, dir, diags);
}

inline ByteBuffer build(const std::vector<WriterFile>& files, const WriterOptions& o) {
  auto r = write_archive(files, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().str());
  if (!r.ok()) throw std::runtime_error("write failed");
  return std::move(r).value();
}

}  // namespace assay::igarchive::test

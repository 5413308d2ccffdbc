// Shared fixtures for the oni tests: small instances and layout sets built by hand.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "assay/formats/oni/oni.h"

namespace assay::oni::test {

inline LayoutSet layouts_from(const std::string& text) {
  auto s = parse_layouts_file(text, "test-layouts");
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().str());
  return s.ok() ? std::move(*s) : LayoutSet{};
}

inline LayoutSet sample_layouts() { return layouts_from(sample_layouts_text()); }

struct Bytes {
  ByteBuffer b;
  explicit Bytes(std::size_t n) : b(n, 0) {}
  Bytes& u32(std::size_t o, std::uint32_t v) { store<std::uint32_t>(b.data() + o, v, Endian::little); return *this; }
  Bytes& u16(std::size_t o, std::uint16_t v) { store<std::uint16_t>(b.data() + o, v, Endian::little); return *this; }
};

inline std::uint32_t link_to(std::uint32_t index) { return index << 8 | 1; }

// One compiled layout from a hex string like "02 02 06".
inline CompiledLayout compiled(const std::string& hex, std::uint32_t flags = 0, std::uint32_t tag = 0x5A5A5A5A) {
  Layout l;
  l.tag = tag;
  l.flags = flags;
  for (std::size_t i = 0; i + 1 < hex.size() + 1; i += 3) l.code.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  CompiledLayout c;
  auto cc = compile_layout(l.code);
  EXPECT_TRUE(cc.ok()) << (cc.ok() ? "" : cc.error().str());
  if (cc.ok()) c.code = std::move(*cc);
  c.layout = std::move(l);
  return c;
}

inline ByteBuffer hex_bytes(const std::string& hex) {
  ByteBuffer b;
  for (std::size_t i = 0; i + 1 < hex.size() + 1; i += 3) b.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
  return b;
}

}  // namespace assay::oni::test

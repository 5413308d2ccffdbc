// Shared fixtures for the warriors tests: byte builders, a disc on disk, a minimal ISO 9660 writer.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/warriors/samples.h"
#include "testing/testing.h"

namespace assay::warriors::test {

inline ByteBuffer le32(std::initializer_list<std::uint32_t> v) {
  ByteWriter w;
  for (auto x : v) w.u32(x);
  return w.take();
}
inline void append(ByteBuffer& b, const ByteBuffer& more) { b.insert(b.end(), more.begin(), more.end()); }
inline void set32(ByteBuffer& b, std::size_t at, std::uint32_t v) { store<std::uint32_t>(b.data() + at, v, Endian::little); }
inline std::uint32_t get32(ByteView b, std::size_t at) { return load<std::uint32_t>(b.data() + at, Endian::little); }

// Writes WARRIORS.DIR + WARRIORS.WAD into `folder`.
inline void write_disc_folder(const std::filesystem::path& folder, const DiscImage& d) {
  std::filesystem::create_directories(folder);
  assay::testing::write_file(folder / "WARRIORS.DIR", d.dir);
  assay::testing::write_file(folder / "WARRIORS.WAD", d.wad);
}

// A minimal ECMA-119 image (written here, independently of libiso9660): primary descriptor at
// sector 16, terminator at 17, path tables at 18/19, root directory at 20, files from 21.
// Names are stored as given (e.g. "warriors.dir;1").
struct IsoFile {
  std::string name;
  ByteBuffer data;
};
ByteBuffer make_iso(const std::vector<IsoFile>& files);

}  // namespace assay::warriors::test

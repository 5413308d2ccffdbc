#include "helpers.h"

#include <cstring>

namespace assay::warriors::test {

namespace {

void both32(ByteBuffer& b, std::size_t at, std::uint32_t v) {
  store<std::uint32_t>(b.data() + at, v, Endian::little);
  store<std::uint32_t>(b.data() + at + 4, v, Endian::big);
}
void both16(ByteBuffer& b, std::size_t at, std::uint16_t v) {
  store<std::uint16_t>(b.data() + at, v, Endian::little);
  store<std::uint16_t>(b.data() + at + 2, v, Endian::big);
}

ByteBuffer dir_record(std::uint32_t extent, std::uint32_t size, std::uint8_t flags, const std::string& name) {
  const std::size_t len = 33 + name.size() + ((33 + name.size()) % 2);
  ByteBuffer r(len, 0);
  r[0] = static_cast<std::uint8_t>(len);
  both32(r, 2, extent);
  both32(r, 10, size);
  r[18] = 105, r[19] = 1, r[20] = 1;  // 2005-01-01
  r[25] = flags;
  both16(r, 28, 1);
  r[32] = static_cast<std::uint8_t>(name.size());
  std::memcpy(r.data() + 33, name.data(), name.size());
  return r;
}

}  // namespace

ByteBuffer make_iso(const std::vector<IsoFile>& files) {
  constexpr std::size_t S = 2048;
  std::vector<std::uint32_t> extents;
  std::uint32_t next = 21;
  for (const auto& f : files) {
    extents.push_back(next);
    next += static_cast<std::uint32_t>((f.data.size() + S - 1) / S);
  }
  ByteBuffer img(std::size_t{next} * S, 0);
  // root directory (sector 20)
  ByteBuffer root;
  auto add = [&](const ByteBuffer& r) { root.insert(root.end(), r.begin(), r.end()); };
  add(dir_record(20, S, 2, std::string(1, '\0')));
  add(dir_record(20, S, 2, std::string(1, '\1')));
  for (std::size_t i = 0; i < files.size(); ++i)
    add(dir_record(extents[i], static_cast<std::uint32_t>(files[i].data.size()), 0, files[i].name));
  std::memcpy(img.data() + 20 * S, root.data(), root.size());
  // primary volume descriptor
  std::uint8_t* p = img.data() + 16 * S;
  p[0] = 1;
  std::memcpy(p + 1, "CD001", 5);
  p[6] = 1;
  std::memset(p + 8, ' ', 32);
  std::memset(p + 40, ' ', 32);
  std::memcpy(p + 40, "WARRIORS", 8);
  ByteBuffer pvd(p, p + S);
  both32(pvd, 80, next);
  both16(pvd, 120, 1);
  both16(pvd, 124, 1);
  both16(pvd, 128, 2048);
  both32(pvd, 132, 10);
  store<std::uint32_t>(pvd.data() + 140, 18, Endian::little);
  store<std::uint32_t>(pvd.data() + 148, 19, Endian::big);
  ByteBuffer rr = dir_record(20, S, 2, std::string(1, '\0'));
  std::memcpy(pvd.data() + 156, rr.data(), 34);
  pvd[881] = 1;
  std::memcpy(p, pvd.data(), S);
  // terminator
  std::uint8_t* t = img.data() + 17 * S;
  t[0] = 255;
  std::memcpy(t + 1, "CD001", 5);
  t[6] = 1;
  // path tables: one record for the root
  ByteBuffer lpt = {1, 0, 20, 0, 0, 0, 1, 0, 0, 0};
  std::memcpy(img.data() + 18 * S, lpt.data(), lpt.size());
  ByteBuffer mpt = {1, 0, 0, 0, 0, 20, 0, 1, 0, 0};
  std::memcpy(img.data() + 19 * S, mpt.data(), mpt.size());
  for (std::size_t i = 0; i < files.size(); ++i)
    if (!files[i].data.empty()) std::memcpy(img.data() + std::size_t{extents[i]} * S, files[i].data.data(), files[i].data.size());
  return img;
}

}  // namespace assay::warriors::test

// The replay driver's table of fuzz targets (generated into fuzz_targets.cc by fuzz/CMakeLists.txt).
#pragma once
#include <cstddef>
#include <cstdint>

struct FuzzTarget {
  const char* name;
  int (*run)(const std::uint8_t* data, std::size_t size);
};
extern const FuzzTarget kFuzzTargets[];  // ends with {nullptr, nullptr}

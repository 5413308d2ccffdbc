// An input to a format: the bytes of a file (mapped, or held in memory when it came out of an
// archive via ARCHIVE::INNER), its display name and, when it is a real file, its path (formats
// that use sibling files such as Oni's .raw/.sep or Warriors' WAD find them from it).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "assay/core/bytes.h"
#include "assay/core/memory.h"

namespace assay {

struct Input {
  std::string name;             // what errors and output call it
  std::filesystem::path path;   // empty for in-memory inputs
  ByteView bytes;               // empty for directories
  bool is_directory = false;
  std::shared_ptr<const void> owner;  // keeps `bytes` alive

  // The file name: the path's, or for an entry of a container the last part of its name
  // ("PACK.pak::disc/WARRIORS.DIR" -> "WARRIORS.DIR").
  [[nodiscard]] std::string file_name() const;
  // Opens a file (mapped) or a directory (no bytes). I/O errors are ErrorKind::io.
  static Result<Input> open(const std::filesystem::path& path);
  static Input from_buffer(std::string name, ByteBuffer data);
  // The same, holding `lease` (the buffer's share of the memory budget) as long as the bytes live.
  static Input from_buffer(std::string name, ByteBuffer data, MemoryLease lease);
};

}  // namespace assay

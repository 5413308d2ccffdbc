#include "assay/core/input.h"

#include <system_error>

#include "assay/core/mapped_file.h"

namespace assay {

std::string Input::file_name() const {
  if (!path.empty()) return path.filename().string();
  std::string_view n = name;
  if (const auto sep = n.rfind("::"); sep != std::string_view::npos) n.remove_prefix(sep + 2);
  if (const auto slash = n.find_last_of("/\\"); slash != std::string_view::npos) n.remove_prefix(slash + 1);
  return std::string(n);
}

Result<Input> Input::open(const std::filesystem::path& path) {
  std::error_code ec;
  Input in;
  in.name = path.string();
  in.path = path;
  if (std::filesystem::is_directory(path, ec)) {
    in.is_directory = true;
    return in;
  }
  ASSAY_TRY(MappedFile m, MappedFile::open(path));
  auto owner = std::make_shared<MappedFile>(std::move(m));
  in.bytes = owner->bytes();
  in.owner = owner;
  return in;
}

Input Input::from_buffer(std::string name, ByteBuffer data) {
  auto owner = std::make_shared<ByteBuffer>(std::move(data));
  Input in;
  in.name = std::move(name);
  in.bytes = ByteView(*owner);
  in.owner = owner;
  return in;
}

Input Input::from_buffer(std::string name, ByteBuffer data, MemoryLease lease) {
  struct Owned {
    ByteBuffer data;
    MemoryLease lease;
  };
  auto owner = std::make_shared<Owned>(Owned{std::move(data), std::move(lease)});
  Input in;
  in.name = std::move(name);
  in.bytes = ByteView(owner->data);
  in.owner = owner;
  return in;
}

}  // namespace assay

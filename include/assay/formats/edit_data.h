// The new bytes of a replace/add change: held in EditChange::data, or the file
// they came from read in pieces (core/file_reader.h), so an edit with a multi-GiB file streams it
// through the encoder block by block and never holds it whole. The CLI leaves `data` empty for
// the families that read files (edit_reads_files) and names the file in
// ReadOptions::family[edit_source_key(name)] (formats/edit_input.h), as it does for messages.
#pragma once

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "assay/core/file_reader.h"
#include "assay/formats/edit_input.h"
#include "assay/options.h"

namespace assay {

// Families whose edit reads a FILE in pieces (EditData::of): `assay replace/add` does not read it
// for them.
inline bool edit_reads_files(std::string_view format) {
  return format == "igarchive" || format == "oni" || format == "warriors";
}

class EditData {
 public:
  EditData() = default;
  // Held bytes (which must outlive this), as the ByteView/ByteBuffer fields this replaced took.
  EditData(ByteView b) : bytes_(b) {}           // NOLINT(google-explicit-constructor)
  EditData(const ByteBuffer& b) : bytes_(b) {}  // NOLINT(google-explicit-constructor)
  static EditData of_bytes(ByteView b) {
    EditData d;
    d.bytes_ = b;
    return d;
  }
  static Result<EditData> of_file(const std::filesystem::path& p) {
    EditData d;
    ASSAY_TRY(FileReader r, FileReader::open(p));
    d.file_ = std::move(r);
    return d;
  }
  // The change's data: its bytes (which must outlive this), or when they are empty the file
  // named for the change in req.read.family (read in pieces; an empty file reads the same).
  static Result<EditData> of(const EditRequest& req, const EditChange& c) {
    if (c.data.empty())
      if (auto it = req.read.family.find(edit_source_key(c.name)); it != req.read.family.end() && !it->second.empty())
        return of_file(it->second);
    return of_bytes(c.data);
  }

  [[nodiscard]] std::uint64_t size() const { return file_ ? file_->size() : bytes_.size(); }
  [[nodiscard]] bool is_file() const { return file_.has_value(); }
  // Exactly out.size() bytes from `offset` (thread-safe).
  Result<void> read(std::uint64_t offset, std::span<std::uint8_t> out) const {
    if (file_) return file_->read(offset, out);
    if (!range_ok(offset, out.size(), bytes_.size())) return usage_error("edit data read past its end");
    if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return {};
  }
  // The first min(n, size()) bytes (a header checked before anything else is read).
  Result<ByteBuffer> head(std::uint64_t n) const {
    ByteBuffer b(static_cast<std::size_t>(std::min(n, size())));
    ASSAY_CHECK(read(0, b));
    return b;
  }
  // All of it when at most `cap` bytes, else a usage error naming `what`, the size and the cap.
  Result<ByteBuffer> read_all(std::uint64_t cap, const std::string& what) const {
    if (size() > cap) return usage_error(what + " is " + std::to_string(size()) + " bytes; at most " + std::to_string(cap) + " are taken here");
    return head(size());
  }
  // Calls fn(offset, piece) over the data in pieces of at most `piece` bytes (one buffer reused).
  template <class Fn>
  Result<void> each_piece(std::uint64_t piece, Fn&& fn) const {
    if (!file_) {
      for (std::uint64_t at = 0; at < bytes_.size(); at += piece) ASSAY_CHECK(fn(at, bytes_.subspan(at, std::min<std::uint64_t>(piece, bytes_.size() - at))));
      return {};
    }
    ByteBuffer buf(static_cast<std::size_t>(std::min(piece, size())));
    for (std::uint64_t at = 0; at < size(); at += piece) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(piece, size() - at));
      ASSAY_CHECK(file_->read(at, std::span<std::uint8_t>(buf.data(), n)));
      ASSAY_CHECK(fn(at, ByteView(buf.data(), n)));
    }
    return {};
  }

 private:
  ByteView bytes_;
  std::optional<FileReader> file_;
};

}  // namespace assay

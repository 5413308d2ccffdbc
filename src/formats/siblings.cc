// Siblings (assay/family.h): the files that go with an input, from its folder or from the
// container it was read from.
#include <algorithm>
#include <cctype>
#include <system_error>

#include "assay/family.h"

namespace assay {

namespace {

namespace fs = std::filesystem;

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

class NoSiblings final : public Siblings {
 public:
  [[nodiscard]] Result<std::optional<Input>> open(std::string_view) const override { return std::optional<Input>(); }
  [[nodiscard]] std::vector<std::string> names() const override { return {}; }
};

class FolderSiblings final : public Siblings {
 public:
  explicit FolderSiblings(fs::path folder) : folder_(std::move(folder)) {}

  [[nodiscard]] Result<std::optional<Input>> open(std::string_view name) const override {
    std::error_code ec;
    if (fs::path exact = folder_ / std::string(name); fs::is_regular_file(exact, ec)) return opened(exact);
    for (const std::string& n : names())
      if (same_name(n, name)) return opened(folder_ / n);
    return std::optional<Input>();
  }

  [[nodiscard]] std::vector<std::string> names() const override { return files_in(folder_); }

  // The folder, then each folder above (up to four, never the root) and its subfolders one level
  // down.
  [[nodiscard]] Result<std::optional<Input>> open_anywhere(std::string_view name) const override {
    if (auto here = find_in(folder_, name)) return opened(*here);
    std::error_code ec;
    fs::path above = fs::absolute(folder_, ec);
    for (int up = 0; up < 4 && !ec && above.has_parent_path() && above.parent_path() != above; ++up) {
      above = above.parent_path();
      if (!above.has_relative_path()) break;  // never the file system's root
      if (auto hit = find_in(above, name)) return opened(*hit);
      std::vector<fs::path> subfolders;
      for (fs::directory_iterator it(above, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory(ec)) subfolders.push_back(it->path());
      std::sort(subfolders.begin(), subfolders.end());
      for (const fs::path& sub : subfolders)
        if (auto hit = find_in(sub, name)) return opened(*hit);
    }
    return std::optional<Input>();
  }

 private:
  static std::vector<std::string> files_in(const fs::path& folder) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file(ec)) out.push_back(it->path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  static std::optional<fs::path> find_in(const fs::path& folder, std::string_view name) {
    for (const std::string& n : files_in(folder))
      if (same_name(n, name)) return folder / n;
    return std::nullopt;
  }
  static Result<std::optional<Input>> opened(const fs::path& p) {
    ASSAY_TRY(Input in, Input::open(p));
    return std::optional<Input>(std::move(in));
  }
  fs::path folder_;
};

// The folder part of an entry's path ("maps/level1.dat" -> "maps/"), either separator.
std::string_view folder_of(std::string_view path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash + 1);
}

class EntrySiblings final : public Siblings {
 public:
  EntrySiblings(const Container& parent, const Entry& of) : parent_(parent), folder_(folder_of(spelling(of))) {}

  [[nodiscard]] Result<std::optional<Input>> open(std::string_view name) const override {
    for (const Entry& e : parent_.entries()) {
      const std::string_view s = spelling(e);
      if (!in_folder(s) || !same_name(s.substr(folder_.size()), name)) continue;
      ASSAY_TRY(Input in, parent_.read(e));
      return std::optional<Input>(std::move(in));
    }
    return std::optional<Input>();
  }

  // Any folder of the container.
  [[nodiscard]] Result<std::optional<Input>> open_anywhere(std::string_view name) const override {
    for (const Entry& e : parent_.entries()) {
      const std::string_view s = spelling(e);
      if (!same_name(s.substr(folder_of(s).size()), name)) continue;
      ASSAY_TRY(Input in, parent_.read(e));
      return std::optional<Input>(std::move(in));
    }
    return std::optional<Input>();
  }

  [[nodiscard]] std::vector<std::string> names() const override {
    std::vector<std::string> out;
    for (const Entry& e : parent_.entries()) {
      const std::string_view s = spelling(e);
      if (in_folder(s) && s.find_first_of("/\\", folder_.size()) == std::string_view::npos)
        out.emplace_back(s.substr(folder_.size()));
    }
    return out;
  }

 private:
  static std::string_view spelling(const Entry& e) { return e.path.empty() && e.name ? *e.name : e.path; }
  [[nodiscard]] bool in_folder(std::string_view s) const {
    return s.size() > folder_.size() && same_name(s.substr(0, folder_.size()), folder_) &&
           folder_of(s).size() == folder_.size();
  }
  const Container& parent_;
  std::string folder_;
};

}  // namespace

Result<std::optional<Input>> Siblings::open_anywhere(std::string_view file_name) const { return open(file_name); }

const Siblings& no_siblings() {
  static const NoSiblings none;
  return none;
}

std::unique_ptr<Siblings> folder_siblings(const Input& in) {
  if (in.path.empty()) return std::make_unique<NoSiblings>();
  if (in.is_directory) return std::make_unique<FolderSiblings>(in.path);
  return std::make_unique<FolderSiblings>(in.path.has_parent_path() ? in.path.parent_path() : fs::path("."));
}

std::unique_ptr<Siblings> entry_siblings(const Container& parent, const Entry& of) {
  return std::make_unique<EntrySiblings>(parent, of);
}

}  // namespace assay

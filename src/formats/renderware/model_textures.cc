// The texture dictionaries a clump's models take their textures from (stream.h ModelTextures).
#include <fmt/format.h>

#include <algorithm>

#include "assay/core/ascii.h"
#include "stream.h"

namespace assay::rw::detail {

std::string file_stem(const Input& in) {
  const std::string name = in.file_name();
  const std::string_view base = name;
  const std::size_t dot = base.rfind('.');
  return std::string(dot == std::string_view::npos || dot == 0 ? base : base.substr(0, dot));
}

Result<void> ModelTextures::add(Input in) {
  auto held = std::make_unique<Held>(Held{std::move(in), std::nullopt});
  ASSAY_TRY(held->dict, TextureDictionary::open(held->input.bytes));
  held_.push_back(std::move(held));
  return {};
}

TextureSources ModelTextures::sources() const {
  TextureSources s;
  for (const auto& h : held_) s.dictionaries.push_back(&*h->dict);
  return s;
}

bool ModelTextures::has(std::string_view name) const {
  for (const auto& h : held_)
    for (const TextureNative& t : h->dict->textures())
      if (ascii_iequals(t.name, name)) return true;
  return false;
}

std::string ModelTextures::where() const {
  if (!unreadable.empty()) return fmt::format("{} is unreadable: {}", wanted, unreadable);
  if (held_.empty()) return fmt::format("no {} beside it", wanted);
  if (held_.size() == 1) return fmt::format("looked in {}", held_.front()->input.name);
  return fmt::format("looked in {} and {} more", held_.front()->input.name, held_.size() - 1);
}

Result<ModelTextures> model_textures(const OpenContext& ctx) {
  ModelTextures t;
  for (const std::string& path : ctx.options.renderware.txd) {
    auto in = Input::open(path);
    if (!in) return usage_error(fmt::format("--txd {}: {}", path, in.error().message));
    if (auto added = t.add(std::move(*in)); !added)
      return usage_error(fmt::format("--txd {}: {}", path, added.error().str()));
  }
  t.wanted = file_stem(ctx.input) + ".txd";
  auto sibling = ctx.siblings.open(t.wanted);
  if (sibling && *sibling)
    if (auto added = t.add(std::move(**sibling)); !added) t.unreadable = added.error().message;
  for (const Input& d : ctx.options.renderware.dictionaries) (void)t.add(d);  // one that does not open adds nothing
  return t;
}

}  // namespace assay::rw::detail

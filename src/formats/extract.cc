// extract (assay/ops.h): one loop over Container::write_entry.
#include "assay/ops.h"

#include "assay/core/thread_pool.h"

namespace assay {

std::vector<ExtractItem> extract_items(const Container& c, bool stored) {
  std::vector<ExtractItem> items;
  items.reserve(c.entries().size());
  for (const Entry& e : c.entries()) {
    std::string path = stored ? c.stored_path(e) : e.path;
    items.push_back({e.name ? *e.name : e.path, {e.path}, std::move(path), e.size.value_or(0)});
  }
  return items;
}

ExtractPolicy extract_policy(const Container& c, const ExtractOptions& x) {
  ExtractPolicy p = extract_policy(x, c.options().read_options());
  p.threads = c.options().threads ? c.options().threads : default_threads();
  p.fold_case = c.case_insensitive();
  p.find = [&c](std::string_view name) -> std::optional<std::size_t> {
    const Entry* e = c.find(name);
    return e ? std::optional<std::size_t>(e->index) : std::nullopt;
  };
  return p;
}

Result<ExtractStats> extract(const Container& c, const ExtractOptions& x, const OutputDir& dir, Diagnostics& findings) {
  ASSAY_CHECK(c.extractable());
  c.extract_findings(findings);
  const WriteItem write = [&c, &x](std::size_t i, const OutputDir& out, unsigned threads) {
    return c.write_entry(c.entries()[i], out, WriteOptions{threads, x.mips, x.stored, x.gltf});
  };
  std::vector<ExtractItem> items = extract_items(c, x.stored);
  for (std::size_t i = 0; x.gltf && !x.stored && i < items.size(); ++i)  // the .gltf is the model's first file
    if (c.entries()[i].kind == EntryKind::model && items[i].path.ends_with(".glb")) items[i].path.back() = 't', items[i].path += 'f';
  return extract_stats(extract_each(items, write, extract_policy(c, x), dir));
}

ExtractStats extract_entries(const Container& c, const ExtractOptions& x, const OutputDir& dir, const WriteItem& write) {
  const WriteItem bytes = [&c](std::size_t i, const OutputDir& out, unsigned threads) {
    return c.write_entry(c.entries()[i], out, WriteOptions{threads, false, false});
  };
  return extract_stats(extract_each(extract_items(c), write ? write : bytes, extract_policy(c, x), dir));
}

}  // namespace assay

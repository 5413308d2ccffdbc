// verify --deep: every inner file of a container, verified by its own format, in parallel.
// Generic over containers: uses only the Format records (list + open_inner + identify).
#include <mutex>

#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"
#include "assay/formats/format.h"

namespace assay {

namespace {

// Verifies one inner file into `out`, naming it in every diagnostic.
void verify_one(const Format& outer, const Input& in, const std::string& name,
                const ReadOptions& opt, Diagnostics& out) {
  auto inner = outer.open_inner(in, name);
  if (!inner) {
    Error e = inner.error();
    e.structure = name + ": " + e.structure;
    out.error(std::move(e));
    return;
  }
  const Format* f = identify_format(*inner);
  if (f == nullptr || f->verify == nullptr) return;  // not a format we check: nothing to say
  Diagnostics d;
  ReadOptions o = opt;
  o.deep = false;  // one level: inner containers are verified, not opened again
  o.progress = false;
  o.threads = 1;
  f->verify(*inner, o, d);
  for (Diagnostic x : d.items()) {
    x.where.structure = name + ": " + x.where.structure;
    out.add(std::move(x));
  }
}

}  // namespace

void verify_inner_files(const Format& outer, const Input& in, const ReadOptions& opt,
                        Diagnostics& out) {
  if (outer.open_inner == nullptr || outer.list == nullptr) return;
  auto listing = outer.list(in, opt);
  if (!listing) return;  // the outer verify has already reported why
  std::vector<std::string> names;
  for (const auto& e : (*listing)["entries"])
    if (e.contains("name") && e["name"].is_string()) names.push_back(e["name"].get<std::string>());
  std::vector<Diagnostics> per(names.size());
  Progress progress("verify --deep", names.size(), opt.progress);
  parallel_for(names.size(), opt.threads, [&](std::size_t i) {
    verify_one(outer, in, names[i], opt, per[i]);
    progress.advance();
  });
  progress.finish();
  for (const auto& d : per) out.append(d);  // file order, whatever the thread order
}

}  // namespace assay

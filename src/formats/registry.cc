// The one list of families, in identify order (include/assay/family.h).
#include "assay/family.h"
#include "dispatch.h"

namespace assay {

// ---- families (include/assay/family.h) ----
const std::vector<const Family*>& families() {
  static const std::vector<const Family*> all = {&kIgArchiveFamily, &kIgzFamily, &kWarriorsFamily, &kOniFamily,
                                                 &kRenderWareFamily};
  return all;
}

const Family* find_family(std::string_view name) {
  for (const Family* f : families())
    if (f->name == name) return f;
  return nullptr;
}

const Family* detail::identify_in_registry(const Input& in) {
  const Family* best = nullptr;
  int best_score = 0;
  for (const Family* f : families()) {
    const int s = f->identify(in);
    if (s > best_score) best = f, best_score = s;
  }
  return best;
}

}  // namespace assay

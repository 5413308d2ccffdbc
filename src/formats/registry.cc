#include "assay/family.h"
#include "assay/formats/format.h"

namespace assay {

const std::vector<const Format*>& all_formats() {
  static const std::vector<const Format*> all = {&kIgArchiveFormat, &kIgzFormat, &kWarriorsFormat,
                                                 &kOniFormat, &kRenderWareFormat};
  return all;
}

const Format* find_format(std::string_view name) {
  for (const Format* f : all_formats())
    if (f->name == name) return f;
  return nullptr;
}

const Format* identify_format(const Input& in) {
  const Format* best = nullptr;
  int best_score = 0;
  for (const Format* f : all_formats()) {
    if (!f->identify) continue;
    int s = f->identify(in);
    if (s > best_score) best = f, best_score = s;
  }
  return best;
}

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

const Family* identify_family(const Input& in) {
  const Family* best = nullptr;
  int best_score = 0;
  for (const Family* f : families()) {
    const int s = f->identify(in);
    if (s > best_score) best = f, best_score = s;
  }
  return best;
}

}  // namespace assay

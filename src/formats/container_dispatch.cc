// The container layer's side of src/formats/dispatch.h: what a family calls to open a nested
// file or identify one, forwarded to the registry when it is linked.
#include "dispatch.h"

namespace assay {

namespace {
detail::Dispatch g_dispatch;  // constant-initialised; set before main by the registry
}

void detail::install_dispatch(const Dispatch& d) { g_dispatch = d; }

Error unrecognised_error(std::string file, std::string_view structure) {
  Error e = make_error("", structure, kNoOffset, "unrecognised file format");
  e.file = std::move(file);
  e.code = "unrecognised";
  return e;
}

Result<std::unique_ptr<Container>> open_entry(const Container& parent, const Entry& e, Input in,
                                              const ContainerOptions& opt) {
  if (g_dispatch.open_entry == nullptr)  // a family library linked without the registry
    return unrecognised_error(std::move(in.name), "no family registry linked");
  return g_dispatch.open_entry(parent, e, std::move(in), opt);
}

const Family* identify_family(const Input& in) { return g_dispatch.identify ? g_dispatch.identify(in) : nullptr; }

Result<std::unique_ptr<Container>> Container::open(const Entry& e) const {
  ASSAY_TRY(Input in, read(e));
  return open_entry(*this, e, std::move(in), options_);
}

}  // namespace assay

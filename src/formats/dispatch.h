// The registry's services a family needs for nested files (open an entry of any family; which
// family a file is), reached through pointers the registry installs (src/formats/container.cc)
// so that the family libraries link the container layer only, never the registry: no link cycle.
#pragma once

#include <memory>

#include "assay/container.h"
#include "assay/family.h"

namespace assay::detail {

struct Dispatch {
  Result<std::unique_ptr<Container>> (*open_entry)(const Container& parent, const Entry& e, Input in,
                                                   const ContainerOptions& opt) = nullptr;
  const Family* (*identify)(const Input& in) = nullptr;
};

// Set once by the registry at static initialisation; a program linked without it (a family
// library alone) opens no nested file and identifies nothing.
void install_dispatch(const Dispatch& d);

// The registry's own identify (src/formats/registry.cc), which it installs.
const Family* identify_in_registry(const Input& in);

}  // namespace assay::detail

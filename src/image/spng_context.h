// The libspng context as an owning pointer and libspng's error codes as assay Errors, for the PNG
// writer (png.cc) and reader (png_read.cc).
#pragma once

#include <spng.h>

#include <memory>
#include <string_view>

#include "assay/core/error.h"

namespace assay::image::detail {

struct SpngFree {
  void operator()(spng_ctx* c) const { spng_ctx_free(c); }
};
using SpngContext = std::unique_ptr<spng_ctx, SpngFree>;

inline Error png_error(std::string_view what, int rc) { return make_error("png", what, kNoOffset, spng_strerror(rc)); }

}  // namespace assay::image::detail

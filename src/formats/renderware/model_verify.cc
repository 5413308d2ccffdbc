// Model checks verify adds for clumps (docs/cli.md "### renderware"): each top-level clump is
// decoded as extract decodes it (a failure is an error), then what an exporter would trip on, as
// warnings. The bounding sphere and Skin/HAnim facts follow librw's reading; the
// Bin Mesh index count of a triangle list is 3 x triangles (spec: renderware.md#rw-7-2).
#include <fmt/format.h>

#include <cmath>

#include "assay/formats/renderware/model.h"
#include "children.h"
#include "stream.h"

namespace assay::rw::detail {

namespace {

void warn(Diagnostics& out, std::string structure, std::uint64_t offset, std::string message, std::string_view code) {
  out.add({Severity::warning, rw_error(std::move(structure), offset, std::move(message), code)});
}

// Positions farther from the stored sphere's centre than its radius (0.1% and 1e-4 of slack).
void check_spheres(const ModelGeometry& g, std::size_t gi, Diagnostics& out) {
  for (std::size_t m = 0; m < g.morph_targets.size(); ++m) {
    const ModelMorphTarget& t = g.morph_targets[m];
    const double r = t.sphere[3] * 1.001 + 1e-4;
    std::size_t outside = 0;
    for (const auto& p : t.positions) {
      const double dx = p[0] - t.sphere[0], dy = p[1] - t.sphere[1], dz = p[2] - t.sphere[2];
      outside += std::sqrt(dx * dx + dy * dy + dz * dz) > r;
    }
    if (outside)
      warn(out, fmt::format("Geometry {}", gi), g.offset,
           fmt::format("{} of {} positions of morph target {} lie outside its bounding sphere (radius {})", outside,
                       t.positions.size(), m, t.sphere[3]),
           "renderware.bounding-sphere");
  }
}

void check_skin(const ClumpModel& c, const ModelGeometry& g, std::size_t gi, Diagnostics& out) {
  if (!g.skin) return;
  for (const ModelFrame& f : c.frames)
    if (!f.hierarchy.empty() && f.hierarchy.size() != g.skin->bones)
      warn(out, fmt::format("Geometry {}", gi), g.offset,
           fmt::format("the skin has {} bones but the HAnim hierarchy {} nodes", g.skin->bones, f.hierarchy.size()),
           "renderware.skin-bones");
}

void check_bin_mesh(const GeometrySummary& g, std::size_t gi, Diagnostics& out) {
  constexpr std::uint32_t kTriStrip = 1;
  if (!g.has_bin_mesh || g.native || (g.mesh_flags & kTriStrip) || g.mesh_indices == 3ull * g.triangles) return;
  warn(out, fmt::format("Geometry {}", gi), g.offset,
       fmt::format("Bin Mesh holds {} indices but {} triangles need {}", g.mesh_indices, g.triangles,
                   3ull * g.triangles),
       "renderware.binmesh-indices");
}

// The clump decoder's failure (what extract of this model would stop at), named by its clump.
// The walk's rules may already have said the same (a summary error): reported once.
void report_decode(std::size_t ci, const Error& e, Diagnostics& out) {
  Error named = coded(e, "renderware.clump");
  named.structure = fmt::format("Clump {} {}", ci, named.structure);
  for (const Diagnostic& d : out.items())
    if (d.severity == Severity::error && d.where.offset == e.offset && d.where.message == e.message) return;
  out.add({Severity::error, std::move(named)});
}

}  // namespace

void verify_models(const Stream& s, ByteView bytes, Diagnostics& out) {
  for (std::size_t ci = 0; ci < s.clumps.size(); ++ci) {
    const ClumpSummary& summary = s.clumps[ci];
    for (std::size_t gi = 0; gi < summary.geometries.size(); ++gi) check_bin_mesh(summary.geometries[gi], gi, out);
    auto section = section_bytes(bytes, summary.offset);
    if (!section) continue;
    auto clump = decode_clump(*section, summary.offset);
    if (!clump) {  // extract would stop here: every model entry is decoded as extract decodes it
      report_decode(ci, clump.error(), out);
      continue;
    }
    for (std::size_t gi = 0; gi < clump->geometries.size(); ++gi) {
      check_spheres(clump->geometries[gi], gi, out);
      check_skin(*clump, clump->geometries[gi], gi, out);
    }
  }
}

}  // namespace assay::rw::detail

// `assay extract LEVEL.dat -o DIR [GLOB]`: one VR32 .oni per named instance (spec: oni.md#oni-8).
#include <fmt/format.h>

#include <map>

#include "assay/core/glob.h"
#include "assay/formats/oni/oni.h"
#include "chunks.h"

namespace assay::oni {

namespace {

struct Exporter {
  const LoadedFile& f;
  std::vector<std::int32_t> walked_of;  // descriptor -> index into f.walked, or -1
  std::vector<std::vector<std::uint32_t>> chunks_of;
  detail::ChunkStarts raw_starts, sep_starts;

  explicit Exporter(const LoadedFile& file) : f(file) {
    walked_of.assign(f.file.instance_count(), -1);
    for (std::size_t k = 0; k < f.walked.size(); ++k) walked_of[f.walked[k].index] = static_cast<std::int32_t>(k);
    chunks_of.resize(f.file.instance_count());
    for (std::size_t k = 0; k < f.chunks.size(); ++k) {
      const ChunkRef& c = f.chunks[k];
      chunks_of[c.instance].push_back(static_cast<std::uint32_t>(k));
      (c.kind == FieldKind::sep && !f.file.is_oni() ? sep_starts : raw_starts).add(c.value);
    }
    raw_starts.finish();
    sep_starts.finish();
  }

  template <class Fn>
  void for_links(std::uint32_t i, Fn&& fn) const {
    if (walked_of[i] < 0) return;
    const WalkedInstance& w = f.walked[static_cast<std::size_t>(walked_of[i])];
    for (std::uint32_t k = w.first_link; k < w.first_link + w.link_count; ++k) fn(f.links[k]);
  }

  // Main instance, its unnamed dependents (breadth first), then named targets as placeholders.
  std::vector<std::uint32_t> collect(std::uint32_t main, std::map<std::uint32_t, std::uint32_t>& newidx,
                                     std::vector<std::uint8_t>& reached) const {
    std::vector<std::uint32_t> order{main};
    newidx[main] = 0;
    for (std::size_t q = 0; q < order.size(); ++q)
      for_links(order[q], [&](const Link& l) {
        if (l.bad || !f.file.descriptor(l.target).unnamed() || newidx.count(l.target)) return;
        newidx[l.target] = static_cast<std::uint32_t>(order.size());
        order.push_back(l.target);
        reached[l.target] = 1;
      });
    const std::size_t with_data = order.size();
    for (std::size_t q = 0; q < with_data; ++q)
      for_links(order[q], [&](const Link& l) {
        if (l.bad || newidx.count(l.target)) return;
        newidx[l.target] = static_cast<std::uint32_t>(order.size());
        order.push_back(l.target);
      });
    return order;
  }

  Result<ByteBuffer> build(std::uint32_t main, std::vector<std::uint8_t>& reached, Diagnostics& diags) const {
    std::map<std::uint32_t, std::uint32_t> newidx;
    const auto order = collect(main, newidx, reached);
    OniFileSpec spec;
    spec.checksum = f.file.header().checksum;
    CompanionWriter raw;
    std::map<std::pair<int, std::uint32_t>, std::uint32_t> copied;
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::uint32_t i = order[k];
      const Descriptor d = f.file.descriptor(i);
      InstanceSpec s;
      s.tag = d.tag;
      s.name = d.unnamed() ? "" : std::string(f.names[i]);
      s.flags = static_cast<std::uint16_t>(d.flags() & ~(kFlagUnnamed | kFlagPlaceholder));
      const bool as_placeholder = k > 0 && !d.unnamed();
      if (as_placeholder || !f.has_data[i]) {
        s.flags |= kFlagPlaceholder;
        spec.instances.push_back(std::move(s));
        continue;
      }
      const ByteView inst = *f.file.instance_bytes(i);
      s.data.assign(inst.begin(), inst.end());
      if (walked_of[i] < 0 && !d.duplicate())
        diags.warning(f.file.error(instance_label(i, d.tag, f.names[i]), f.file.instance_file_offset(d), "exported without its links: the instance was not walked"));
      for_links(i, [&](const Link& l) {
        const std::uint32_t v = l.bad ? 0 : (newidx.at(l.target) << 8 | 1);
        store<std::uint32_t>(s.data.data() + l.offset, v, Endian::little);
      });
      for (std::uint32_t ck : chunks_of[i]) {
        const ChunkRef& c = f.chunks[ck];
        const ByteView comp = detail::companion_of(f, c.kind);
        const auto& starts = (c.kind == FieldKind::sep && !f.file.is_oni()) ? sep_starts : raw_starts;
        if (c.value < 32 || c.value >= comp.size()) continue;  // reported by the walk
        const std::uint64_t n = std::min<std::uint64_t>(starts.extent(c.value, c.size, comp.size()), comp.size() - c.value);
        const auto key = std::make_pair(static_cast<int>(c.kind), c.value);
        if (!copied.count(key)) copied[key] = raw.add(comp.subspan(c.value, n));
        store<std::uint32_t>(s.data.data() + c.offset, copied[key], Endian::little);
      }
      spec.instances.push_back(std::move(s));
    }
    if (!raw.empty()) spec.raw_block = raw.bytes();
    return write_oni_file(spec);
  }
};

}  // namespace

// The Exporter's indexes are built once per level (O(instances)); each .oni then costs its own closure.
struct OniExport::Impl {
  Exporter ex;
  explicit Impl(const LoadedFile& f) : ex(f) {}
};

OniExport::OniExport(const LoadedFile& f) : impl_(std::make_unique<Impl>(f)) {}
OniExport::~OniExport() = default;

Result<ByteBuffer> OniExport::build(std::uint32_t i, Diagnostics& diags) const {
  std::vector<std::uint8_t> reached(impl_->ex.f.file.instance_count(), 0);
  return impl_->ex.build(i, reached, diags);
}

std::vector<std::uint32_t> OniExport::closure(std::uint32_t main) const {
  std::map<std::uint32_t, std::uint32_t> newidx;
  std::vector<std::uint8_t> reached(impl_->ex.f.file.instance_count(), 0);
  return impl_->ex.collect(main, newidx, reached);
}

void OniExport::warn_unwalked(Diagnostics& diags) const {
  const Exporter& ex = impl_->ex;
  const LoadedFile& f = ex.f;
  std::vector<std::uint8_t> reached(f.file.instance_count(), 0), warned(f.file.instance_count(), 0);
  for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) {
    if (!exported(f, i)) continue;
    std::map<std::uint32_t, std::uint32_t> newidx;
    const auto order = ex.collect(i, newidx, reached);
    for (std::size_t k = 0; k < order.size(); ++k) {
      const std::uint32_t t = order[k];
      const Descriptor d = f.file.descriptor(t);
      if ((k > 0 && !d.unnamed()) || !f.has_data[t] || ex.walked_of[t] >= 0 || d.duplicate() || warned[t]) continue;
      warned[t] = 1;
      diags.warning(f.file.error(instance_label(t, d.tag, f.names[t]), f.file.instance_file_offset(d), "exported without its links: the instance was not walked"));
    }
  }
}

std::uint32_t OniExport::orphans() const {
  const LoadedFile& f = impl_->ex.f;
  std::vector<std::uint8_t> reached(f.file.instance_count(), 0);
  for (std::uint32_t i = 0; i < f.file.instance_count(); ++i)
    if (exported(f, i)) {
      std::map<std::uint32_t, std::uint32_t> newidx;
      (void)impl_->ex.collect(i, newidx, reached);
    }
  std::uint32_t n = 0;
  for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) n += f.file.descriptor(i).unnamed() && f.has_data[i] && !reached[i];
  return n;
}

bool OniExport::exported(const LoadedFile& f, std::uint32_t i) {
  return !f.file.descriptor(i).unnamed() && f.has_data[i] && !f.names[i].empty();
}

void warn_orphans(const LoadedFile& f, const OniExport& ex, Diagnostics& diags) {
  if (const std::uint32_t n = ex.orphans())
    diags.warning(f.file.error("export", kNoOffset, fmt::format("{} unnamed instances are reached from no named instance: not exported", n)));
}

std::vector<std::uint32_t> export_closure(const LoadedFile& f, std::uint32_t main) { return OniExport(f).closure(main); }

Result<ExportStats> export_oni_files(const LoadedFile& f, const std::vector<std::string>& globs, const OutputDir& out,
                                     Diagnostics& diags) {
  diags.append(f.diags);
  const OniExport ex(f);
  ExportStats st;
  for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) {
    if (!OniExport::exported(f, i) || !glob_any(globs, f.names[i])) continue;
    ASSAY_TRY(ByteBuffer b, ex.build(i, diags));
    ASSAY_CHECK(out.write(oni_file_name(f.names[i]), b));
    ++st.files;
    st.bytes += b.size();
  }
  if (globs.empty()) warn_orphans(f, ex, diags);
  return st;
}

}  // namespace assay::oni

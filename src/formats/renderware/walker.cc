// The validating section walker. spec: renderware.md#rw-4 (walk, exceptions), #rw-9 (R1-R6, R22).
// Iterative (an explicit stack of open containers), so a hostile nesting cannot overflow the
// C++ stack; the depth cap (R6) bounds the stack too.
#include "assay/formats/renderware/walker.h"
#include "codes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

#include "assay/core/mapped_file.h"

#include "assay/formats/renderware/texture.h"
#include "children.h"
#include "records.h"

namespace assay::rw {

namespace {

constexpr std::uint32_t kMaxStampWarnings = 16;

std::string describe(std::uint32_t type) {
  const std::string_view n = section_name(type);
  return n.empty() ? fmt::format("section 0x{:X}", type) : fmt::format("section 0x{:X} ({})", type, n);
}

struct Open {
  Section s;             // the open container (a copy: the walk keeps no tree)
  std::uint64_t end;     // end of the body, offset in the view
  std::uint32_t seen = 0;  // children visited so far
  bool ps2 = false;      // a Texture Native whose first Struct says "PS2\0"
};

constexpr std::uint64_t kProgressStep = 8u << 20;

class Walker {
 public:
  Walker(ByteView bytes, std::uint64_t base, const DiagSink& diag, const WalkOptions& opt, const SectionVisitor& visit,
         const WalkProgress& progress)
      : b_(bytes), base_(base), diag_(diag), opt_(opt), visit_(visit), progress_(progress) {
    sum_.base = base;
  }

  Result<WalkSummary> run() {
    std::uint64_t pos = 0;
    while (true) {
      const std::uint64_t limit = stack_.empty() ? b_.size() : stack_.back().end;
      if (pos == limit) {
        if (stack_.empty()) break;
        stack_.pop_back();
        continue;
      }
      if (stack_.empty() && sum_.top_sections != 0) {
        // spec: #rw-4-1 "Bytes after it" (R5)
        const std::uint64_t rest = b_.size() - pos;
        if (all_zero(pos)) {
          sum_.padding = rest;
          note("stream", pos, fmt::format("{} zero bytes of padding after the last top-level section (R5)", rest),
               Severity::note);
          break;
        }
        if (opt_.single_top_level || rest < SectionHeader::kSize)
          return err("stream", pos,
                     fmt::format("{} bytes after the top-level section are neither zero padding nor a section (R5)", rest));
      }
      ASSAY_CHECK(step(pos, limit));
      if (progress_ && pos >= reported_ + kProgressStep) {
        progress_(reported_, pos);
        reported_ = pos;
      }
    }
    sum_.stream_end = base_ + stream_end_;
    return sum_;
  }

 private:
  bool all_zero(std::uint64_t pos) const {  // pos <= size: the walk never passes the end
    const ByteView rest = b_.subspan(static_cast<std::size_t>(pos));
    return std::all_of(rest.begin(), rest.end(), [](std::uint8_t c) { return c == 0; });
  }

  // Children of a container body [body, end): counted from their headers only (a body that
  // does not hop to its end exactly is reported by the walk itself when it gets there).
  // The pages this look-ahead touches are handed to `progress_` as it goes (a container as
  // large as the file must not make the whole file resident).
  std::uint32_t count_children(std::uint64_t body, std::uint64_t end) const {
    std::uint32_t n = 0;
    std::uint64_t released = body;
    for (std::uint64_t p = body; end - p >= SectionHeader::kSize; ++n) {
      const std::uint64_t size = records::decode_at<SectionHeader>(b_, p).size;
      if (size > end - p - SectionHeader::kSize) return n + 1;
      p += SectionHeader::kSize + size;
      if (progress_ && p >= released + kProgressStep) {
        progress_(released, p);
        released = p;
      }
    }
    return n;
  }

  Result<void> step(std::uint64_t& pos, std::uint64_t limit) {
    const std::uint64_t left = limit - pos;
    if (left < SectionHeader::kSize) {
      if (stack_.empty())
        return err("stream", pos, fmt::format("{} trailing bytes are too short for a section header", left));
      const Section& p = stack_.back().s;
      return err(describe(p.header.type), p.offset - base_,
                 fmt::format("children do not fill the container: a tail of {} bytes at 0x{:x} (R2)", left,
                             base_ + pos));
    }
    Section s;
    s.offset = base_ + pos;
    s.header = records::decode_at<SectionHeader>(b_, pos);  // left >= 12 checked above
    s.depth = static_cast<std::uint32_t>(stack_.size());
    s.parent = stack_.empty() ? -1 : static_cast<std::int32_t>(stack_.back().s.index);
    // R1 before anything else (spec: #rw-4-1 "Check size against the bytes left")
    if (s.header.size > left - SectionHeader::kSize) {
      std::string parent = stack_.empty() ? std::string("the data")
                                          : fmt::format("its parent {} at 0x{:x}", describe(stack_.back().s.header.type),
                                                        stack_.back().s.offset);
      return err(describe(s.header.type), pos,
                 fmt::format("body of {} bytes runs to 0x{:x}, past the end of {} (0x{:x}) (R1)",
                             s.header.size, s.offset + SectionHeader::kSize + s.header.size, parent,
                             base_ + limit));
    }
    if (!plausible_stamp(s.header.stamp))  // R3
      return err(describe(s.header.type), pos,
                 fmt::format("library stamp 0x{:08X} is not a RenderWare 3 version (R3)", s.header.stamp));
    if (s.depth > opt_.max_depth)  // R6
      return err(describe(s.header.type), pos,
                 fmt::format("nesting depth {} exceeds the limit of {} (R6)", s.depth, opt_.max_depth));
    if (sum_.sections == 0) {
      top_stamp_ = s.header.stamp;
    } else if (s.header.stamp != top_stamp_ && stamp_warnings_++ < kMaxStampWarnings) {  // R4
      note(describe(s.header.type), pos,
           fmt::format("stamp 0x{:08X} ({}) differs from the top section's 0x{:08X} (R4)", s.header.stamp,
                       decode_stamp_raw(s.header.stamp).str(), top_stamp_),
           Severity::warning);
    }
    if (opt_.report_unknown && !is_known_section(s.header.type) &&
        profile_or_generic(opt_.profile).plugin_name(s.header.type).empty())  // R22
      note(describe(s.header.type), pos, fmt::format("unknown section id, walked as raw (R22)"),
           Severity::note);

    s.container = container_here(s);
    const std::uint64_t body = pos + SectionHeader::kSize;
    const std::uint64_t end = body + s.header.size;
    if (s.container) s.child_count = count_children(body, end);
    s.index = sum_.sections;
    sum_.max_depth = std::max(sum_.max_depth, s.depth);
    ++sum_.sections;
    if (stack_.empty()) {
      ++sum_.top_sections;
      stream_end_ = end;
    } else {
      Open& o = stack_.back();
      ++o.seen;
      // The platform word of a texture native's first Struct (exception 1 of #rw-4-3).
      if (o.s.header.type == id::kTextureNative && o.seen == 1 && s.header.type == id::kStruct &&
          s.header.size >= records::NativePlatform::kSize) {
        const auto p = read_record<records::NativePlatform>(records::le_reader(b_, base_), body, "Texture Native struct");
        o.ps2 = p && p->platform == kPlatformPS2;
      }
    }
    if (visit_) visit_(s);
    if (s.container) {
      stack_.push_back({s, end});
      pos = body;
    } else {
      pos = end;
    }
    return {};
  }

  // spec: #rw-3 (C column), #rw-4-3 (the PS2 raster struct is a container; 0x510 is raw)
  bool container_here(const Section& s) const {
    if (s.header.type == id::kStruct && !stack_.empty()) {
      const Open& o = stack_.back();
      return o.ps2 && o.s.header.type == id::kTextureNative && o.seen == 3;
    }
    return is_container(s.header.type);
  }

  Error err(std::string structure, std::uint64_t pos, std::string message) const {
    return rw_error(structure, base_ + pos, std::move(message), "renderware.walk");
  }
  void note(std::string structure, std::uint64_t pos, std::string message, Severity sev) const {
    if (diag_) diag_({sev, rw_error(structure, base_ + pos, std::move(message), "renderware.walk")});
  }

  ByteView b_;
  std::uint64_t base_;
  const DiagSink& diag_;
  const WalkOptions& opt_;
  const SectionVisitor& visit_;
  const WalkProgress& progress_;
  WalkSummary sum_;
  std::vector<Open> stack_;
  std::uint32_t top_stamp_ = 0;
  std::uint32_t stamp_warnings_ = 0;
  std::uint64_t stream_end_ = 0;
  std::uint64_t reported_ = 0;
};

}  // namespace

const Section* SectionTree::find_top(std::uint32_t type) const {
  for (std::uint32_t i : top)
    if (sections[i].header.type == type) return &sections[i];
  return nullptr;
}

std::vector<std::uint32_t> SectionTree::children(std::uint32_t index) const {
  std::vector<std::uint32_t> out;
  if (index >= sections.size()) return out;
  const std::uint32_t d = sections[index].depth;
  for (std::size_t i = index + 1; i < sections.size() && sections[i].depth > d; ++i)
    if (sections[i].depth == d + 1) out.push_back(static_cast<std::uint32_t>(i));
  return out;
}

Result<WalkSummary> walk_each(ByteView bytes, std::uint64_t base, const DiagSink& diag, const WalkOptions& options,
                              const SectionVisitor& visit, const WalkProgress& progress) {
  if (bytes.size() < SectionHeader::kSize)
    return rw_error("stream", base, fmt::format("{} bytes are too short for a section header", bytes.size()),
                    "renderware.short-stream");
  return Walker(bytes, base, diag, options, visit, progress).run();
}

Result<SectionTree> walk(ByteView bytes, std::uint64_t base, const DiagSink& diag,
                         const WalkOptions& options) {
  SectionTree tree;
  tree.base = base;
  const SectionVisitor keep = [&tree](const Section& s) {
    if (s.depth == 0) tree.top.push_back(static_cast<std::uint32_t>(tree.sections.size()));
    tree.sections.push_back(s);
  };
  ASSAY_TRY(WalkSummary w, walk_each(bytes, base, diag, options, keep));
  tree.stream_end = w.stream_end;
  tree.padding = w.padding;
  tree.max_depth = w.max_depth;
  return tree;
}

Result<WalkSummary> walk_file(const std::string& path, const DiagSink& diag, const WalkOptions& options,
                              const SectionVisitor& visit) {
  ASSAY_TRY(MappedFile m, MappedFile::open(path));
  const ByteView b = m.bytes();
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  // Dropping pages of our own private read-only mapping is always safe: they are read back
  // from the file (the page cache) if the walk touches them again.
  const WalkProgress release = [&](std::uint64_t begin, std::uint64_t end) {
    const std::uint64_t from = (begin + page - 1) / page * page, to = end / page * page;
    if (to > from) ::madvise(const_cast<std::uint8_t*>(b.data()) + from, to - from, MADV_DONTNEED);
  };
  return walk_each(b, 0, diag, options, visit, release);
}

Result<std::uint64_t> find_section(ByteView bytes, std::uint32_t type, std::uint64_t base) {
  std::uint64_t pos = 0;
  while (range_ok(pos, SectionHeader::kSize, bytes.size())) {
    ASSAY_TRY(SectionHeader h, read_section_header(bytes, pos, base));
    if (h.size > bytes.size() - pos - SectionHeader::kSize)
      return rw_error(describe(h.type), base + pos, fmt::format("body of {} bytes runs past the end of the data (R1)", h.size),
                      "R1");
    if (h.type == type) return pos;
    pos += SectionHeader::kSize + h.size;
  }
  return rw_error("stream", base, fmt::format("no top-level {} in 0x{:x} bytes", describe(type), bytes.size()),
                  "renderware.no-section");
}

Result<ByteView> section_bytes(ByteView bytes, std::uint64_t offset, std::uint64_t base) {
  ASSAY_TRY(detail::Child c, detail::read_one(bytes, offset, base));  // header + R1 body check
  return bytes.subspan(offset, SectionHeader::kSize + c.h.size);
}

}  // namespace assay::rw

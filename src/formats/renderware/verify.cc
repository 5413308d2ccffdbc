// Full validation: the walk, then the content rules for each section kind found.
// spec: renderware.md#rw-9 (R1-R22), #rw-4-3 (R17).
#include "assay/formats/renderware/verify.h"
#include "codes.h"

#include <fmt/format.h>

#include <cstring>
#include <vector>

#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/texture.h"
#include "records.h"

namespace assay::rw {

namespace {

void emit(const DiagSink& d, Severity s, std::string structure, std::uint64_t off, std::string m) {
  if (d) d({s, detail::rw_error(std::move(structure), off, std::move(m), "renderware.verify")});
}

bool checked_after_walk(const Section& s) {
  return s.header.type == id::kTextureDictionary || s.header.type == id::kClump;
}

// The progress of verify_stream in stream order: bytes the walk has passed, except top-level
// dictionaries and clumps, whose bytes count once their content is checked.
class VerifyProgress {
 public:
  VerifyProgress(const ProgressFn& fn, std::uint64_t base) : fn_(fn), base_(base) {}
  void reached(const Section& s) {
    if (!fn_) return;
    const std::uint64_t at = s.offset - base_;
    if (at < done_) return;  // inside a section counted later
    if (s.depth == 0 && checked_after_walk(s)) {
      fn_(at - done_, section_name(s.header.type));
      done_ = at + SectionHeader::kSize + s.header.size;
    } else if (at - done_ >= kStep) {
      fn_(at - done_, section_name(s.header.type));
      done_ = at;
    }
  }
  void walked(std::uint64_t size) {
    if (fn_ && size > done_) fn_(size - done_, "");
  }
  void checking(const Section& s) const {
    if (fn_ && s.depth == 0) fn_(0, section_name(s.header.type));
  }
  void checked(const Section& s) const {
    if (fn_ && s.depth == 0) fn_(SectionHeader::kSize + std::uint64_t{s.header.size}, "");
  }

 private:
  static constexpr std::uint64_t kStep = 64u << 10;
  const ProgressFn& fn_;
  std::uint64_t base_, done_ = 0;
};

}  // namespace

bool verify_stream(ByteView bytes, std::uint64_t base, const DiagSink& diag, const VerifyOptions& o) {
  bool errors = false;
  // Readers report R18 themselves; verify checks every String once, so drop theirs.
  DiagSink counted = [&](Diagnostic d) {
    if (d.severity == Severity::error) errors = true;
    if (diag) diag(std::move(d));
  };
  DiagSink content = [&](Diagnostic d) {
    if (d.where.message.find("(R18)") != std::string::npos) return;
    counted(std::move(d));
  };
  // One streaming walk: strings and native data are checked as they are reached; dictionaries
  // and clumps (few) are read after the walk has proved the structure.
  std::vector<Section> deep;
  VerifyProgress progress(o.progress, base);
  const SectionVisitor check = [&](const Section& s) {
    progress.reached(s);
    const ByteView body = bytes.subspan(s.offset - base + SectionHeader::kSize, s.header.size);
    switch (s.header.type) {
      case id::kTextureDictionary:
      case id::kClump: deep.push_back(s); break;
      case id::kString:  // R18
        if (std::memchr(body.data(), 0, body.size()) == nullptr)
          emit(counted, Severity::warning, "String", s.offset, "string has no NUL in its body (R18)");
        break;
      case id::kNativeData:  // R17: the inner struct's size may exceed the 0x510 body
        if (const auto in = records::leading<SectionHeader>(body); in && in->type == id::kStruct) {
          const std::uint32_t inner = in->size;
          if (inner > body.size() - SectionHeader::kSize)
            emit(counted, profile_or_generic(o.walk.profile).native_data_size, "Native Data", s.offset,
                 fmt::format("inner struct claims {} bytes in a {}-byte body; its size is ignored (R17)", inner,
                             body.size()));
        }
        break;
      default: break;
    }
  };
  auto walked = walk_each(bytes, base, counted, o.walk, check);
  if (!walked) {
    counted({Severity::error, walked.error()});
    return false;
  }
  progress.walked(bytes.size());
  for (const Section& s : deep) {
    progress.checking(s);
    const ByteView view = bytes.subspan(s.offset - base, SectionHeader::kSize + s.header.size);
    if (s.header.type == id::kTextureDictionary) {
      TextureOptions to;
      to.profile = o.walk.profile;
      to.keep_going = true;  // every bad texture is reported, not only the first (spec: #rw-real)
      auto d = TextureDictionary::open(view, s.offset, content, to);
      if (!d) counted({Severity::error, d.error()});
    } else {
      ClumpOptions co;
      co.profile = o.walk.profile;
      auto c = summarize_clump(view, s.offset, content, co);
      if (!c) counted({Severity::error, c.error()});
    }
    progress.checked(s);
  }
  return !errors;
}

}  // namespace assay::rw

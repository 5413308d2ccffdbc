// Material Effects (MatFX, extension 0x120) material data. The layout is librw's
// readMaterialMatFX (aap/librw src/matfx.cpp): u32 effects, then two slots of u32 type and
// 1 bump: f32 coefficient, i32 has, [Texture], i32 has, [Texture];
// 2 environment: f32 coefficient, i32 frame-buffer alpha, i32 has, [Texture];
// 4 dual pass: i32 source blend, i32 destination blend, i32 has, [Texture];
// 5 UV transform and 0 null: nothing. A [Texture] is found as RenderWare's findChunk does:
// sections of other types before it are skipped.
#include <fmt/format.h>

#include "assay/formats/renderware/model.h"
#include "children.h"
#include "records.h"

namespace assay::rw {

namespace {

class MatFxCursor {
 public:
  MatFxCursor(ByteView b, std::uint64_t at) : b_(b), at_(at) {}

  Result<std::uint32_t> u32(std::string_view what) {
    if (b_.size() - pos_ < 4) return fail(fmt::format("{} needs 4 bytes, {} are left", what, b_.size() - pos_));
    const std::uint32_t v = records::u32_at(b_, pos_);
    pos_ += 4;
    return v;
  }
  Result<float> f32(std::string_view what) {
    ASSAY_TRY(const std::uint32_t v, u32(what));
    return std::bit_cast<float>(v);
  }

  // When the flag word that precedes it is set: the next Texture section's name.
  Result<std::string> texture(std::string_view what) {
    ASSAY_TRY(const std::uint32_t has, u32(what));
    if (has == 0) return std::string();
    for (;;) {
      ASSAY_TRY(detail::Child c, detail::read_one(b_, pos_, at_));
      pos_ = c.offset + SectionHeader::kSize + c.h.size;
      if (c.h.type != id::kTexture) continue;
      ASSAY_TRY(auto kids, detail::read_children(b_, c.offset, at_));
      if (kids.size() < 2 || kids[1].h.type != id::kString) return std::string();
      return std::string(detail::string_body(kids[1], at_, {}));
    }
  }

 private:
  Error fail(std::string m) const { return rw_error("MatFX material data", at_ + pos_, std::move(m), "renderware.clump"); }

  ByteView b_;
  std::uint64_t at_;
  std::uint64_t pos_ = 0;
};

Result<MatFxEffect> slot(MatFxCursor& c) {
  MatFxEffect e;
  ASSAY_TRY(e.type, c.u32("an effect type"));
  switch (e.type) {
    case 1: {
      ASSAY_TRY(e.coefficient, c.f32("the bump coefficient"));
      ASSAY_TRY(e.bumped_texture, c.texture("the bumped texture flag"));
      ASSAY_TRY(e.texture, c.texture("the bump texture flag"));
      break;
    }
    case 2: {
      ASSAY_TRY(e.coefficient, c.f32("the environment coefficient"));
      ASSAY_TRY(e.fb_alpha, c.u32("the frame-buffer alpha flag"));
      ASSAY_TRY(e.texture, c.texture("the environment texture flag"));
      break;
    }
    case 4: {
      ASSAY_TRY(e.src_blend, c.u32("the source blend"));
      ASSAY_TRY(e.dst_blend, c.u32("the destination blend"));
      ASSAY_TRY(e.texture, c.texture("the dual-pass texture flag"));
      break;
    }
    default:
      break;  // 0 null and 5 UV transform carry no data; librw reads nothing for others either
  }
  return e;
}

}  // namespace

Result<MatFx> decode_matfx(ByteView body, std::uint64_t at) {
  MatFxCursor c(body, at);
  MatFx fx;
  ASSAY_TRY(fx.effects, c.u32("the effects word"));
  for (int i = 0; i < 2; ++i) {
    ASSAY_TRY(MatFxEffect e, slot(c));
    if (e.type != 0) fx.slots.push_back(std::move(e));
  }
  return fx;
}

}  // namespace assay::rw

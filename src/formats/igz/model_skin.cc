// The skeleton of a skinned igModelData: a CGraphicsSkinInfo whose _skin is the model names an
// igSkeleton2 {_boneList (igSkeletonBoneList of igSkeletonBone {_name, _parentIndex,
// _blendMatrixIndex, _translation}), _inverseJointArray (igMemory of igMatrix44f)}.
// Offsets: model_layout.cc. How the parts relate (NefariousTechSupport/NoesisPlugins
// fmt_alchemy_igz.py: process_CGraphicsSkinInfo, process_igSkeleton2, process_igSkeletonBoneList,
// process_igModelDrawCallData): a bone's inverse bind matrix is _inverseJointArray[_blendMatrixIndex];
// a draw call's BLENDINDICES value v names blend matrix _blendMatrixIndices[_blendVectorOffset + v].
// _parentIndex is read as an index into the bone list (-1 for a root), as igRewrite8 names it.
#include "model_fields.h"

namespace assay::igz {

namespace {

constexpr std::uint32_t kMatrixBytes = 64;  // igMatrix44f

Result<SkeletonBone> read_bone(const FieldReader& r, std::size_t o, std::size_t index) {
  const ModelFields& at = r.fields();
  SkeletonBone b;
  b.name = r.name(o).value_or(fmt::format("bone{}", index));
  ASSAY_TRY(std::uint32_t parent, r.u32(o, at.bone_parent, "_parentIndex"));
  ASSAY_TRY(std::uint32_t blend, r.u32(o, at.bone_blend_matrix, "_blendMatrixIndex"));
  b.parent = static_cast<std::int32_t>(parent), b.blend_matrix = static_cast<std::int32_t>(blend);
  ASSAY_TRY(std::uint64_t t, r.at(o, at.bone_translation, 12, "_translation"));
  for (unsigned k = 0; k < 3; ++k) {
    ASSAY_TRY(b.translation[k], r.file().reader().f32(t + 4 * k, r.what(o, "_translation")));
  }
  if (b.parent < -1 || b.parent >= static_cast<std::int32_t>(index))
    return detail::err(r.what(o, "_parentIndex"), r.graph().objects[o].position,
                       fmt::format("{} is not an earlier bone of the list (bone {})", b.parent, index));
  return b;
}

Result<std::vector<model::Mat4>> read_inverse_joints(const FieldReader& r, std::size_t skeleton) {
  ASSAY_TRY(MemorySpan m, r.memory(skeleton, r.fields().skeleton_inverse_joints, "_inverseJointArray"));
  std::vector<model::Mat4> out(m.size / kMatrixBytes);
  const ByteReader rd = r.file().reader();
  for (std::size_t i = 0; i < out.size(); ++i)
    for (unsigned k = 0; k < 16; ++k) {
      ASSAY_TRY(out[i][k], rd.f32(m.offset + i * kMatrixBytes + 4 * k, r.what(skeleton, "_inverseJointArray")));
    }
  return out;
}

Result<Skeleton> read_skeleton2(const FieldReader& r, std::size_t info) {
  ASSAY_TRY(std::size_t object, r.ref(info, r.fields().skin_skeleton, "_skeleton", "igSkeleton2"));
  if (object == kNoObject) return detail::err(r.what(info, "_skeleton"), r.graph().objects[info].position, "no igSkeleton2");
  ASSAY_TRY(Skeleton s, read_skeleton_object(r, object));
  s.skin_info = info;
  return s;
}

}  // namespace

Result<Skeleton> read_skeleton_object(const FieldReader& r, std::size_t object) {
  Skeleton s;
  s.object = object;
  s.name = r.name(s.object).value_or("skeleton");
  ASSAY_TRY(std::size_t list, r.ref(s.object, r.fields().skeleton_bones, "_boneList", "igSkeletonBoneList"));
  if (list == kNoObject) return detail::err(r.what(s.object, "_boneList"), r.graph().objects[s.object].position, "no bone list");
  ASSAY_TRY(std::vector<std::size_t> bones, r.object_list(list, "igSkeletonBone"));
  for (std::size_t i = 0; i < bones.size(); ++i) {
    ASSAY_TRY(SkeletonBone b, read_bone(r, bones[i], i));
    s.bones.push_back(std::move(b));
  }
  ASSAY_TRY(s.inverse_joints, read_inverse_joints(r, s.object));
  for (std::size_t i = 0; i < s.bones.size(); ++i)
    if (s.bones[i].blend_matrix >= static_cast<std::int32_t>(s.inverse_joints.size()))
      return detail::err(r.what(bones[i], "_blendMatrixIndex"), r.graph().objects[bones[i]].position,
                         fmt::format("{} is past the {} inverse joint matrices", s.bones[i].blend_matrix, s.inverse_joints.size()));
  return s;
}

namespace {

}  // namespace

Result<std::optional<Skeleton>> read_skeleton(const FieldReader& r, std::size_t model_data) {
  const Graph& g = r.graph();
  for (std::size_t i = 0; i < g.objects.size(); ++i) {
    if (g.objects[i].type_name != "CGraphicsSkinInfo") continue;
    ASSAY_TRY(std::size_t skin, r.ref(i, r.fields().skin_model, "_skin", "igModelData"));
    if (skin != model_data) continue;
    ASSAY_TRY(Skeleton s, read_skeleton2(r, i));
    return std::optional<Skeleton>(std::move(s));
  }
  return std::optional<Skeleton>{};
}

}  // namespace assay::igz

// The chunk type table's names. spec: warriors.md#wr-4-1 (table at 0x0050b2e0, 85 records of
// 12 bytes; record 0x54 is the terminator).
#include <array>
#include <string_view>

#include "assay/formats/warriors/chunks.h"

namespace assay::warriors {

namespace {

constexpr std::array<std::string_view, kChunkTypeCount> kNames = {
    "Anim Rot Keyframes", "Anim Pos Keyframes", "Anim Data", "Collision Mesh",              // 0x00
    "Collision Triangles", "Collision Grid", "Collision Strings", "Collision Vertex Buffer",  // 0x04
    "Character Data", "Character DFF Data", "Character Device OID", "Texture Dictionary TID",  // 0x08
    "Camera Rail Nodes", "Camera Rail Header", "Camera Animation", "English String Table",   // 0x0C
    "French String Table", "Italian String Table", "Spanish String Table", "German String Table",  // 0x10
    "Null Pointer", "Sector BSP Data", "World Header", "Level Header",                        // 0x14
    "The One World", "Particle Types", "Particle Code Memory", "Particle Vector Const",      // 0x18
    "Particle Float Const", "Particle Int Constants", "Particle Trigger List", "Particle Particle Types",  // 0x1C
    "Particle Asm Debug", "Particle Source", "Game Object Instance", "Game Object Definition",  // 0x20
    "Game Object List", "Dynamic Obj DFF Data", "Static Obj DFF Data", "Level Header Obj List",  // 0x24
    "Chunk Bone Offsets", "Static Sounds", "Renderware Texture Dic", "Game Map",             // 0x28
    "Path Grid", "Path Nodes", "Grid Connections", "Grid Connections2",                      // 0x2C
    "GBH Script", "Music", "Palette Bitmap Raw Data", "Image Palettes",                      // 0x30
    "Image Textures", "Texture Dictionary", "Subway Map", "Fonts",                           // 0x34
    "Scene Data", "SceneBip", "SceneDyn", "SceneAnimKeyFrames",                              // 0x38
    "SceneAnimStreamTypes", "SceneAnimationData", "MoveKeyFrames", "MoveData",               // 0x3C
    "PathData", "Object Device OID", "Object Device SID", "Scene List",                      // 0x40
    "Character List", "Anim Range List", "Object List", "Preinstance Object",                // 0x44
    "Sound Command Data", "Sound Material Data", "Sound Anim Data", "Light Glow Data",       // 0x48
    "Particle Page", "Particle Page Header", "Anim List", "Dependency List",                 // 0x4C
    "ImportCars", "Subtitles", "Collision Checked", "Occluders",                             // 0x50
};

}  // namespace

std::string_view chunk_type_name(std::uint32_t type) { return type < kChunkTypeCount ? kNames[type] : ""; }

bool chunk_type_on_disc(std::uint32_t t) {
  // spec: #wr-4-1: 0x00, 0x02-0x08, 0x15, 0x17, 0x28, 0x29, 0x2A, 0x31, 0x40, 0x43-0x49,
  // 0x4C-0x4F, 0x51-0x53 (29 types).
  return t == 0x00 || (t >= 0x02 && t <= 0x08) || t == 0x15 || t == 0x17 || t == 0x28 || t == 0x29 ||
         t == 0x2A || t == 0x31 || t == 0x40 || (t >= 0x43 && t <= 0x49) || (t >= 0x4C && t <= 0x4F) ||
         (t >= 0x51 && t <= 0x53);
}

std::string_view object_kind(const Object& o) {
  static constexpr std::string_view kinds[] = {"animation", "collision_mesh", "character",
                                               "world",     "game_object_list", "level"};
  return kinds[o.index()];
}

std::string_view to_string(ContainerShape s) {
  switch (s) {
    case ContainerShape::automatic: return "automatic";
    case ContainerShape::flat: return "flat";
    case ContainerShape::grouped: return "grouped";
  }
  return "?";
}

}  // namespace assay::warriors

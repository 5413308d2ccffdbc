# Oni's built-in template layouts: generated at build time from the project's own table
# data/oni/templates.txt (spec: oni-templates.md) into builtin_layouts_data.cc.
# Included from the top CMakeLists.txt after assay_oni is defined; also run as a script (-P) to
# generate the file. A missing layouts file fails the configure: never an empty built-in table.
if(CMAKE_SCRIPT_MODE_FILE)
  file(READ "${IN}" hex HEX)
  string(LENGTH "${hex}" n)
  if(n EQUAL 0)
    message(FATAL_ERROR "oni built-in layouts: ${IN} is empty")
  endif()
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x..,){24})" "\\1\n" bytes "${bytes}")
  file(WRITE "${OUT}.tmp"
    "// Generated from ${IN} by src/formats/oni/builtin_layouts.cmake: do not edit.\n"
    "#include <string_view>\n"
    "namespace assay::oni::detail {\n"
    "namespace { const char kText[] = {\n${bytes}\n0}; }\n"
    "std::string_view builtin_layouts_text() { return {kText, sizeof kText - 1}; }\n"
    "}  // namespace assay::oni::detail\n")
  file(RENAME "${OUT}.tmp" "${OUT}")
  return()
endif()

set(ASSAY_ONI_TEMPLATES "${CMAKE_SOURCE_DIR}/data/oni/templates.txt" CACHE FILEPATH
    "Oni layouts file compiled into assay as its built-in template table (spec oni-templates.md)")
if(NOT EXISTS "${ASSAY_ONI_TEMPLATES}")
  message(FATAL_ERROR "Oni built-in layouts: ${ASSAY_ONI_TEMPLATES} not found. assay compiles its Oni template "
                      "table from that file (data/oni/templates.txt in the checkout); give its "
                      "path with -DASSAY_ONI_TEMPLATES=/path/to/oni-templates.txt.")
endif()
set(_oni_gen "${CMAKE_BINARY_DIR}/generated/oni/builtin_layouts_data.cc")
add_custom_command(
  OUTPUT "${_oni_gen}"
  COMMAND "${CMAKE_COMMAND}" -DIN=${ASSAY_ONI_TEMPLATES} -DOUT=${_oni_gen}
          -P "${CMAKE_CURRENT_LIST_DIR}/builtin_layouts.cmake"
  DEPENDS "${ASSAY_ONI_TEMPLATES}" "${CMAKE_CURRENT_LIST_DIR}/builtin_layouts.cmake"
  COMMENT "Generating Oni built-in layouts from ${ASSAY_ONI_TEMPLATES}"
  VERBATIM)
target_sources(assay_oni PRIVATE "${_oni_gen}")

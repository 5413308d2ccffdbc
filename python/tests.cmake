# pytest files tests/python/test_*.py, one CTest test each (python_<name>), run with exactly the
# interpreter the module was built for. tests/python/run.py skips (77) when pytest is missing,
# and fails under CI=true.
file(GLOB assay_pytests CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/tests/python/test_*.py")
set(assay_pytest_env
  "PYTHONPATH=${CMAKE_CURRENT_BINARY_DIR}"
  "ASSAY_CLI=$<TARGET_FILE:assay>"
  "ASSAY_SHARED_SAMPLES=${ASSAY_SHARED_SAMPLES}"
  "ASSAY_SOURCE_DIR=${CMAKE_SOURCE_DIR}"
  "ASSAY_PYTHON=${ASSAY_PYTHON_EXECUTABLE}"
  "PYTHONDONTWRITEBYTECODE=1")
if(ASSAY_SANITIZE)
  # An ASan-built extension needs the ASan runtime loaded first into the (uninstrumented)
  # interpreter, and libstdc++ right after it: python3 does not link libstdc++, so without it
  # ASan's __cxa_throw interceptor finds no real __cxa_throw and the first C++ exception aborts
  # ("CHECK failed: asan_interceptors.cpp ... real___cxa_throw"). CPython's own allocations at
  # exit are reported as leaks, so leak checking is off here (the C++ tests keep it on).
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so OUTPUT_VARIABLE assay_libasan
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libstdc++.so OUTPUT_VARIABLE assay_libstdcxx
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(assay_libstdcxx "${assay_libstdcxx}" REALPATH)  # the .so.6, not a symlink
  if(NOT EXISTS "${assay_libstdcxx}")
    set(assay_libstdcxx libstdc++.so.6)
  endif()
  list(APPEND assay_pytest_env "LD_PRELOAD=${assay_libasan}:${assay_libstdcxx}"
       "ASAN_OPTIONS=detect_leaks=0:abort_on_error=1" "ASSAY_SANITIZED=1")
endif()
foreach(t ${assay_pytests})
  get_filename_component(n "${t}" NAME_WE)
  string(REGEX REPLACE "^test_" "" n "${n}")
  add_test(NAME python_${n}
           COMMAND ${ASSAY_PYTHON_EXECUTABLE} "${CMAKE_SOURCE_DIR}/tests/python/run.py" "${t}"
           WORKING_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}")
  set_tests_properties(python_${n} PROPERTIES ENVIRONMENT "${assay_pytest_env}" SKIP_RETURN_CODE 77 TIMEOUT 900
                       LABELS python)
endforeach()

# Helpers that keep the per-folder CMakeLists short: one library and one test target per folder.
#
#   spindle_library(spindle_base SOURCES status.cc clock.cc DEPS fmt::fmt)
#   spindle_test(spindle_base_test SOURCES status_test.cc DEPS spindle_base)
#
# Test labels: `fast` (unit and scenario tests, seconds) and `slow` (end-to-end experiments that
# replay long traces). `ctest -L fast` skips the slow ones; `make test` runs the slow ones once,
# in the release build, and not again under the sanitizers.

function(spindle_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
endfunction()

function(spindle_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main)
  add_test(NAME ${name} COMMAND ${name} --gtest_brief=1)
  set_tests_properties(${name} PROPERTIES LABELS fast)
endfunction()

# A folder whose library is all its *.cc files (tests excluded) and whose test target
# `<name>_test` is all its *_test.cc files, built only when there are any. A folder with no
# sources yet gets an INTERFACE library so that dependents still configure.
#
#   spindle_globbed_library(spindle_trace DEPS spindle_config spindle_base)
#   spindle_globbed_library(spindle_x DEPS spindle_base TEST_DEPS nlohmann_json::nlohmann_json)
function(spindle_globbed_library name)
  cmake_parse_arguments(ARG "" "" "DEPS;TEST_DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  list(FILTER sources EXCLUDE REGEX "_test\\.cc$")
  file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc)
  if(sources)
    spindle_library(${name} SOURCES ${sources} DEPS ${ARG_DEPS})
  else()
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE ${PROJECT_SOURCE_DIR}/src)
  endif()
  if(tests)
    spindle_test(${name}_test SOURCES ${tests} DEPS ${name} ${ARG_TEST_DEPS})
  endif()
endfunction()

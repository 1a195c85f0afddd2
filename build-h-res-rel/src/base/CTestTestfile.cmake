# CMake generated Testfile for 
# Source directory: /work/main/src/base
# Build directory: /work/main/build-h-res-rel/src/base
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[spindle_base_test]=] "/work/main/build-h-res-rel/src/base/spindle_base_test" "--gtest_brief=1")
set_tests_properties([=[spindle_base_test]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/cmake/spindle.cmake;17;add_test;/work/main/src/base/CMakeLists.txt;2;spindle_test;/work/main/src/base/CMakeLists.txt;0;")

# CMake generated Testfile for 
# Source directory: /work/main/src/resource
# Build directory: /work/main/build-h-res-rel/src/resource
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[spindle_resource_test]=] "/work/main/build-h-res-rel/src/resource/spindle_resource_test" "--gtest_brief=1")
set_tests_properties([=[spindle_resource_test]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/cmake/spindle.cmake;17;add_test;/work/main/src/resource/CMakeLists.txt;3;spindle_test;/work/main/src/resource/CMakeLists.txt;0;")

# CMake generated Testfile for 
# Source directory: /work/main/src/config
# Build directory: /work/main/build-h-res/src/config
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[spindle_config_test]=] "/work/main/build-h-res/src/config/spindle_config_test" "--gtest_brief=1")
set_tests_properties([=[spindle_config_test]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/cmake/spindle.cmake;17;add_test;/work/main/src/config/CMakeLists.txt;2;spindle_test;/work/main/src/config/CMakeLists.txt;0;")

# CMake generated Testfile for 
# Source directory: /work/main/src/app
# Build directory: /work/main/build-h-res/src/app
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[spindle_app_test]=] "/work/main/build-h-res/src/app/spindle_app_test" "--gtest_brief=1")
set_tests_properties([=[spindle_app_test]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/cmake/spindle.cmake;17;add_test;/work/main/src/app/CMakeLists.txt;4;spindle_test;/work/main/src/app/CMakeLists.txt;0;")

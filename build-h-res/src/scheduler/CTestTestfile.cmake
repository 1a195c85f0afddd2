# CMake generated Testfile for 
# Source directory: /work/main/src/scheduler
# Build directory: /work/main/build-h-res/src/scheduler
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[spindle_scheduler_test]=] "/work/main/build-h-res/src/scheduler/spindle_scheduler_test" "--gtest_brief=1")
set_tests_properties([=[spindle_scheduler_test]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/cmake/spindle.cmake;17;add_test;/work/main/src/scheduler/CMakeLists.txt;4;spindle_test;/work/main/src/scheduler/CMakeLists.txt;0;")

# CMake generated Testfile for 
# Source directory: /work/main/src/sim
# Build directory: /work/main/build-h-res/src/sim
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[spindle_sim_test]=] "/work/main/build-h-res/src/sim/spindle_sim_test" "--gtest_brief=1")
set_tests_properties([=[spindle_sim_test]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/cmake/spindle.cmake;17;add_test;/work/main/src/sim/CMakeLists.txt;5;spindle_test;/work/main/src/sim/CMakeLists.txt;0;")

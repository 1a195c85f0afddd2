# CMake generated Testfile for 
# Source directory: /work/main/src/cluster
# Build directory: /work/main/build-h-res/src/cluster
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[spindle_cluster_test]=] "/work/main/build-h-res/src/cluster/spindle_cluster_test" "--gtest_brief=1")
set_tests_properties([=[spindle_cluster_test]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/cmake/spindle.cmake;17;add_test;/work/main/src/cluster/CMakeLists.txt;2;spindle_test;/work/main/src/cluster/CMakeLists.txt;0;")

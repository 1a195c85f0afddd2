# CMake generated Testfile for 
# Source directory: /work/main/tests
# Build directory: /work/main/build-h-res/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
add_test([=[scenario_check]=] "/work/main/build-h-res/spindle" "scenario" "check" "/work/main/tests/scenarios/fifo-2-update-resource-on-node.json" "/work/main/tests/scenarios/fifo-4-default-minimum-allocation.json" "/work/main/tests/scenarios/fifo-4-non-default-minimum-allocation.json" "/work/main/tests/scenarios/fifo-5-reconnected-node.json" "/work/main/tests/scenarios/fifo-7-apps-in-queue.json" "/work/main/tests/scenarios/fifo-7-conf-validation.json" "/work/main/tests/scenarios/fifo-am-and-blacklist.json" "/work/main/tests/scenarios/fifo-locality-levels-in-one-heartbeat.json" "/work/main/tests/scenarios/fifo-priority-order-and-app-order.json")
set_tests_properties([=[scenario_check]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;3;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[scenario_bad_input]=] "bash" "/work/main/tests/bad_input_test.sh" "/work/main/build-h-res/spindle" "/work/main/tests/bad-scenarios")
set_tests_properties([=[scenario_bad_input]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;4;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[scenario_determinism]=] "bash" "/work/main/tests/determinism_test.sh" "/work/main/build-h-res/spindle" "/work/main/examples/quickstart.json" "/work/main/build-h-res/tests/determinism")
set_tests_properties([=[scenario_determinism]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;7;add_test;/work/main/tests/CMakeLists.txt;0;")
add_test([=[cli_basics]=] "bash" "/work/main/tests/cli_test.sh" "/work/main/build-h-res/spindle")
set_tests_properties([=[cli_basics]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/CMakeLists.txt;10;add_test;/work/main/tests/CMakeLists.txt;0;")

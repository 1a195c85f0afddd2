// A libFuzzer binary for one target (built per target with SPINDLE_FUZZ_TARGET set to its
// harness.h function; make fuzz runs them).
#include <cstddef>
#include <cstdint>

#include "fuzz/harness.h"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  spindle::fuzz::quietLogging();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return spindle::fuzz::SPINDLE_FUZZ_TARGET(data, size);
}

// The fuzz targets' entry points: one function per input kind, each feeding the bytes to the
// reader and validator that `spindle sim` and `spindle scenario` use (docs/architecture.md,
// `fuzz/`).
//
//   int rc = spindle::fuzz::slsTrace(data, size);   // 0; a refused input is not a failure
//   for (const spindle::fuzz::Target& t : spindle::fuzz::targets()) t.one(data, size);
//
// A returned error Status is the expected outcome for most inputs; only a crash, an escaping
// exception, a sanitizer report, a timeout or running out of memory is a finding. Each
// function keeps one input's work bounded: the trace targets lower the configurable size limits
// (spindle.sls.max-*) to sizes a fuzzer can afford, and the scenario target runs a parsed
// scenario only when it is small (few nodes, containers and heartbeats; no files named).
//
// fuzz_main.cc turns one of these into a libFuzzer binary (make fuzz); replay_main.cc runs the
// seed corpus through all of them in the normal builds (ctest fuzz_replay).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace spindle::fuzz {

int scenario(const uint8_t* data, size_t size);
int slsTrace(const uint8_t* data, size_t size);
int rumenTrace(const uint8_t* data, size_t size);
int synthSpec(const uint8_t* data, size_t size);
int nodesFile(const uint8_t* data, size_t size);
int hadoopConf(const uint8_t* data, size_t size);
int fairAllocation(const uint8_t* data, size_t size);

struct Target {
  std::string_view name;  // the corpus folder and binary suffix: fuzz_<name>
  int (*one)(const uint8_t* data, size_t size);
};

// Every target, in a fixed order.
const std::vector<Target>& targets();

// Silences the readers' warnings (logged per input, they would drown the fuzzer's output).
void quietLogging();

}  // namespace spindle::fuzz

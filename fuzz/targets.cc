#include "base/log.h"
#include "fuzz/harness.h"

namespace spindle::fuzz {

const std::vector<Target>& targets() {
  static const std::vector<Target> all = {
      {"scenario", scenario}, {"sls", slsTrace},    {"rumen", rumenTrace},    {"synth", synthSpec},
      {"nodes", nodesFile},   {"conf", hadoopConf}, {"fair", fairAllocation},
  };
  return all;
}

void quietLogging() { initLogging(LogLevel::kOff); }

}  // namespace spindle::fuzz

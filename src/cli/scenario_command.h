// `spindle scenario run|check`: runs scenario files (docs/scenario-format.md).
//
//   spindle scenario run examples/quickstart.json --out out/ --summary
//   spindle scenario check tests/scenarios/*.json
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace spindle::cli {

struct ScenarioOptions {
  bool run = false;
  bool check = false;
  std::vector<std::string> files;
  std::string outDir;
  bool summary = false;
  bool quiet = false;
  int64_t checkInvariants = 0;  // also every N scheduler events within a step
};

void addScenarioCommand(CLI::App& app, ScenarioOptions& opts);
// Exit code: 0 all expectations hold, 1 one failed, 2 bad input.
int runScenarioCommand(const ScenarioOptions& opts);

}  // namespace spindle::cli

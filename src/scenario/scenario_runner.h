// Runs a parsed scenario against the scheduler core on a simulated clock.
//
//   auto sc = loadScenario(path).value();
//   auto r = runScenario(sc, {.outDir = "out"});
//   if (!r) return 2;                       // bad input met while running (names the step)
//   return r->failures.empty() ? 0 : 1;     // expectations
//
// Steps run in order: the clock moves to a step's `at`, the step becomes scheduler events,
// and the invariant checker runs after every step (a broken invariant is a failure). `expect`
// steps compare the decisions since the previous expect and the current snapshots.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"

namespace spindle {

struct RunOptions {
  std::string outDir;  // empty: write nothing
  // Also check the invariants after every N scheduler events within a step (0 = only after
  // every step, which always happens).
  int64_t checkInvariantsEvery = 0;
};

struct CheckFailure {
  int step = -1;  // -1: the scenario as a whole (expectError)
  std::string op;
  std::string message;
};

struct RunResult {
  std::vector<CheckFailure> failures;
  int stepsRun = 0;
  int expectationsChecked = 0;
  size_t decisions = 0;
  std::string summary;  // readable, for --summary and summary.txt
};

Result<RunResult> runScenario(const Scenario& scenario, const RunOptions& options);

}  // namespace spindle

// `spindle whatif`: replays one trace under several configurations, in parallel (one `spindle
// sim` process per run, at most --parallel at a time), and compares the runs (docs/whatif.md).
//
//   spindle whatif --tracetype SLS --tracelocation jobs.json --nodes nodes.json
//       --conf conf/capacity --conf conf/fair --output-dir out
//
// Writes out/runs/<label>/ (each run's simulator outputs, its log in out/runs/<label>.log; with
// --seeds K, out/runs/<label>/seed-<n>/ and .log per seed) and
// out/comparison.csv, out/comparison.json, out/report.html. Runs are labelled by their
// configuration folder's name unless --label gives one per --conf.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace spindle::cli {

struct WhatifOptions {
  bool selected = false;
  std::string traceType;
  std::string traceLocation;
  std::string nodesFile;
  std::vector<std::string> confs;
  std::vector<std::string> labels;
  std::string outputDir;
  uint64_t seed = 1;
  uint64_t seeds = 1;  // seeds per configuration: seed, seed + 1, ...
  std::string until;
  unsigned parallel = 0;  // 0: the machine's cores
  // Load and cluster knobs passed to every run (spindle sim's options of the same names).
  std::vector<std::string> queueMap;
  std::optional<double> scaleLoad;
  std::optional<int64_t> scaleNodes;
  bool overwrite = false;
  bool quiet = false;
};

void addWhatifCommand(CLI::App& app, WhatifOptions& opts);
// Exit code: 0 done, 2 bad input (an option, or a run that failed: its log is named).
int runWhatifCommand(const WhatifOptions& opts);

}  // namespace spindle::cli

// The outputs of `spindle whatif`: comparison.csv, comparison.json and report.html (one
// self-contained page: inline CSS and SVG, no script), from a Comparison and the runs' folders.
//
//   WhatifSettings s{.trace = "jobs.json", .traceType = "SLS", .seed = 1};
//   SPINDLE_RETURN_IF_ERROR(writeWhatifOutputs("out", comparison, runs, s));
//
// comparison.csv: one row per group and run (columns in docs/whatif.md); figures in ms; a cell
// is empty when the figure does not exist (no job started in that group and run).
// comparison.json: {"settings", "runs", "groups", "paired", "headline"} with the same figures.
// report.html: the settings, the headline, each group's figures side by side with the change
// against the baseline, the paired figures, and charts with one series per run on shared axes
// (cluster allocated memory, each queue's allocated and pending memory) drawn from each run's
// metrics/ folder when it has one.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "whatif/comparison.h"

namespace spindle::whatif {

// What every run shared, printed next to the results so the comparison can be repeated.
struct WhatifSettings {
  std::string traceType;
  std::string trace;
  std::string nodes;  // "" when the trace's own nodes were used
  uint64_t seed = 0;
  std::string until;               // "" when the runs went to the end
  std::vector<std::string> confs;  // per run, in run order
  uint64_t seeds = 1;              // runs per configuration (seed, seed + 1, ...)
  // The load and cluster options every run had, as given to `spindle sim` ("--scale-load", "1.5").
  std::vector<std::string> knobs = {};
};

std::string comparisonCsv(const Comparison& c);
nlohmann::json comparisonJson(const Comparison& c, const WhatifSettings& s);
// `runs` gives each run's folder for the charts (same order as c.labels).
std::string comparisonHtml(const Comparison& c, const WhatifSettings& s,
                           const std::vector<RunOutput>& runs);

// Writes the three files into `dir`.
Status writeWhatifOutputs(const std::filesystem::path& dir, const Comparison& c,
                          const std::vector<RunOutput>& runs, const WhatifSettings& s);

}  // namespace spindle::whatif

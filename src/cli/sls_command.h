// `spindle sls`: the simulator's SLS front end against a running `spindle rm`: simulated node
// managers and application masters in this process replay an SLS, Rumen or SYNTH trace over
// the real protocols (docs/simulator.md, "Against the daemon: spindle sls").
//
//   spindle sls --rm 127.0.0.1:8088 --tracetype SLS --tracelocation examples/sim/sls/jobs.json
//       --nodes examples/sim/sls/nodes.json --conf examples/sim/sls --output-dir out --speed 10
//       --compare sim-out
//
// The trace options are `spindle sim`'s, read the same way (cli/trace_input.h). With
// --write-topology FILE it only writes the trace's hosts and racks as Hadoop's TableMapping file
// (for the RM's net.topology.table.file.name) and exits, without --rm or --output-dir.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/trace_input.h"

namespace spindle::cli {

struct SlsOptions {
  bool selected = false;
  std::string rm;
  TraceInputOptions trace;  // --tracetype, --tracelocation, --nodes, --conf, --seed, ...
  std::string outputDir;
  double speed = 1;
  int64_t timeoutS = 3600;
  std::string compareDir;
  bool overwrite = false;
  bool quiet = false;
  int firstNodePort = 20'000;
  // --write-topology FILE: write the trace's nodes as a TableMapping file and exit.
  std::string writeTopology;
};

void addSlsCommand(CLI::App& app, SlsOptions& opts);
// Exit code: 0 every job finished; 1 the run timed out, a job did not finish or the RM answered
// an error (the first is named); 2 bad input (option, file, configuration, trace).
int runSlsCommand(const SlsOptions& opts);

}  // namespace spindle::cli

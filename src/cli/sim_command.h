// `spindle sim`: replays an SLS, Rumen or SYNTH trace against the scheduler in simulated time
// and writes SLS's outputs plus Spindle's (docs/simulator.md).
//
//   spindle sim --tracetype SLS --tracelocation examples/sim/sls/jobs.json
//       --nodes examples/sim/sls/nodes.json --conf examples/sim/sls --output-dir out
//       --print-simulation
//
// Option names follow slsrun.sh; `--opt=value` and `--opt value` both work, and the
// deprecated --input-rumen= / --input-sls= are accepted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace spindle::cli {

struct SimOptions {
  bool selected = false;
  std::string traceType;
  std::string traceLocation;
  std::string inputRumen, inputSls;  // deprecated aliases
  std::string outputDir;
  std::string nodesFile;
  std::string confDir;
  std::string trackJobs;
  bool printSimulation = false;
  std::optional<uint64_t> seed;
  std::string until;
  bool skipBadJobs = false;
  bool quiet = false;
  bool noTimings = false;
  bool decisionLog = false;
  bool progress = false;         // force the progress bar even when stderr is not a terminal
  bool noHeartbeatSkip = false;  // process every NM heartbeat (for checking the skip rule)
  int64_t checkInvariants = 0;   // Scheduler::checkInvariants every N scheduler events
  bool overwrite = false;        // reuse a non-empty --output-dir (clears Spindle's outputs)
  bool failOnRejected = false;   // exit 1 when any job was REJECTED
  bool serve = false;            // --serve: then serve the web UI over the outputs
  std::string serveHost = "127.0.0.1";
  uint16_t servePort = 8088;
  // Load and cluster knobs (trace/trace_transform.h).
  std::vector<std::string> queueMap;  // --queue-map OLD=NEW, repeatable
  double scaleLoad = 1.0;             // --scale-load F
  std::optional<int64_t> scaleNodes;  // --scale-nodes N
};

void addSimCommand(CLI::App& app, SimOptions& opts);
// Exit code: 0 done, 2 bad input (option, file, configuration, trace, a non-empty --output-dir
// without --overwrite), 1 with --fail-on-rejected when a job was rejected.
int runSimCommand(const SimOptions& opts);

}  // namespace spindle::cli

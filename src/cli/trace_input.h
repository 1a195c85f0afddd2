// The trace a `spindle sim` or `spindle sls` run replays, read the same way for both: the trace
// type and files, the configuration folder and its sls-runner settings, then the trace through
// its reader with the scheduler's queues checked and the load and cluster knobs applied.
//
//   TraceInputOptions in{.traceType = "SLS", .traceLocation = "jobs.json", .confDir = "conf"};
//   SPINDLE_ASSIGN_OR_RETURN(TraceInput t, loadTraceSettings(in));   // conf, types, sls
//   SPINDLE_RETURN_IF_ERROR(readTraceInput(in, t));                  // t.trace
// Errors name the option, file or key, as the commands print them (exit 2).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"
#include "resource/resource.h"
#include "trace/readers.h"
#include "trace/sls_settings.h"
#include "trace/trace.h"

namespace spindle::cli {

struct TraceInputOptions {
  std::string traceType, traceLocation;
  std::string inputRumen, inputSls;  // deprecated aliases of the two above
  std::string nodesFile, confDir;
  std::optional<uint64_t> seed;
  bool skipBadJobs = false;
  std::vector<std::string> queueMap;  // --queue-map OLD=NEW
  double scaleLoad = 1.0;
  std::optional<int64_t> scaleNodes;
};

struct TraceInput {
  std::string type, location;  // as given (after the deprecated aliases)
  TraceType traceType = TraceType::kSls;
  std::vector<std::string> files;
  Configuration conf;
  ResourceTypes types;
  SlsSettings sls;
  Trace trace;
};

// The trace type and files, the configuration and sls settings; no trace read yet.
Result<TraceInput> loadTraceSettings(const TraceInputOptions& o);
// Reads the trace into `in.trace` (its readers, --queue-map, --scale-load, --scale-nodes).
// Configuration warnings go to `configWarnings` when given.
Status readTraceInput(const TraceInputOptions& o, TraceInput& in,
                      std::vector<std::string>* configWarnings = nullptr);

// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> splitCommas(const std::string& s);

}  // namespace spindle::cli

// Trace readers: SLS JSON, Rumen job history, the SYNTH generator, and the SLS nodes file.
// Each returns a Trace (trace.h) or an error naming the file, the job's index and the field.
//
//   TraceReadOptions opt{.types = types, .sls = sls, .seed = 1, .skipBadJobs = false};
//   Result<Trace> t = readTrace(TraceType::kSls, {"a.json", "b.json"}, opt);
//   if (!opt.nodesFile.empty()) ... nodes come from the file, else from task hosts.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "resource/resource.h"
#include "trace/sls_settings.h"
#include "trace/trace.h"

namespace spindle {

enum class TraceType { kSls, kRumen, kSynth };

// "SLS", "RUMEN", "SYNTH" (case-insensitive); anything else is an error listing the three.
Result<TraceType> parseTraceType(std::string_view s);

struct TraceReadOptions {
  ResourceTypes types{};
  SlsSettings sls{};
  uint64_t seed = 1;  // SYNTH: overrides the file's rand_seed when explicitly given
  bool seedGiven = false;
  bool skipBadJobs = false;  // drop bad jobs (counted in Trace::skippedJobs) instead of failing
  std::string nodesFile{};   // --nodes; empty = derive from the trace
  // Queues the scheduler knows (leaf names and full paths); empty = do not check. A job naming
  // another queue is a bad job ("unknown queue").
  std::set<std::string> knownQueues{};
  // --queue-map: a job's queue is checked against knownQueues under its mapped name (the name it
  // will run under once trace_transform.h's applyTransform renames it).
  std::map<std::string, std::string> queueMap{};
};

Result<Trace> readTrace(TraceType type, const std::vector<std::string>& files,
                        const TraceReadOptions& options);

}  // namespace spindle

#include "cli/trace_input.h"

#include "cli/conf_dir.h"
#include "resource/resource_config.h"
#include "sim/config_warnings.h"
#include "sim/known_queues.h"
#include "trace/trace_transform.h"

namespace spindle::cli {

std::vector<std::string> splitCommas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    std::string part = s.substr(start, comma - start);
    if (!part.empty()) out.push_back(part);
    start = comma + 1;
  }
  return out;
}

Result<TraceInput> loadTraceSettings(const TraceInputOptions& o) {
  TraceInput in;
  in.type = o.traceType;
  in.location = o.traceLocation;
  if (!o.inputRumen.empty()) {
    in.type = "RUMEN";
    in.location = o.inputRumen;
  }
  if (!o.inputSls.empty()) {
    in.type = "SLS";
    in.location = o.inputSls;
  }
  if (in.type.empty()) return invalidArgument("--tracetype is required (SLS, RUMEN or SYNTH)");
  SPINDLE_ASSIGN_OR_RETURN(in.traceType, parseTraceType(in.type));
  in.files = splitCommas(in.location);
  if (in.files.empty()) return invalidArgument("--tracelocation names no file");
  SPINDLE_ASSIGN_OR_RETURN(in.conf, loadConf(o.confDir));
  SPINDLE_ASSIGN_OR_RETURN(in.types, resourceTypesFromConfig(in.conf));
  SPINDLE_ASSIGN_OR_RETURN(in.sls, slsSettingsFromConfig(in.conf, in.types));
  return in;
}

Status readTraceInput(const TraceInputOptions& o, TraceInput& in,
                      std::vector<std::string>* configWarnings) {
  SPINDLE_ASSIGN_OR_RETURN(std::set<std::string> queues, sim::submittableQueues(in.conf));
  if (configWarnings != nullptr) *configWarnings = sim::configurationWarnings(in.conf);
  TraceReadOptions ro;
  ro.knownQueues = queues;
  ro.types = in.types;
  ro.sls = in.sls;
  ro.seed = o.seed.value_or(1);
  ro.seedGiven = o.seed.has_value();
  ro.skipBadJobs = o.skipBadJobs;
  ro.nodesFile = o.nodesFile;
  TraceTransform transform;
  for (const std::string& m : o.queueMap) {
    SPINDLE_ASSIGN_OR_RETURN(auto mapping, parseQueueMapping(m));
    transform.queueMap[mapping.first] = mapping.second;
  }
  transform.loadScale = o.scaleLoad;
  transform.nodeCount = o.scaleNodes;
  ro.queueMap = transform.queueMap;
  SPINDLE_ASSIGN_OR_RETURN(in.trace, readTrace(in.traceType, in.files, ro));
  return applyTransform(in.trace, transform, o.seed.value_or(1));
}

}  // namespace spindle::cli

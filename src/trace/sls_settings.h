// The simulator's own settings: sls-runner.xml keys (yarn.sls.*) with SLS's defaults
// (SLSConfiguration; the Hadoop SLS docs, sls-runner.xml), validated once into a frozen struct
// (STYLE rule 9).
//
//   Configuration conf = ...;  // sls-runner.xml merged with yarn-site.xml
//   SlsSettings sls = slsSettingsFromConfig(conf, types).value();
//   Resource node = sls.nodeResource;  // yarn.sls.nm.memory.mb / vcores / yarn.sls.nm.<type>
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "base/status.h"
#include "config/configuration.h"
#include "resource/resource.h"

namespace spindle {

// Default-constructed, it holds SLS's defaults (the same as slsSettingsFromConfig of an empty
// configuration).
struct SlsSettings {
  Resource nodeResource = Resource::of(10240, 10);  // yarn.sls.nm.memory.mb, .vcores, .<type> 0
  int64_t nmHeartbeatMs = 1000;                     // yarn.sls.nm.heartbeat.interval.ms
  double nmUtilizationRatio = -1;  // yarn.sls.nm.resource.utilization.ratio (off unless (0,1])
  int64_t amHeartbeatMs = 1000;    // yarn.sls.am.heartbeat.interval.ms
  Resource amResource = Resource::of(1024, 1);         // yarn.sls.am.container.memory / .vcores
  Resource containerResource = Resource::of(1024, 1);  // yarn.sls.container.memory.mb / .vcores
  // yarn.sls.am.type.<name> -> class or kind
  std::map<std::string, std::string> amTypes = {
      {"mapreduce", "org.apache.hadoop.yarn.sls.appmaster.MRAMSimulator"},
      {"stream", "org.apache.hadoop.yarn.sls.appmaster.StreamAMSimulator"},
      {"dag", "org.apache.hadoop.yarn.sls.appmaster.DAGAMSimulator"}};
  // The same registry resolved to the simulator kind: "mapreduce", "stream" or "dag" (a value
  // naming MRAMSimulator, StreamAMSimulator or DAGAMSimulator, or the kind itself).
  std::map<std::string, std::string> amKinds = {
      {"mapreduce", "mapreduce"}, {"stream", "stream"}, {"dag", "dag"}};
  bool metricsOn = true;                   // yarn.sls.metrics.switch ON/OFF
  int64_t metricsRecordIntervalMs = 1000;  // yarn.sls.metrics.record.interval.ms
  int32_t metricsTimerWindow = 100;        // yarn.sls.metrics.timer.window.size
  int32_t runnerPoolSize = 10;             // yarn.sls.runner.pool.size (SLS threads; read, unused)
  int32_t metricsWebPort = 10001;          // yarn.sls.metrics.web.address.port (read, unused)
  // Spindle additions (documented in docs/trace-formats.md, "sls-runner.xml"):
  bool amHonoursPreemption = true;  // spindle.sls.am.honour-preemption: release named containers
  // spindle.sls.am.preemption.work-preserving: a preempted task resumes with the rest of its
  // duration (MapReduce checkpointing, MAPREDUCE-4584) instead of starting again from zero.
  bool amWorkPreservingPreemption = false;
  // Size limits, so a typo in a count fails at once instead of exhausting memory (a trace
  // beyond them is refused with the key to raise):
  int64_t maxContainersPerJob = 1'000'000;  // spindle.sls.max-containers-per-job (AM excluded)
  int64_t maxContainers = 20'000'000;       // spindle.sls.max-containers: every job's, AMs included
  int64_t maxNodes = 1'000'000;  // spindle.sls.max-nodes: num.nodes, num_nodes, nodes files
};

// Errors name the key and the bad value (e.g. a non-positive heartbeat interval).
// Extra resource types (index >= 2 in `types`) are read from yarn.sls.nm.<type> (SLS) and, as a
// Spindle addition, yarn.sls.container.<type> and yarn.sls.am.container.<type>; all default 0.
Result<SlsSettings> slsSettingsFromConfig(const Configuration& conf, const ResourceTypes& types);

// The simulator kind ("mapreduce", "stream", "dag") an yarn.sls.am.type.<name> value names:
// the SLS class (full or simple name) or the kind itself; nullopt for anything else.
std::optional<std::string> amKindForClass(std::string_view value);

}  // namespace spindle

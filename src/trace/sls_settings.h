// The simulator's own settings: sls-runner.xml keys (yarn.sls.*) with SLS's defaults
// (reference sls-simulator.md §2), validated once into a frozen struct (STYLE rule 9).
//
//   Configuration conf = ...;  // sls-runner.xml merged with yarn-site.xml
//   SlsSettings sls = slsSettingsFromConfig(conf, types).value();
//   Resource node = sls.nodeResource;  // yarn.sls.nm.memory.mb / vcores / yarn.sls.nm.<type>
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/status.h"
#include "config/configuration.h"
#include "resource/resource.h"

namespace spindle {

struct SlsSettings {
  Resource nodeResource;             // yarn.sls.nm.memory.mb 10240, .vcores 10, .<type> 0
  int64_t nmHeartbeatMs = 1000;      // yarn.sls.nm.heartbeat.interval.ms
  double nmUtilizationRatio = -1;    // yarn.sls.nm.resource.utilization.ratio (off unless (0,1])
  int64_t amHeartbeatMs = 1000;      // yarn.sls.am.heartbeat.interval.ms
  Resource amResource;               // yarn.sls.am.container.memory 1024 / .vcores 1
  Resource containerResource;        // yarn.sls.container.memory.mb 1024 / .vcores 1
  std::map<std::string, std::string> amTypes;  // yarn.sls.am.type.<name> -> class or kind
  bool metricsOn = true;             // yarn.sls.metrics.switch ON/OFF
  int64_t metricsRecordIntervalMs = 1000;  // yarn.sls.metrics.record.interval.ms
  int32_t metricsTimerWindow = 100;  // yarn.sls.metrics.timer.window.size
  // Spindle additions (documented in docs/configuration.md):
  bool amHonoursPreemption = true;   // spindle.sls.am.honour-preemption: release named containers
};

// Errors name the key and the bad value (e.g. a non-positive heartbeat interval).
Result<SlsSettings> slsSettingsFromConfig(const Configuration& conf, const ResourceTypes& types);

}  // namespace spindle

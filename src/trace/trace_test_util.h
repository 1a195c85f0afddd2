// Shared helpers for the trace tests: default options and paths of the checked-in fixtures.
#pragma once

#include <string>

#include "config/configuration.h"
#include "trace/readers.h"
#include "trace/sls_settings.h"

namespace spindle::testing {

// Options with SLS's default settings (an empty sls-runner.xml) and no extra resource types.
inline TraceReadOptions defaultOptions() {
  TraceReadOptions o;
  o.sls = slsSettingsFromConfig(Configuration(), o.types).value();
  return o;
}

inline std::string sourcePath(const std::string& relative) {
  return std::string(SPINDLE_SOURCE_DIR) + "/" + relative;
}

}  // namespace spindle::testing

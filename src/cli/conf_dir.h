// A configuration folder as `spindle sim --conf`, `spindle whatif` and `spindle conf` read it.
//
//   SPINDLE_ASSIGN_OR_RETURN(Configuration conf, loadConf("examples/capacity/conf"));
#pragma once

#include <string>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle::cli {

// yarn-site.xml, capacity-scheduler.xml and sls-runner.xml merged in that order (absent files
// keep the defaults); fair-scheduler.xml, an allocation file, becomes
// yarn.scheduler.fair.allocation.file unless that is set. "" gives an empty configuration.
Result<Configuration> loadConf(const std::string& dir);

}  // namespace spindle::cli

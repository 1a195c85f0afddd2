// A configuration folder: the property files it holds, merged in order, and the Fair
// Scheduler's allocation file found beside them.
//
//   auto conf = loadConfigurationDir("conf/", {"yarn-site.xml", "capacity-scheduler.xml"});
//   if (!conf) { report(conf.status()); return 2; }  // "conf/yarn-site.xml:12: ..."
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle {

// `propertyFiles` of `dir` merged in that order (absent ones skipped; later files win); a
// `fair-scheduler.xml` there becomes yarn.scheduler.fair.allocation.file unless a file set it.
// An empty `dir` gives an empty configuration; a `dir` that is not a folder is an error.
Result<Configuration> loadConfigurationDir(const std::string& dir,
                                           const std::vector<std::string>& propertyFiles);

}  // namespace spindle

#include "cli/conf_dir.h"

#include "config/configuration_dir.h"

namespace spindle::cli {

Result<Configuration> loadConf(const std::string& dir) {
  return loadConfigurationDir(dir, {"yarn-site.xml", "capacity-scheduler.xml", "sls-runner.xml"});
}

}  // namespace spindle::cli

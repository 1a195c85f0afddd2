#include "cli/conf_dir.h"

#include <filesystem>

namespace spindle::cli {

Result<Configuration> loadConf(const std::string& dir) {
  Configuration conf;
  if (dir.empty()) return conf;
  if (!std::filesystem::is_directory(dir)) return invalidArgument("--conf {}: not a folder", dir);
  for (const char* name : {"yarn-site.xml", "capacity-scheduler.xml", "sls-runner.xml"}) {
    const std::string path = dir + "/" + name;
    if (!std::filesystem::exists(path)) continue;
    auto part = Configuration::parseFile(path);
    if (!part) return part.status();
    conf.merge(*part);
  }
  const std::string fair = dir + "/fair-scheduler.xml";
  if (std::filesystem::exists(fair) && !conf.contains("yarn.scheduler.fair.allocation.file")) {
    conf.set("yarn.scheduler.fair.allocation.file", fair);
  }
  return conf;
}

}  // namespace spindle::cli

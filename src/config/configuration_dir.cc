#include "config/configuration_dir.h"

#include <filesystem>

namespace spindle {

Result<Configuration> loadConfigurationDir(const std::string& dir,
                                           const std::vector<std::string>& propertyFiles) {
  Configuration conf;
  if (dir.empty()) return conf;
  if (!std::filesystem::is_directory(dir)) return invalidArgument("--conf {}: not a folder", dir);
  for (const std::string& name : propertyFiles) {
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

}  // namespace spindle

#include "cli/daemon_commands.h"

#include "base/log.h"
#include "rm/resource_manager.h"

namespace spindle::cli {

bool DaemonOptions::selected() const { return rm != nullptr && rm->parsed(); }

void addDaemonCommands(CLI::App& app, DaemonOptions& o) {
  o.rm = app.add_subcommand("resourcemanager",
                            "Run the ResourceManager daemon (REST API, NM and AM protocols)");
  o.rm->alias("rm");
  o.rm->add_option("--conf", o.confDir,
                   "Folder with yarn-site.xml, capacity-scheduler.xml, fair-scheduler.xml");
}

int runDaemonCommand(const DaemonOptions& o) {
  initLogging(LogLevel::kInfo);
  return rm::runResourceManager(o.confDir);
}

}  // namespace spindle::cli

#include "cli/daemon_commands.h"

#include "base/log.h"
#include "nm/node_manager.h"
#include "rm/resource_manager.h"

namespace spindle::cli {

bool DaemonOptions::selected() const { return rm->parsed() || nm->parsed(); }

void addDaemonCommands(CLI::App& app, DaemonOptions& o) {
  o.rm = app.add_subcommand("resourcemanager",
                            "Run the ResourceManager daemon (REST API, NM and AM protocols)");
  o.rm->alias("rm");
  o.rm->add_option("--conf", o.confDir,
                   "Folder with yarn-site.xml, capacity-scheduler.xml, fair-scheduler.xml");
  o.nm = app.add_subcommand("nodemanager", "Run a node agent that registers with the RM");
  o.nm->alias("nm");
  o.nm->add_option("--conf", o.confDir, "Folder with yarn-site.xml");
}

int runDaemonCommand(const DaemonOptions& o) {
  initLogging(LogLevel::kInfo);
  if (o.nm->parsed()) return nm::runNodeManager(o.confDir);
  return rm::runResourceManager(o.confDir);
}

}  // namespace spindle::cli

// The daemon and client commands of `spindle`: resourcemanager (rm), nodemanager (nm),
// application, node, nodeattributes, cluster and dshell. Client commands take YARN's single-dash
// options
// (`spindle application -list`); normalizeYarnArgs turns them into CLI11's double-dash form.
//
//   DaemonOptions o;
//   addDaemonCommands(app, o);
//   app.parse(argc, argv);
//   if (o.selected()) return runDaemonCommand(o);
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "client/commands.h"
#include "client/ha_admin.h"
#include "client/node_ops_commands.h"

namespace spindle::cli {

struct DaemonOptions {
  CLI::App* rm = nullptr;
  CLI::App* nm = nullptr;
  CLI::App* application = nullptr;
  CLI::App* node = nullptr;
  CLI::App* attempt = nullptr;
  CLI::App* queue = nullptr;
  CLI::App* dshell = nullptr;
  CLI::App* nodeAttributes = nullptr;
  CLI::App* cluster = nullptr;
  CLI::App* container = nullptr;
  CLI::App* logs = nullptr;
  CLI::App* rmadmin = nullptr;
  CLI::App* top = nullptr;
  std::string confDir;
  client::ApplicationArgs app;
  client::NodeArgs nodeArgs;
  client::AttemptArgs attemptArgs;
  client::QueueArgs queueArgs;
  client::DshellArgs ds;
  client::NodeAttributesArgs attrArgs;
  client::ClusterArgs clusterArgs;
  client::HaAdminArgs haAdmin;
  client::ContainerArgs containerArgs;
  client::LogsArgs logsArgs;
  client::RmAdminArgs rmadminArgs;
  client::RefreshNodesArgs refreshNodesArgs;
  std::vector<std::string> graceful;  // rmadmin -g [timeout]
  client::TopArgs topArgs;
  bool selected() const;
};

void addDaemonCommands(CLI::App& app, DaemonOptions& opts);
int runDaemonCommand(const DaemonOptions& opts);

// YARN's single-dash long options (`-list`, `-shell_command`) as CLI11's `--list` for the
// client commands (application, node, dshell); other commands are left as they are.
std::vector<std::string> normalizeYarnArgs(int argc, char** argv);

}  // namespace spindle::cli

// The daemon and client commands of `spindle`: resourcemanager (rm), nodemanager (nm),
// application, node and dshell. Client commands take YARN's single-dash options
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

namespace spindle::cli {

struct DaemonOptions {
  CLI::App* rm = nullptr;
  CLI::App* nm = nullptr;
  std::string confDir;
  bool selected() const;
};

void addDaemonCommands(CLI::App& app, DaemonOptions& opts);
int runDaemonCommand(const DaemonOptions& opts);

}  // namespace spindle::cli

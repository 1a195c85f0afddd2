// spindle: the single executable. Subcommands:
//   spindle --version
//   spindle help
//   spindle scenario run FILE --out DIR [--summary]
//   spindle scenario check FILE...
//   spindle sim --tracetype SLS|RUMEN|SYNTH --tracelocation F[,F] --output-dir DIR [...]
//   spindle sls --rm HOST:PORT --tracetype T --tracelocation F --output-dir DIR [--speed X]
//   spindle whatif --tracetype T --tracelocation F --conf DIR_A --conf DIR_B --output-dir DIR
//   spindle conf explain DIR [--compare DIR_B] [--cluster MB,VCORES] [--json]
//   spindle resourcemanager|rm --conf DIR
//   spindle nodemanager|nm --conf DIR
//   spindle application -list|-status ID|-kill ID, spindle node -list, spindle dshell ...
// Exit codes: 0 success, 1 an expectation failed, 2 bad input (file, argument, configuration).
#include <iostream>

#include <CLI/CLI.hpp>

#include "base/log.h"
#include "cli/conf_command.h"
#include "cli/daemon_commands.h"
#include "cli/scenario_command.h"
#include "cli/serve_command.h"
#include "cli/sim_command.h"
#include "cli/sls_command.h"
#include "cli/whatif_command.h"

namespace {

constexpr const char* kExitCodes =
    "Exit codes: 0 success; 1 a scenario expectation failed, spindle sim --fail-on-rejected "
    "saw a rejected job, or a spindle sls run timed out, left a job unfinished or met an RM "
    "error; 2 bad input (file, argument, configuration).";

// `spindle help`: the command list, then every subcommand's own help (options and their
// descriptions), nested subcommands included (scenario run, scenario check, conf explain).
void printFullHelp(CLI::App& app) {
  std::vector<CLI::App*> stack{&app};
  for (size_t i = 0; i < stack.size(); ++i) {
    CLI::App* sub = stack[i];
    std::vector<CLI::App*> nested =
        sub->get_subcommands([](CLI::App* s) { return s->get_name() != "help"; });
    stack.insert(stack.begin() + static_cast<std::ptrdiff_t>(i) + 1, nested.begin(), nested.end());
  }
  for (CLI::App* sub : stack) {
    std::string path = sub->get_name();
    for (CLI::App* p = sub->get_parent(); p != nullptr; p = p->get_parent()) {
      path = p->get_name() + " " + path;
    }
    if (sub == &app) path = "spindle";
    sub->footer("");  // the exit codes go once, at the end
    std::cout << (sub == &app ? "" : "\n")
              << sub->get_formatter()->make_help(sub, path, CLI::AppFormatMode::Normal);
  }
  std::cout << "\n" << kExitCodes << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  spindle::initLogging(spindle::LogLevel::kWarn);
  CLI::App app{"Spindle: a cluster resource manager with YARN's scheduling semantics", "spindle"};
  app.set_version_flag("--version", std::string("spindle ") + SPINDLE_VERSION);
  app.require_subcommand(1);
  app.footer(kExitCodes);
  auto* help = app.add_subcommand("help", "Show the commands and their options");
  spindle::cli::ScenarioOptions scenarioOpts;
  spindle::cli::addScenarioCommand(app, scenarioOpts);
  spindle::cli::SimOptions simOpts;
  spindle::cli::addSimCommand(app, simOpts);
  spindle::cli::SlsOptions slsOpts;
  spindle::cli::addSlsCommand(app, slsOpts);
  spindle::cli::WhatifOptions whatifOpts;
  spindle::cli::addWhatifCommand(app, whatifOpts);
  spindle::cli::ConfOptions confOpts;
  spindle::cli::addConfCommand(app, confOpts);
  spindle::cli::ServeOptions serveOpts;
  spindle::cli::addServeCommand(app, serveOpts);
  spindle::cli::DaemonOptions daemonOpts;
  spindle::cli::addDaemonCommands(app, daemonOpts);
  try {
    std::vector<std::string> args = spindle::cli::normalizeYarnArgs(argc, argv);
    std::vector<char*> argvYarn;
    for (std::string& a : args) argvYarn.push_back(a.data());
    app.parse(static_cast<int>(argvYarn.size()), argvYarn.data());
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  if (help->parsed()) {
    printFullHelp(app);
    return 0;
  }
  if (simOpts.selected) return spindle::cli::runSimCommand(simOpts);
  if (slsOpts.selected) return spindle::cli::runSlsCommand(slsOpts);
  if (serveOpts.selected) return spindle::cli::runServeCommand(serveOpts);
  if (whatifOpts.selected) return spindle::cli::runWhatifCommand(whatifOpts);
  if (confOpts.selected) return spindle::cli::runConfCommand(confOpts);
  if (daemonOpts.selected()) return spindle::cli::runDaemonCommand(daemonOpts);
  return spindle::cli::runScenarioCommand(scenarioOpts);
}

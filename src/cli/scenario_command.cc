#include "cli/scenario_command.h"

#include <iostream>

#include "scenario/scenario_runner.h"

namespace spindle::cli {

void addScenarioCommand(CLI::App& app, ScenarioOptions& opts) {
  auto* scenario = app.add_subcommand("scenario", "Run or check scenario files");
  scenario->require_subcommand(1);
  auto* run =
      scenario->add_subcommand("run", "Run one scenario and write its decision log and snapshots");
  run->add_option("file", opts.files, "Scenario JSON file")->required()->expected(1);
  run->add_option("--out", opts.outDir, "Output directory")->required();
  run->add_flag("--summary", opts.summary, "Print a readable summary");
  const char* checkHelp =
      "Also check the scheduler's invariants after every N scheduler events within a step "
      "(they are always checked after every step)";
  run->add_option("--check-invariants", opts.checkInvariants, checkHelp)
      ->check(CLI::NonNegativeNumber);
  run->callback([&opts] { opts.run = true; });
  auto* check = scenario->add_subcommand("check", "Run scenarios and check their expectations");
  check->add_option("files", opts.files, "Scenario JSON files")->required();
  check->add_flag("-q,--quiet", opts.quiet, "Print failures only");
  check->add_option("--check-invariants", opts.checkInvariants, checkHelp)
      ->check(CLI::NonNegativeNumber);
  check->callback([&opts] { opts.check = true; });
}

namespace {

void printFailures(const std::string& file, const RunResult& r) {
  for (const CheckFailure& f : r.failures) {
    if (f.step < 0) {
      std::cerr << file << ": " << f.message << '\n';
    } else {
      std::cerr << file << ": steps[" << f.step << "] (" << f.op << "): " << f.message << '\n';
    }
  }
}

}  // namespace

int runScenarioCommand(const ScenarioOptions& opts) {
  int worst = 0;
  int passed = 0;
  for (const std::string& file : opts.files) {
    auto sc = loadScenario(file);
    if (!sc) {
      std::cerr << "error: " << sc.status().message() << '\n';
      worst = 2;
      continue;
    }
    auto r = runScenario(*sc, RunOptions{opts.run ? opts.outDir : "", opts.checkInvariants});
    if (!r) {
      std::cerr << "error: " << file << ": " << r.status().message() << '\n';
      worst = 2;
      continue;
    }
    printFailures(file, *r);
    if (!r->failures.empty()) {
      worst = std::max(worst, 1);
    } else {
      ++passed;
      if (opts.check && !opts.quiet) {
        std::cout << "ok   " << file << " (" << r->expectationsChecked << " expectations)\n";
      }
    }
    if (opts.run && opts.summary) std::cout << r->summary;
    if (opts.run && !opts.summary) {
      std::cout << "wrote " << opts.outDir << "/decisions.jsonl (" << r->decisions
                << " decisions) and snapshots\n";
    }
  }
  if (opts.check) {
    std::cout << passed << " of " << opts.files.size() << " scenarios passed\n";
  }
  return worst;
}

}  // namespace spindle::cli

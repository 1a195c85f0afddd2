// `spindle conf explain DIR`: the queue tree a configuration folder resolves to, every value with
// its source; `--compare DIR_B`: only what differs (docs/whatif.md).
//
//   spindle conf explain examples/capacity/conf --cluster 102400,100
//   spindle conf explain conf/before --compare conf/after
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace spindle::cli {

struct ConfOptions {
  bool selected = false;
  std::string dir;
  std::string compare;
  std::string cluster = "102400,100";  // memory MB, vcores
  bool json = false;
};

void addConfCommand(CLI::App& app, ConfOptions& opts);
// Exit code: 0 explained (with --compare: also when they differ), 2 bad input (the folder, a
// file, a property the scheduler refuses).
int runConfCommand(const ConfOptions& opts);

}  // namespace spindle::cli

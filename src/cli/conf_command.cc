#include "cli/conf_command.h"

#include <charconv>
#include <iostream>

#include <fmt/format.h>

#include "base/strings.h"
#include "cli/conf_dir.h"
#include "whatif/conf_explain.h"

namespace spindle::cli {

void addConfCommand(CLI::App& app, ConfOptions& o) {
  auto* conf = app.add_subcommand("conf", "Explain what a configuration folder resolves to");
  conf->require_subcommand(1);
  auto* explain = conf->add_subcommand(
      "explain", "The effective queue tree, each value with its file and line or default");
  explain->add_option("DIR", o.dir, "Configuration folder (as `spindle sim --conf`)")->required();
  explain->add_option("--compare", o.compare, "A second folder: print only what differs");
  explain->add_option("--cluster", o.cluster,
                      "Cluster size the percentages resolve against: MEMORY_MB,VCORES "
                      "(default 102400,100)");
  explain->add_flag("--json", o.json, "Print JSON instead of text");
  explain->callback([&o] { o.selected = true; });
}

namespace {

int fail(const std::string& message) {
  std::cerr << "error: " << message << '\n';
  return 2;
}

Result<Resource> parseCluster(const std::string& text) {
  const std::vector<std::string> parts = splitTrimmed(text, ",");
  int64_t values[2] = {0, 0};
  bool ok = parts.size() == 2;
  for (size_t i = 0; ok && i < 2; ++i) {
    const char* end = parts[i].data() + parts[i].size();
    auto [p, ec] = std::from_chars(parts[i].data(), end, values[i]);
    ok = ec == std::errc() && p == end && values[i] > 0;
  }
  if (!ok) return invalidArgument("--cluster '{}': expected MEMORY_MB,VCORES with both > 0", text);
  return Resource::of(values[0], values[1]);
}

Result<whatif::Explanation> explain(const std::string& dir, const Resource& cluster) {
  SPINDLE_ASSIGN_OR_RETURN(Configuration conf, loadConf(dir));
  Result<whatif::Explanation> e = whatif::explainConfiguration(conf, cluster);
  if (!e) return invalidArgument("{}: {}", dir, e.status().message());
  return e;
}

}  // namespace

int runConfCommand(const ConfOptions& o) {
  Result<Resource> cluster = parseCluster(o.cluster);
  if (!cluster) return fail(cluster.status().message());
  Result<whatif::Explanation> a = explain(o.dir, *cluster);
  if (!a) return fail(a.status().message());
  if (o.compare.empty()) {
    std::cout << (o.json ? whatif::explanationJson(*a).dump(2) + "\n"
                         : whatif::explanationText(*a));
    return 0;
  }
  Result<whatif::Explanation> b = explain(o.compare, *cluster);
  if (!b) return fail(b.status().message());
  const std::vector<std::string> diff = whatif::compareExplanations(*a, *b);
  if (o.json) {
    std::cout << nlohmann::json(diff).dump(2) << '\n';
  } else if (diff.empty()) {
    std::cout << fmt::format("{} and {} resolve to the same values\n", o.dir, o.compare);
  } else {
    for (const std::string& line : diff) std::cout << line << '\n';
  }
  return 0;
}

}  // namespace spindle::cli

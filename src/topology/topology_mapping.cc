#include "topology/topology_mapping.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "nm/script_runner.h"

namespace spindle::topology {

namespace {

constexpr const char* kImplKey = "net.topology.node.switch.mapping.impl";
constexpr const char* kScriptMapping = "org.apache.hadoop.net.ScriptBasedMapping";
constexpr const char* kTableMapping = "org.apache.hadoop.net.TableMapping";

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && isBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && isBlank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

Result<TopologySettings> TopologySettings::fromConfiguration(const Configuration& conf) {
  TopologySettings s;
  // core-default.xml: net.topology.node.switch.mapping.impl = ScriptBasedMapping.
  const std::string impl(trimmed(conf.get(kImplKey, kScriptMapping)));
  if (impl == kScriptMapping) {
    s.impl = Impl::kScript;
  } else if (impl == kTableMapping) {
    s.impl = Impl::kTable;
  } else {
    return invalidArgument("{}'{}' is not a topology mapping Spindle has ({} or {})",
                           conf.where(kImplKey), impl, kScriptMapping, kTableMapping);
  }
  s.scriptPath = std::string(trimmed(conf.get("net.topology.script.file.name", "")));
  SPINDLE_ASSIGN_OR_RETURN(s.scriptNumberArgs, conf.getInt("net.topology.script.number.args", 100));
  // ScriptBasedMapping.MIN_ALLOWABLE_ARGS = 1 (Hadoop warns and resolves nothing below it).
  if (s.scriptNumberArgs < 1) {
    return invalidArgument("{}must be at least 1, got {}",
                           conf.where("net.topology.script.number.args"), s.scriptNumberArgs);
  }
  SPINDLE_ASSIGN_OR_RETURN(
      s.scriptTimeoutMs, conf.getTimeDurationMs("spindle.net.topology.script.timeout-ms", 10'000));
  if (s.scriptTimeoutMs <= 0) {
    return invalidArgument("{}must be positive, got {}",
                           conf.where("spindle.net.topology.script.timeout-ms"), s.scriptTimeoutMs);
  }
  s.tablePath = std::string(trimmed(conf.get("net.topology.table.file.name", "")));
  return s;
}

std::map<std::string, std::string> parseTopologyTable(std::string_view text,
                                                      const std::string& source, const Warn& warn) {
  std::map<std::string, std::string> table;
  size_t lineNo = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view raw = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++lineNo;
    const std::string_view line = trimmed(raw);
    if (line.empty() || line.front() == '#') continue;
    const std::vector<std::string> columns = splitRackTokens(line);
    if (columns.size() != 2) {
      // RawTableMapping.load: "Line does not have two columns. Ignoring."
      warn(fmt::format("{}:{}: line does not have two columns, ignored: {}", source, lineNo, line));
      continue;
    }
    table[columns[0]] = columns[1];
  }
  return table;
}

std::vector<std::string> splitRackTokens(std::string_view output) {
  std::vector<std::string> tokens;
  size_t i = 0;
  while (i < output.size()) {
    while (i < output.size() && isBlank(output[i])) ++i;
    const size_t start = i;
    while (i < output.size() && !isBlank(output[i])) ++i;
    if (i > start) tokens.emplace_back(output.substr(start, i - start));
  }
  return tokens;
}

TableMapping::TableMapping(const std::string& path, const Warn& warn) : path_(path) {
  if (path.empty()) {
    warn(
        "net.topology.table.file.name is not set: the topology table is empty and every host is "
        "on /default-rack");
    return;
  }
  std::error_code ec;
  const bool regular = std::filesystem::is_regular_file(path, ec);
  std::ifstream in(path);
  std::stringstream text;
  if (regular && in) text << in.rdbuf();
  if (!regular || !in || in.bad()) {
    // RawTableMapping.resolve: "Failed to read topology table. /default-rack will be used for
    // all nodes."
    warn(fmt::format(
        "net.topology.table.file.name: cannot read the topology table {}: every host is on "
        "/default-rack",
        path));
    return;
  }
  table_ = parseTopologyTable(text.str(), path, warn);
}

std::optional<std::vector<std::string>> TableMapping::resolve(
    const std::vector<std::string>& hosts) {
  std::vector<std::string> racks;
  racks.reserve(hosts.size());
  for (const std::string& h : hosts) {
    auto it = table_.find(h);
    racks.push_back(it == table_.end() ? std::string(kDefaultRack) : it->second);
  }
  return racks;
}

ScriptMapping::ScriptMapping(std::string path, int32_t numberArgs, int64_t timeoutMs, Warn warn)
    : path_(std::move(path)),
      numberArgs_(numberArgs),
      timeoutMs_(timeoutMs),
      warn_(std::move(warn)) {}

std::optional<std::vector<std::string>> ScriptMapping::resolve(
    const std::vector<std::string>& hosts) {
  // ScriptBasedMapping.resolve: without a script every host is on the default rack.
  if (path_.empty()) return std::vector<std::string>(hosts.size(), std::string(kDefaultRack));
  if (hosts.empty()) return std::vector<std::string>();
  std::string output;
  for (size_t start = 0; start < hosts.size(); start += static_cast<size_t>(numberArgs_)) {
    const size_t end = std::min(hosts.size(), start + static_cast<size_t>(numberArgs_));
    const std::vector<std::string> args(hosts.begin() + static_cast<std::ptrdiff_t>(start),
                                        hosts.begin() + static_cast<std::ptrdiff_t>(end));
    auto out = nm::runProviderScript(path_, args, timeoutMs_);
    if (!out) {
      warn_(fmt::format("net.topology.script.file.name: {} for {} host(s) ({} first): {}", path_,
                        args.size(), args.front(), out.status().message()));
      return std::nullopt;
    }
    output += *out;
    output += ' ';
  }
  std::vector<std::string> racks = splitRackTokens(output);
  if (racks.size() != hosts.size()) {
    // ScriptBasedMapping.resolve: "Script ... returned N values when M were expected."
    warn_(
        fmt::format("net.topology.script.file.name: script {} returned {} values when {} were "
                    "expected",
                    path_, racks.size(), hosts.size()));
    return std::nullopt;
  }
  return racks;
}

std::unique_ptr<DnsToSwitchMapping> createMapping(const TopologySettings& s, const Warn& warn) {
  if (s.impl == TopologySettings::Impl::kTable) {
    return std::make_unique<TableMapping>(s.tablePath, warn);
  }
  return std::make_unique<ScriptMapping>(s.scriptPath, s.scriptNumberArgs, s.scriptTimeoutMs, warn);
}

std::string formatTopologyTable(const std::vector<std::pair<std::string, std::string>>& racks) {
  std::string out =
      "# host rack: Hadoop's TableMapping file (net.topology.node.switch.mapping.impl =\n"
      "# org.apache.hadoop.net.TableMapping, net.topology.table.file.name = this file)\n";
  for (const auto& [host, rack] : racks) out += host + " " + rack + "\n";
  return out;
}

}  // namespace spindle::topology

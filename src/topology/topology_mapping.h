// Hadoop's rack topology for the ResourceManager: the DNSToSwitchMapping implementations YARN
// configures with `net.topology.node.switch.mapping.impl` (ScriptBasedMapping, TableMapping),
// their settings from core-site.xml / yarn-site.xml, and the topology table's parser.
//
//   auto s = TopologySettings::fromConfiguration(conf);      // an unknown impl is an error
//   auto mapping = createMapping(*s, warn);                  // a TableMapping reads its file here
//   auto racks = mapping->resolve({"host1", "host2"});       // nullopt: the mapping failed
//
// rack_resolver.h caches the answers per host and falls back to /default-rack (YARN's
// RackResolver over CachedDNSToSwitchMapping).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle::topology {

// NetworkTopology.DEFAULT_RACK.
inline constexpr std::string_view kDefaultRack = "/default-rack";

// Where warnings go (the RM's log; tests collect them).
using Warn = std::function<void(const std::string&)>;

struct TopologySettings {
  enum class Impl { kScript, kTable };
  // net.topology.node.switch.mapping.impl (core-default.xml: ScriptBasedMapping).
  Impl impl = Impl::kScript;
  // net.topology.script.file.name: empty = every host on /default-rack.
  std::string scriptPath;
  // net.topology.script.number.args (100): at most this many hosts per run of the script.
  int32_t scriptNumberArgs = 100;
  // spindle.net.topology.script.timeout-ms: a run taking longer is killed and its hosts get
  // /default-rack (Hadoop runs the script without a limit).
  int64_t scriptTimeoutMs = 10'000;
  // net.topology.table.file.name.
  std::string tablePath;

  // Errors name the key and value: an implementation other than the two above, a
  // number.args below 1, a timeout not positive.
  static Result<TopologySettings> fromConfiguration(const Configuration& conf);
};

// DNSToSwitchMapping.resolve: one rack per host, in order; nullopt when the mapping failed
// (Hadoop's null), which the resolver turns into /default-rack.
class DnsToSwitchMapping {
 public:
  virtual ~DnsToSwitchMapping() = default;
  virtual std::optional<std::vector<std::string>> resolve(
      const std::vector<std::string>& hosts) = 0;
  // Names the mapping in log lines ("script /etc/rack.sh", "table /etc/racks.txt").
  virtual std::string describe() const = 0;
};

// TableMapping's file: per line (trimmed) "host rack" separated by blanks; empty lines and
// lines starting with '#' are skipped; a line without exactly two columns is skipped with a
// warning naming the file and line (RawTableMapping.load). A later line for a host wins.
std::map<std::string, std::string> parseTopologyTable(std::string_view text,
                                                      const std::string& source, const Warn& warn);

// ScriptBasedMapping's output: whitespace-separated tokens, one rack per host asked.
std::vector<std::string> splitRackTokens(std::string_view output);

// TableMapping: the file is read once, when the mapping is created (Hadoop reads it at the first
// resolve); an unreadable or unset file is a warning and every host gets /default-rack. A host
// not in the table gets /default-rack.
class TableMapping final : public DnsToSwitchMapping {
 public:
  TableMapping(const std::string& path, const Warn& warn);
  std::optional<std::vector<std::string>> resolve(const std::vector<std::string>& hosts) override;
  std::string describe() const override { return "table " + path_; }

 private:
  std::string path_;
  std::map<std::string, std::string> table_;
};

// ScriptBasedMapping (RawScriptBasedMapping.runResolveCommand): the script runs with at most
// `numberArgs` hosts as arguments per run (more hosts: several runs, outputs joined); its
// output's tokens are the racks, one per host. No script: every host on /default-rack. A run that
// fails (exit code, signal, timeout) or a token count other than the hosts' is a warning naming
// the script, and nullopt.
class ScriptMapping final : public DnsToSwitchMapping {
 public:
  ScriptMapping(std::string path, int32_t numberArgs, int64_t timeoutMs, Warn warn);
  std::optional<std::vector<std::string>> resolve(const std::vector<std::string>& hosts) override;
  std::string describe() const override { return "script " + path_; }

 private:
  std::string path_;
  int32_t numberArgs_;
  int64_t timeoutMs_;
  Warn warn_;
};

std::unique_ptr<DnsToSwitchMapping> createMapping(const TopologySettings& s, const Warn& warn);

// The TableMapping file for `racks` (host -> rack), one "host rack" line each, with a comment
// header: what `spindle sls --write-topology` writes.
std::string formatTopologyTable(const std::vector<std::pair<std::string, std::string>>& racks);

}  // namespace spindle::topology

// The NodeManager's distributed node attributes (YARN's NodeAttributesProvider): the `config`
// provider reads them from yarn-site.xml, the `script` provider from a script's output, on a
// fetch interval. The NM reports them (prefix nm.yarn.io) at registration and in the first
// heartbeat after they change.
//
//   auto settings = readNodeAttributesSettings(conf);   // yarn.nodemanager.node-attributes.*
//   NodeAttributesProvider provider(*settings);
//   if (Status st = provider.start(); !st.isOk()) ...    // a bad config value, a missing script
//   std::vector<protocol::NodeAttributeRecord> now = provider.current();
//   if (auto changed = provider.takeChanged()) ...       // report in the next heartbeat
//   provider.stop();
//
// Keys (YARN's):
//   yarn.nodemanager.node-attributes.provider: `config`, `script`, or absent (none)
//   ...provider.configured-node-attributes: "name,TYPE,value:name2,TYPE,value2" (config)
//   ...provider.script.path, ...provider.script.opts (blank-separated arguments) (script)
//   ...provider.fetch-interval-ms (600000; -1: fetch only at start), ...fetch-timeout-ms
//   (1200000; the script is killed after it)
// Parsing follows ConfigurationNodeAttributesProvider.parseAttributes and
// ScriptBasedNodeAttributesProvider's output rule (lines `NODE_ATTRIBUTE:name,type,value`,
// other lines ignored); names and values are checked as NodeLabelUtil.validateNodeAttributes
// does. A failed or timed-out script run keeps the previous attributes (logged).
// Thread-safety: start(), stop() and the readers may be called from one thread while the
// script runs on the provider's own thread (script_runner.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"
#include "nm/script_runner.h"
#include "protocol/records.h"

namespace spindle::nm {

// The `config` provider's value: attributes separated by ':', each exactly
// `name,type,value` (no prefix: they get nm.yarn.io; type STRING). InvalidArgument naming the
// key and the attribute otherwise.
Result<std::vector<protocol::NodeAttributeRecord>> parseConfiguredNodeAttributes(
    std::string_view value);

// A script's standard output: each line starting with `NODE_ATTRIBUTE:` is
// `name,type,value` (fields trimmed); other lines are ignored.
Result<std::vector<protocol::NodeAttributeRecord>> parseScriptNodeAttributes(
    std::string_view output);

struct NodeAttributesSettings {
  enum class Kind { kNone, kConfig, kScript };
  Kind kind = Kind::kNone;
  std::string configured;  // configured-node-attributes
  std::string scriptPath;
  std::vector<std::string> scriptOpts;
  int64_t fetchIntervalMs = 600'000;  // -1: only at start
  int64_t fetchTimeoutMs = 1'200'000;
};

// Reads the keys; an unknown provider or a bad number is an error naming the key.
Result<NodeAttributesSettings> readNodeAttributesSettings(const Configuration& conf);

class NodeAttributesProvider {
 public:
  explicit NodeAttributesProvider(NodeAttributesSettings settings);
  ~NodeAttributesProvider();
  NodeAttributesProvider(const NodeAttributesProvider&) = delete;
  NodeAttributesProvider& operator=(const NodeAttributesProvider&) = delete;

  // The first fetch, synchronously; for `script` with an interval, starts the fetch thread.
  // Errors: a bad configured value, a script that is missing or not executable.
  Status start();
  void stop();
  // The attributes as last fetched.
  std::vector<protocol::NodeAttributeRecord> current() const;
  // The attributes when they changed since the last call (the first call after start() answers
  // nullopt: registration carries them), else nullopt.
  std::optional<std::vector<protocol::NodeAttributeRecord>> takeChanged();

 private:
  void fetched(const Result<std::string>& output);

  NodeAttributesSettings settings_;
  mutable std::mutex mu_;
  bool changed_ = false;
  std::atomic<bool> fetchedOnce_{false};
  std::vector<protocol::NodeAttributeRecord> current_;
  std::unique_ptr<PeriodicScript> script_;
};

}  // namespace spindle::nm

// The NodeManager's distributed node labels (YARN's NodeLabelsProvider): the `config` provider
// reads the partition from yarn-site.xml, the `script` provider from a script's output on a
// fetch interval (ScriptBasedNodeLabelsProvider). The NM sends them with its registration and
// in heartbeats when they change or the resync interval passed (NodeLabelsReporter).
//
//   auto settings = readNodeLabelsSettings(conf);   // yarn.nodemanager.node-labels.*
//   NodeLabelsProvider provider(*settings);
//   if (Status st = provider.start(); !st.isOk()) ...  // a missing or unexecutable script
//   std::vector<std::string> now = provider.current();
//   provider.stop();
//
// Keys (YARN's):
//   yarn.nodemanager.node-labels.provider: `config`, `script`, or absent (absent reads
//       ...provider.configured-node-partition as `config` does)
//   ...provider.configured-node-partition: the node's partition (config)
//   ...provider.script.path, ...provider.script.opts (blank-separated arguments) (script)
//   ...provider.fetch-interval-ms (600000; -1: fetch only at start), ...fetch-timeout-ms
//       (1200000; the script is killed after it)
//   yarn.nodemanager.node-labels.resync-interval-ms (120000): the labels are sent again after
//       this long even when unchanged
// A failed or timed-out script run, or a bad label, keeps the previous labels (logged).
// Thread-safety: current() may be called while the script runs on the provider's thread.
#pragma once

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

namespace spindle::nm {

// A script's standard output (ScriptBasedNodeLabelsProvider.fetchLabelsFromScriptOutput): a
// line starting with `NODE_PARTITION:` gives the partition (trimmed); of several, the last one
// wins; other lines are ignored. No such line, or an empty partition: no label. A name YARN
// refuses (NodeLabelUtil.checkAndThrowLabelName) is an error naming the line.
Result<std::vector<std::string>> parseScriptNodeLabels(std::string_view output);

struct NodeLabelsSettings {
  enum class Kind { kConfig, kScript };
  Kind kind = Kind::kConfig;
  std::string configured;      // configured-node-partition
  ScriptFetchSettings script;  // script.path, script.opts, fetch-interval-ms, fetch-timeout-ms
  int64_t resyncIntervalMs = 120'000;
};

// Reads the keys; an unknown provider or a bad number is an error naming the key.
Result<NodeLabelsSettings> readNodeLabelsSettings(const Configuration& conf);

class NodeLabelsProvider {
 public:
  explicit NodeLabelsProvider(NodeLabelsSettings settings);
  ~NodeLabelsProvider();
  NodeLabelsProvider(const NodeLabelsProvider&) = delete;
  NodeLabelsProvider& operator=(const NodeLabelsProvider&) = delete;

  // The first fetch, synchronously; for `script` with an interval, starts the fetch thread.
  // Errors: a bad configured partition, a script that is missing or not executable.
  Status start();
  void stop();
  // The labels as last fetched (at most one: the node's partition).
  std::vector<std::string> current() const;
  // One script run's output or error (the fetch thread passes each run): parsed output
  // replaces the labels; an error or an unparsable output keeps them (logged).
  void update(const Result<std::string>& output);

 private:
  NodeLabelsSettings settings_;
  mutable std::mutex mu_;
  std::vector<std::string> current_;
  std::unique_ptr<PeriodicScript> script_;
};

// Which labels a heartbeat carries (NodeStatusUpdaterImpl's NMDistributedNodeLabelsHandler):
// the provider's labels when they differ from those last sent or when the resync interval
// passed since then; nullopt otherwise (the RM keeps what it has).
class NodeLabelsReporter {
 public:
  explicit NodeLabelsReporter(int64_t resyncIntervalMs) : resyncMs_(resyncIntervalMs) {}
  // The registration sent `labels` at `nowMs`.
  void registered(std::vector<std::string> labels, int64_t nowMs);
  std::optional<std::vector<std::string>> forHeartbeat(const std::vector<std::string>& labels,
                                                       int64_t nowMs);

 private:
  int64_t resyncMs_;
  std::vector<std::string> sent_;
  int64_t sentAt_ = 0;
};

}  // namespace spindle::nm

// The node health script (YARN's NodeHealthScriptRunner and NodeHealthCheckerService): runs
// yarn.nodemanager.health-checker.script.path with its .script.opts every .interval-ms, killing
// a run after .script.timeout-ms, and keeps the node's health for the heartbeat.
//
//   HealthChecker h(readHealthSettings(conf).value());
//   h.start();                                   // first run now, then on its own thread
//   protocol::NodeHealthStatus s = h.status();   // isNodeHealthy, healthReport, time
//
// YARN's rules (NodeHealthScriptRunner.reportHealthStatus), in healthReportFor():
//  1. A line of the output starting with "ERROR": unhealthy, the output is the report.
//  2. A run past the timeout: unhealthy, "Node health script timed out".
//  3. A script that could not be run: unhealthy, the reason.
//  4. Otherwise, a non-zero exit code included: healthy, no report.
// No script configured, or one that is missing or not executable: the checker does not run
// and the node is healthy (NodeHealthScriptRunner.shouldRun; a warning names the key).
// Thread-safety: status() may be called from any thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"
#include "nm/script_runner.h"
#include "protocol/records.h"

namespace spindle::nm {

struct HealthSettings {
  std::string scriptPath;
  std::vector<std::string> scriptOpts;
  int64_t intervalMs = 600'000;   // yarn.nodemanager.health-checker.interval-ms
  int64_t timeoutMs = 1'200'000;  // yarn.nodemanager.health-checker.script.timeout-ms
};
Result<HealthSettings> readHealthSettings(const Configuration& conf);

// The health a finished run means (the rules above). `ranError`: why the script could not run.
protocol::NodeHealthStatus healthReportFor(const ScriptRun& run, const std::string& ranError,
                                           int64_t nowMs);

class HealthChecker {
 public:
  explicit HealthChecker(HealthSettings settings);
  ~HealthChecker();
  HealthChecker(const HealthChecker&) = delete;
  HealthChecker& operator=(const HealthChecker&) = delete;

  void start();
  void stop();
  protocol::NodeHealthStatus status() const;
  bool running() const { return thread_.joinable(); }

 private:
  void loop();
  void runOnce();

  HealthSettings settings_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<bool> cancel_{false};
  protocol::NodeHealthStatus status_;
  std::thread thread_;
};

}  // namespace spindle::nm

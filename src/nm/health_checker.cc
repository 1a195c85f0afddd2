#include "nm/health_checker.h"

#include <unistd.h>

#include <chrono>
#include <sstream>

#include "base/log.h"
#include "base/thread_name.h"

namespace spindle::nm {

namespace {

int64_t wallMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Result<HealthSettings> readHealthSettings(const Configuration& conf) {
  const std::string pre = "yarn.nodemanager.health-checker.";
  HealthSettings s;
  s.scriptPath = conf.get(pre + "script.path", "");
  std::istringstream opts(conf.get(pre + "script.opts", ""));
  for (std::string o; opts >> o;) s.scriptOpts.push_back(o);
  SPINDLE_ASSIGN_OR_RETURN(s.intervalMs, conf.getTimeDurationMs(pre + "interval-ms", 600'000));
  // Hadoop 3.3 renamed script.timeout-ms to timeout-ms; both are read, the older first.
  SPINDLE_ASSIGN_OR_RETURN(int64_t timeout, conf.getTimeDurationMs(pre + "timeout-ms", 1'200'000));
  SPINDLE_ASSIGN_OR_RETURN(s.timeoutMs, conf.getTimeDurationMs(pre + "script.timeout-ms", timeout));
  if (s.intervalMs <= 0) {
    return invalidArgument("{}interval-ms: must be positive, got {}", pre, s.intervalMs);
  }
  if (s.timeoutMs <= 0) {
    return invalidArgument("{}script.timeout-ms: must be positive, got {}", pre, s.timeoutMs);
  }
  return s;
}

protocol::NodeHealthStatus healthReportFor(const ScriptRun& run, const std::string& ranError,
                                           int64_t nowMs) {
  protocol::NodeHealthStatus h;
  h.lastHealthReportTime = nowMs;
  if (!ranError.empty()) {
    h.isNodeHealthy = false;
    h.healthReport = ranError;
    return h;
  }
  if (run.timedOut) {
    h.isNodeHealthy = false;
    h.healthReport = "Node health script timed out";
    return h;
  }
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("ERROR")) {
      h.isNodeHealthy = false;
      h.healthReport = run.output;
      while (!h.healthReport.empty() &&
             (h.healthReport.back() == '\n' || h.healthReport.back() == '\r')) {
        h.healthReport.pop_back();
      }
      return h;
    }
  }
  return h;  // healthy, also after a non-zero exit (YARN does not report those)
}

HealthChecker::HealthChecker(HealthSettings settings) : settings_(std::move(settings)) {
  status_.lastHealthReportTime = wallMs();
}

HealthChecker::~HealthChecker() { stop(); }

void HealthChecker::start() {
  if (settings_.scriptPath.empty()) return;
  if (access(settings_.scriptPath.c_str(), X_OK) != 0) {
    SPINDLE_LOG_WARN(
        "yarn.nodemanager.health-checker.script.path: {} is missing or not executable; the "
        "health script does not run",
        settings_.scriptPath);
    return;
  }
  runOnce();
  thread_ = std::thread([this] {
    nameThisThread("nm-health");
    loop();
  });
}

void HealthChecker::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cancel_ = true;
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

protocol::NodeHealthStatus HealthChecker::status() const {
  std::lock_guard lock(mu_);
  return status_;
}

void HealthChecker::loop() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    wake_.wait_for(lock, std::chrono::milliseconds(settings_.intervalMs));
    if (stopping_) break;
    lock.unlock();
    runOnce();
    lock.lock();
  }
}

void HealthChecker::runOnce() {
  auto run = runScript(settings_.scriptPath, settings_.scriptOpts, settings_.timeoutMs, &cancel_);
  if (run.isOk() && run->cancelled) return;
  const protocol::NodeHealthStatus h = healthReportFor(
      run.isOk() ? *run : ScriptRun{}, run.isOk() ? "" : run.status().message(), wallMs());
  std::lock_guard lock(mu_);
  if (h.isNodeHealthy != status_.isNodeHealthy || h.healthReport != status_.healthReport) {
    if (h.isNodeHealthy) {
      SPINDLE_LOG_INFO("the node is healthy again");
    } else {
      SPINDLE_LOG_WARN("the node is unhealthy: {}", h.healthReport);
    }
  }
  status_ = h;
}

}  // namespace spindle::nm

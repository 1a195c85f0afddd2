// Running a NodeManager script, shared by the node attribute, node label and health providers:
// one run with a timeout (runScript, runProviderScript) and a script fetched at start and on an
// interval on its own thread (PeriodicScript, as YARN's NodeDescriptorsScriptRunner for
// ScriptBasedNodeAttributesProvider and ScriptBasedNodeLabelsProvider).
//
//   PeriodicScript fetch(settings, "yarn.nodemanager.node-labels.provider",
//                        [](const Result<std::string>& output) { ... });
//   if (Status st = fetch.start(); !st.isOk()) ...  // a missing or unexecutable script
//   fetch.stop();
//
// Thread-safety: the callback runs on the caller's thread in start() and then on the fetch
// thread; stop() cancels a running script and joins the thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"

namespace spindle::nm {

// One run of a script: its standard output and how it ended.
struct ScriptRun {
  std::string output;
  int exitCode = 0;  // when it exited
  int signal = 0;    // when a signal ended it
  bool timedOut = false;
  bool cancelled = false;
};
// Runs `path opts...` (stdin /dev/null, stderr inherited) in its own process group, killed
// after `timeoutMs` or when `cancel` becomes true. Errors: pipe or fork failing.
Result<ScriptRun> runScript(const std::string& path, const std::vector<std::string>& opts,
                            int64_t timeoutMs, const std::atomic<bool>* cancel = nullptr);

// Runs `path opts...`, returns its standard output; an error for a non-zero exit, a signal,
// more than `timeoutMs`, or `cancel` becoming true (the process group is then killed).
Result<std::string> runProviderScript(const std::string& path, const std::vector<std::string>& opts,
                                      int64_t timeoutMs, const std::atomic<bool>* cancel = nullptr);

// `<provider>.fetch-interval-ms` (YARN's default 600000; -1: only at start) and
// `<provider>.fetch-timeout-ms` (1200000): an error naming the key for a bad value.
Status readFetchTimes(const Configuration& conf, const std::string& provider, int64_t& intervalMs,
                      int64_t& timeoutMs);

struct ScriptFetchSettings {
  std::string path;
  std::vector<std::string> opts;
  int64_t intervalMs = 600'000;  // -1: only at start
  int64_t timeoutMs = 1'200'000;
};

class PeriodicScript {
 public:
  using OnOutput = std::function<void(const Result<std::string>&)>;
  // `provider` is the key prefix named in errors (`<provider>.script.path: ...`).
  PeriodicScript(ScriptFetchSettings settings, std::string provider, OnOutput onOutput);
  ~PeriodicScript();
  PeriodicScript(const PeriodicScript&) = delete;
  PeriodicScript& operator=(const PeriodicScript&) = delete;

  // Checks the script (verifyConfiguredScript: set, executable), runs it once synchronously and,
  // with a positive interval, starts the fetch thread.
  Status start();
  void stop();

 private:
  void fetchOnce();
  void fetchLoop();

  ScriptFetchSettings settings_;
  std::string provider_;
  OnOutput onOutput_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<bool> cancel_{false};  // stops a running script when the NM stops
  std::thread thread_;
};

}  // namespace spindle::nm

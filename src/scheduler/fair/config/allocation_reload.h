// Reloading the allocation file while the scheduler runs, the way YARN's
// AllocationFileLoaderService does, driven by the injected clock instead of a thread.
//
//   AllocationReloadWatcher w(realAllocationFile("/etc/hadoop/fair-scheduler.xml"),
//                             site.allocationReloadIntervalMs, site.allocationReloadWaitMs,
//                             clock.nowMs());            // the file was just loaded
//   // on every MonitorTick:
//   if (std::optional<Result<std::string>> text = w.poll(clock.nowMs())) {
//     Status st = text->isOk() ? reloadFrom(text->value()) : text->status();
//     w.finished(clock.nowMs(), st);   // success: the load time moves; failure: retried
//   }
//
// Algorithm (AllocationFileLoaderService's reload thread):
//  1. A check is due at the first poll and then every `intervalMs` (ALLOC_RELOAD_INTERVAL_MS,
//     10 s) of injected-clock time; polls in between do nothing (the thread sleeps).
//  2. A check reads the file's modification time. The file is reloaded when it was modified
//     after the last successful load and `now > modified + waitMs` (ALLOC_RELOAD_WAIT_MS, 5 s:
//     strictly later, as YARN compares, so a file being written is not read half-done).
//  3. A successful reload sets the last-load time to now. A failed one (unreadable file,
//     invalid contents, a tree the live apps cannot move into) keeps the old configuration and
//     is retried at every later check; like YARN it is logged once until a reload succeeds.
//  4. A modification time that cannot be read (missing file) is logged once the same way.
// Times: modification times are ms since the epoch, so the clock must be too (the daemon's
// RealClock). A simulated clock counting from 0 never sees a real file as old enough; tests
// set the file's modification time in the clock's terms instead.
// Not thread-safe; owned by the scheduler.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/status.h"

namespace spindle::fair {

// What the watcher needs of the allocation file (FileSystem.getFileStatus and open).
class AllocationFileProbe {
 public:
  virtual ~AllocationFileProbe() = default;
  virtual const std::string& path() const = 0;
  // Modification time in ms since the epoch; an error when the file cannot be examined.
  virtual Result<int64_t> modificationTimeMs() const = 0;
  virtual Result<std::string> read() const = 0;
};

// The file on the local file system.
std::unique_ptr<AllocationFileProbe> realAllocationFile(std::string path);

class AllocationReloadWatcher {
 public:
  AllocationReloadWatcher(std::unique_ptr<AllocationFileProbe> probe, int64_t intervalMs,
                          int64_t waitMs, TimeMs loadedAt);

  // Rules 1-2: the file's text when a reload is due now (or the error reading it), else
  // nullopt. Call finished() after acting on a returned value.
  std::optional<Result<std::string>> poll(TimeMs now);
  // Rule 3: the outcome of the reload poll() asked for.
  void finished(TimeMs now, const Status& outcome);

  const std::string& path() const { return probe_->path(); }
  TimeMs lastSuccessfulReload() const { return lastSuccessfulReload_; }
  // The last failure since the last success (ok when the last attempt succeeded).
  const Status& lastError() const { return lastError_; }

 private:
  void fail(Status st);

  std::unique_ptr<AllocationFileProbe> probe_;
  int64_t intervalMs_;
  int64_t waitMs_;
  TimeMs lastSuccessfulReload_;
  std::optional<TimeMs> nextCheck_;  // unset: the first poll checks
  Status lastError_ = Status::ok();
  bool lastAttemptFailed_ = false;
};

}  // namespace spindle::fair

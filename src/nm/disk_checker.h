// The disk health checker (YARN's LocalDirsHandlerService and DirectoryCollection): every
// yarn.nodemanager.disk-health-checker.interval-ms the NM checks its local and log dirs.
//
//   DiskChecker disks(readDiskCheckSettings(conf).value(), {localDir}, {logDir});
//   disks.check(nowMs);                               // at start, then every intervalMs
//   protocol::NodeHealthStatus s = combinedHealth(script.status(), disks.status());
//
// YARN's rules (DirectoryCollection.testDirs, LocalDirsHandlerService.areDisksHealthy):
//  1. A dir that cannot be created, or is not a readable, writable and searchable directory,
//     has an error.
//  2. Otherwise it is full when its disk is used above max-disk-utilization-per-disk-percentage
//     (90) or has less than min-free-space-per-disk-mb (0) free; a full dir is good again only
//     below disk-utilization-watermark-low-per-disk-percentage (the maximum when unset) and
//     above min-free-space-per-disk-watermark-high-mb (the minimum when higher).
//  3. The node is unhealthy when the good fraction of its local dirs or of its log dirs is below
//     min-healthy-disks (0.25). The report names every bad dir and why.
// Disabled (disk-health-checker.enable false): every dir is good.
// Thread-safety: status() may be called from any thread while check() runs on another.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "config/configuration.h"
#include "protocol/records.h"

namespace spindle::nm {

struct DiskCheckSettings {
  bool enabled = true;
  int64_t intervalMs = 120'000;
  double minHealthyDisks = 0.25;
  double maxUtilizationPercent = 90.0;
  double lowWatermarkPercent = 90.0;  // a full dir is good again below this
  int64_t minFreeMb = 0;
  int64_t minFreeHighMb = 0;  // a full dir is good again above this
};
Result<DiskCheckSettings> readDiskCheckSettings(const Configuration& conf);

// A file system's size and the space an unprivileged user may still use (statvfs), in bytes.
struct DiskSpace {
  uint64_t totalBytes = 0;
  uint64_t usableBytes = 0;
};
// nullopt with the reason when the dir is not a usable directory (rule 1); its space otherwise.
using DirProbe = std::function<Result<DiskSpace>(const std::string& dir)>;
// Creates the dir when missing, checks it is a readable, writable, searchable directory and
// reads its file system's space.
Result<DiskSpace> probeDir(const std::string& dir);

struct DisksHealth {
  bool healthy = true;
  std::string report;       // empty when every dir is good
  int64_t checkedAtMs = 0;  // the last check (wall-clock ms)
};

class DiskChecker {
 public:
  DiskChecker(DiskCheckSettings settings, std::vector<std::string> localDirs,
              std::vector<std::string> logDirs, DirProbe probe = probeDir);

  // Checks every dir now (rules 1-3); `nowMs`: the wall-clock time to report.
  void check(int64_t nowMs);
  DisksHealth status() const;
  int64_t intervalMs() const { return settings_.intervalMs; }

 private:
  struct Dir {
    std::string path;
    std::string error;  // rule 1's reason; empty: none
    std::string full;   // rule 2's reason; empty: not full
  };
  void checkDir(Dir& d) const;
  std::string reportOf(const std::vector<Dir>& dirs, const char* kind) const;
  bool enoughGood(const std::vector<Dir>& dirs) const;

  DiskCheckSettings settings_;
  DirProbe probe_;
  std::vector<Dir> local_, log_;
  mutable std::mutex mu_;
  DisksHealth status_;
};

// The node's health from the script's and the disks' (NodeHealthCheckerService): healthy when
// both are; the reports joined with ";"; the later of the two report times.
protocol::NodeHealthStatus combinedHealth(const protocol::NodeHealthStatus& script,
                                          const DisksHealth& disks);

}  // namespace spindle::nm

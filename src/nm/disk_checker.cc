#include "nm/disk_checker.h"

#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace spindle::nm {

Result<DiskCheckSettings> readDiskCheckSettings(const Configuration& conf) {
  const std::string pre = "yarn.nodemanager.disk-health-checker.";
  DiskCheckSettings s;
  SPINDLE_ASSIGN_OR_RETURN(s.enabled, conf.getBool(pre + "enable", true));
  SPINDLE_ASSIGN_OR_RETURN(s.intervalMs, conf.getTimeDurationMs(pre + "interval-ms", 120'000));
  SPINDLE_ASSIGN_OR_RETURN(s.minHealthyDisks, conf.getDouble(pre + "min-healthy-disks", 0.25));
  SPINDLE_ASSIGN_OR_RETURN(s.maxUtilizationPercent,
                           conf.getDouble(pre + "max-disk-utilization-per-disk-percentage", 90.0));
  SPINDLE_ASSIGN_OR_RETURN(
      s.lowWatermarkPercent,
      conf.getDouble(pre + "disk-utilization-watermark-low-per-disk-percentage",
                     s.maxUtilizationPercent));
  SPINDLE_ASSIGN_OR_RETURN(s.minFreeMb, conf.getLong(pre + "min-free-space-per-disk-mb", 0));
  SPINDLE_ASSIGN_OR_RETURN(s.minFreeHighMb,
                           conf.getLong(pre + "min-free-space-per-disk-watermark-high-mb", 0));
  if (s.intervalMs <= 0) {
    return invalidArgument("{}interval-ms: must be positive, got {}", pre, s.intervalMs);
  }
  if (s.minHealthyDisks < 0 || s.minHealthyDisks > 1) {
    return invalidArgument("{}min-healthy-disks: must be between 0 and 1, got {}", pre,
                           s.minHealthyDisks);
  }
  if (s.minFreeMb < 0) {
    return invalidArgument("{}min-free-space-per-disk-mb: must not be negative, got {}", pre,
                           s.minFreeMb);
  }
  // DirectoryCollection: percentages are clamped to [0, 100]; the low watermark is at most the
  // high one and the high free-space mark at least the low one.
  s.maxUtilizationPercent = std::clamp(s.maxUtilizationPercent, 0.0, 100.0);
  s.lowWatermarkPercent = std::clamp(s.lowWatermarkPercent, 0.0, s.maxUtilizationPercent);
  s.minFreeHighMb = std::max(s.minFreeHighMb, s.minFreeMb);
  return s;
}

Result<DiskSpace> probeDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return failedPrecondition("Cannot create directory: {} ({})", dir, ec.message());
  if (!std::filesystem::is_directory(dir, ec)) {
    return failedPrecondition("Not a directory: {}", dir);
  }
  if (::access(dir.c_str(), R_OK) != 0)
    return failedPrecondition("Directory is not readable: {}", dir);
  if (::access(dir.c_str(), W_OK) != 0)
    return failedPrecondition("Directory is not writable: {}", dir);
  if (::access(dir.c_str(), X_OK) != 0) {
    return failedPrecondition("Directory is not executable: {}", dir);
  }
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) {
    return failedPrecondition("Cannot read the file system of {}", dir);
  }
  return DiskSpace{uint64_t(st.f_blocks) * st.f_frsize, uint64_t(st.f_bavail) * st.f_frsize};
}

DiskChecker::DiskChecker(DiskCheckSettings settings, std::vector<std::string> localDirs,
                         std::vector<std::string> logDirs, DirProbe probe)
    : settings_(settings), probe_(std::move(probe)) {
  for (std::string& d : localDirs) local_.push_back({std::move(d), "", ""});
  for (std::string& d : logDirs) log_.push_back({std::move(d), "", ""});
}

void DiskChecker::checkDir(Dir& d) const {
  auto space = probe_(d.path);
  if (!space) {
    d.error = space.status().message();
    d.full.clear();
    return;
  }
  d.error.clear();
  const bool wasFull = !d.full.empty();
  // A full dir must fall below the low watermarks to count as good again (hysteresis).
  const double percentCutoff =
      wasFull ? settings_.lowWatermarkPercent : settings_.maxUtilizationPercent;
  const int64_t freeCutoffMb = wasFull ? settings_.minFreeHighMb : settings_.minFreeMb;
  const double total = static_cast<double>(space->totalBytes);
  const double usedPercent =
      total <= 0 ? 100.0 : 100.0 * (total - static_cast<double>(space->usableBytes)) / total;
  const auto freeMb = static_cast<int64_t>(space->usableBytes / (1024 * 1024));
  if (usedPercent > percentCutoff) {
    d.full = fmt::format("used space above threshold of {:.1f}%", percentCutoff);
  } else if (freeMb < freeCutoffMb) {
    d.full = fmt::format("free space below limit of {}MB", freeCutoffMb);
  } else {
    d.full.clear();
  }
}

// LocalDirsHandlerService.getDisksHealthReport's wording.
std::string DiskChecker::reportOf(const std::vector<Dir>& dirs, const char* kind) const {
  std::string errors, full;
  size_t nErrors = 0, nFull = 0;
  for (const Dir& d : dirs) {
    if (!d.error.empty()) {
      ++nErrors;
      errors += fmt::format("[ {} : {} ] ", d.path, d.error);
    } else if (!d.full.empty()) {
      ++nFull;
      full += fmt::format("[ {} : {} ] ", d.path, d.full);
    }
  }
  std::string out;
  if (nErrors > 0)
    out += fmt::format("{}/{} {} have errors: {}", nErrors, dirs.size(), kind, errors);
  if (nFull > 0) {
    out += fmt::format(
        "{}/{} {} usable space is below configured utilization percentage/no more usable space "
        "{}",
        nFull, dirs.size(), kind, full);
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

bool DiskChecker::enoughGood(const std::vector<Dir>& dirs) const {
  if (dirs.empty()) return true;
  const auto good = std::count_if(dirs.begin(), dirs.end(),
                                  [](const Dir& d) { return d.error.empty() && d.full.empty(); });
  return static_cast<double>(good) / static_cast<double>(dirs.size()) >= settings_.minHealthyDisks;
}

void DiskChecker::check(int64_t nowMs) {
  DisksHealth h;
  h.checkedAtMs = nowMs;
  if (settings_.enabled) {
    for (Dir& d : local_) checkDir(d);
    for (Dir& d : log_) checkDir(d);
    const std::string local = reportOf(local_, "local-dirs");
    const std::string logs = reportOf(log_, "log-dirs");
    h.report = local.empty() ? logs : logs.empty() ? local : local + " ; " + logs;
    h.healthy = enoughGood(local_) && enoughGood(log_);
  }
  std::lock_guard lock(mu_);
  status_ = std::move(h);
}

DisksHealth DiskChecker::status() const {
  std::lock_guard lock(mu_);
  return status_;
}

protocol::NodeHealthStatus combinedHealth(const protocol::NodeHealthStatus& script,
                                          const DisksHealth& disks) {
  protocol::NodeHealthStatus h = script;
  h.isNodeHealthy = script.isNodeHealthy && disks.healthy;
  h.lastHealthReportTime = std::max(script.lastHealthReportTime, disks.checkedAtMs);
  if (!disks.report.empty()) {
    h.healthReport =
        script.healthReport.empty() ? disks.report : script.healthReport + ";" + disks.report;
  }
  return h;
}

}  // namespace spindle::nm

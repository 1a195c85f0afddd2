#include "scheduler/fair/config/allocation_reload.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/log.h"

namespace spindle::fair {

namespace {

class RealAllocationFile final : public AllocationFileProbe {
 public:
  explicit RealAllocationFile(std::string path) : path_(std::move(path)) {}
  const std::string& path() const override { return path_; }

  Result<int64_t> modificationTimeMs() const override {
    std::error_code ec;
    const auto t = std::filesystem::last_write_time(path_, ec);
    if (ec) return notFound("allocation file {}: {}", path_, ec.message());
    const auto sys = std::chrono::file_clock::to_sys(t);
    return std::chrono::duration_cast<std::chrono::milliseconds>(sys.time_since_epoch()).count();
  }

  Result<std::string> read() const override {
    std::ifstream in(path_, std::ios::binary);
    if (!in) return notFound("cannot read allocation file {}", path_);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::string path_;
};

}  // namespace

std::unique_ptr<AllocationFileProbe> realAllocationFile(std::string path) {
  return std::make_unique<RealAllocationFile>(std::move(path));
}

AllocationReloadWatcher::AllocationReloadWatcher(std::unique_ptr<AllocationFileProbe> probe,
                                                 int64_t intervalMs, int64_t waitMs,
                                                 TimeMs loadedAt)
    : probe_(std::move(probe)),
      intervalMs_(intervalMs),
      waitMs_(waitMs),
      lastSuccessfulReload_(loadedAt) {}

std::optional<Result<std::string>> AllocationReloadWatcher::poll(TimeMs now) {
  if (nextCheck_ && now < *nextCheck_) return std::nullopt;
  nextCheck_ = now + intervalMs_;
  Result<int64_t> modified = probe_->modificationTimeMs();
  if (!modified.isOk()) {
    fail(modified.status().withContext("allocation file reload"));
    return std::nullopt;
  }
  if (*modified > lastSuccessfulReload_ && now > *modified + waitMs_) return probe_->read();
  return std::nullopt;
}

void AllocationReloadWatcher::finished(TimeMs now, const Status& outcome) {
  if (!outcome.isOk()) {
    fail(outcome);
    return;
  }
  lastSuccessfulReload_ = now;
  lastAttemptFailed_ = false;
  lastError_ = Status::ok();
  SPINDLE_LOG_INFO("reloaded allocation file {}", probe_->path());
}

void AllocationReloadWatcher::fail(Status st) {
  // "Failed to reload fair scheduler config file - will use existing allocations.", once.
  if (!lastAttemptFailed_) {
    SPINDLE_LOG_ERROR(
        "Failed to reload fair scheduler config file {} - will use existing "
        "allocations: {}",
        probe_->path(), st.message());
  }
  lastAttemptFailed_ = true;
  lastError_ = std::move(st);
}

}  // namespace spindle::fair

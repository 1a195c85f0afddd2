// FairScheduler: reloading the allocation file while running (AllocationFileLoaderService and
// FairScheduler.AllocationReloadListener.onReload). The watcher decides when; this installs.
#include "scheduler/fair/fair_scheduler.h"

namespace spindle {

void FairScheduler::watchAllocationFile(std::unique_ptr<fair::AllocationFileProbe> probe) {
  watcher_ = std::make_unique<fair::AllocationReloadWatcher>(
      std::move(probe), config_.site.allocationReloadIntervalMs,
      config_.site.allocationReloadWaitMs, clock().nowMs());
}

void FairScheduler::checkAllocationFile() {
  if (!watcher_) return;
  std::optional<Result<std::string>> text = watcher_->poll(clock().nowMs());
  if (!text) return;
  Status outcome = text->status();
  if (outcome.isOk()) {
    // Only the allocation file is re-read; the yarn-site keys stay as they are.
    Result<fair::AllocationConfig> alloc =
        fair::parseAllocationText(text->value(), watcher_->path(), settings().types, config_.site);
    if (alloc.isOk()) {
      outcome =
          installConfig(fair::FairSchedulerConfig{config_.site, alloc.value(), watcher_->path()});
    } else {
      outcome = alloc.status();
    }
  }
  watcher_->finished(clock().nowMs(), outcome);
}

}  // namespace spindle

#include "rm/scheduler_loop.h"

#include <chrono>

namespace spindle::rm {

SchedulerLoop::SchedulerLoop(int64_t tickMs, Task tick, Task afterBatch, int64_t gatherUs)
    : tickMs_(tickMs),
      gatherUs_(gatherUs),
      tick_(std::move(tick)),
      afterBatch_(std::move(afterBatch)) {}

SchedulerLoop::~SchedulerLoop() { stop(); }

void SchedulerLoop::start() {
  thread_ = std::thread([this] { run(); });
}

void SchedulerLoop::post(Task task) {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    queue_.push_back(std::move(task));
    wake = !gathering_;
  }
  if (wake) cv_.notify_one();
}

void SchedulerLoop::stop() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  cv_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void SchedulerLoop::run() {
  using Clock = std::chrono::steady_clock;
  auto nextTick = Clock::now() + std::chrono::milliseconds(tickMs_);
  std::vector<Task> batch;
  bool ranTasks = false;
  while (true) {
    bool stopping = false;
    {
      std::unique_lock lock(mu_);
      if (ranTasks && gatherUs_ > 0 && queue_.empty() && !stopping_) {
        gathering_ = true;
        cv_.wait_for(lock, std::chrono::microseconds(gatherUs_), [this] { return stopping_; });
        gathering_ = false;
      }
      cv_.wait_until(lock, nextTick, [this] { return !queue_.empty() || stopping_; });
      batch.swap(queue_);
      stopping = stopping_;
      if (stopping) stopped_ = true;
    }
    ranTasks = !batch.empty();
    for (Task& t : batch) t();
    batch.clear();
    if (Clock::now() >= nextTick) {
      tick_();
      nextTick = Clock::now() + std::chrono::milliseconds(tickMs_);
    }
    if (afterBatch_) afterBatch_();
    if (stopping) return;
  }
}

}  // namespace spindle::rm

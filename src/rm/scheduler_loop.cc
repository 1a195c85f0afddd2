#include "rm/scheduler_loop.h"

#include <chrono>

namespace spindle::rm {

SchedulerLoop::SchedulerLoop(int64_t tickMs, Task tick, Task afterBatch)
    : tickMs_(tickMs), tick_(std::move(tick)), afterBatch_(std::move(afterBatch)) {}

SchedulerLoop::~SchedulerLoop() { stop(); }

void SchedulerLoop::start() {
  thread_ = std::thread([this] { run(); });
}

void SchedulerLoop::post(Task task) {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
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
  while (true) {
    bool stopping = false;
    {
      std::unique_lock lock(mu_);
      cv_.wait_until(lock, nextTick, [this] { return !queue_.empty() || stopping_; });
      batch.swap(queue_);
      stopping = stopping_;
      if (stopping) stopped_ = true;
    }
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

#include "rm/scheduler_loop.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "base/thread_name.h"
#include "protocol/http_server.h"

namespace spindle::rm {

void ArrivalRate::onBatch(int64_t nowUs, size_t tasks) {
  const double elapsed = static_cast<double>(std::max<int64_t>(0, nowUs - lastUs_));
  perUs_ = perUs_ * std::exp(-elapsed / kDecayUs) + static_cast<double>(tasks) / kDecayUs;
  lastUs_ = nowUs;
}

SchedulerLoop::SchedulerLoop(int64_t tickMs, Task tick, Task afterBatch, int64_t gatherUs)
    : tickMs_(tickMs),
      gatherUs_(gatherUs),
      tick_(std::move(tick)),
      afterBatch_(std::move(afterBatch)) {}

SchedulerLoop::~SchedulerLoop() { stop(); }

void SchedulerLoop::start() {
  thread_ = std::thread([this] {
    nameThisThread("rm-scheduler");
    run();
  });
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

void SchedulerLoop::postFirst(Task task) {
  {
    std::lock_guard lock(mu_);
    if (stopped_) return;
    firstQueue_.push_back(std::move(task));
    firstQueued_.store(true, std::memory_order_relaxed);
  }
  cv_.notify_one();  // even while gathering
}

void SchedulerLoop::runFirstTasks(std::vector<Task>& scratch) {
  {
    std::lock_guard lock(mu_);
    scratch.swap(firstQueue_);
    firstQueued_.store(false, std::memory_order_relaxed);
  }
  for (Task& t : scratch) t();
  scratch.clear();
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
  std::vector<Task> batch, first;
  bool ranTasks = false;
  while (true) {
    bool stopping = false;
    {
      std::unique_lock lock(mu_);
      // A gather pays a timer wake-up; it saves wake-ups only when it collects two tasks or more
      // (one request at a time from a waiting client is then answered 0.5 ms later for nothing).
      constexpr double kWorthGathering = 2;
      if (ranTasks && gatherUs_ > 0 && queue_.empty() && !stopping_ &&
          arrivals_.expectedWithin(gatherUs_) >= kWorthGathering) {
        gathering_ = true;
        cv_.wait_for(lock, std::chrono::microseconds(gatherUs_),
                     [this] { return stopping_ || !firstQueue_.empty(); });
        gathering_ = false;
      }
      cv_.wait_until(lock, nextTick,
                     [this] { return !queue_.empty() || !firstQueue_.empty() || stopping_; });
      first.swap(firstQueue_);
      firstQueued_.store(false, std::memory_order_relaxed);
      batch.swap(queue_);
      stopping = stopping_;
      if (stopping) stopped_ = true;
    }
    ranTasks = !batch.empty() || !first.empty();
    if (ranTasks) {
      const auto now =
          std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch());
      arrivals_.onBatch(now.count(), batch.size() + first.size());
      // Busy (two or more requests every half millisecond): the I/O thread sends the answers.
      constexpr int64_t kBusyWindowUs = 500;
      protocol::sendAnswersFromThisThread(arrivals_.expectedWithin(kBusyWindowUs) < 2);
    }
    for (Task& t : first) t();
    first.clear();
    for (Task& t : batch) {
      if (firstQueued_.load(std::memory_order_relaxed)) runFirstTasks(first);
      t();
    }
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

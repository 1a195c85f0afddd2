// The ResourceManager's scheduler thread: the one thread that owns the RmCore (and through it
// the Driver and the scheduler). Other threads post tasks; the loop runs them in batches, then
// its periodic tick.
//
//   SchedulerLoop loop(/*tickMs=*/100, [&] { core->tick(); });
//   loop.start();
//   loop.post([&, respond] { respond(core->metrics()); });   // from an I/O thread
//   loop.postFirst([&, respond] { respond(core->allocate(r)); });  // ahead of queued posts
//   loop.stop();                                             // runs what is queued, then joins
//
// Algorithm: 1. wait until a task is queued or the tick is due; 2. swap the whole queue out
// under the lock (one lock round trip per batch, not per task) and run every task in order;
// 3. run the tick when due; 4. after each batch, run the `afterBatch` hook (the daemon hands
// AM launches to its launcher there); 5. with a gather time, after a batch that ran tasks and
// when nothing is queued yet, let tasks gather for that long before taking the next batch: posts
// made meanwhile do not wake the thread. Under load each wake-up then serves many requests instead
// of one (10,000 NMs heartbeating every second otherwise wake it 10,000 times a second, and a
// wake-up costs a futex call on each side and a context switch). A gather costs a timer
// wake-up of its own, so the loop gathers only while tasks arrive fast enough for a gather to
// collect at least two (ArrivalRate); a quiet loop wakes at each post. At the same rate the
// loop's thread stops sending answers itself and hands them to the I/O thread
// (protocol::sendAnswersFromThisThread), which is awake anyway under load.
//
// postFirst() is for the calls a waiting client's latency is made of (an AM's allocate): such a
// task runs before the post() tasks taken with it, and the loop checks for new ones between the
// tasks of a batch it is running, so one waits at most for the task running when it came, not
// for a batch of heartbeats. It also ends a gather. postFirst() tasks keep their order among
// themselves, and post() tasks among themselves. Thread-safety: post() and postFirst() from any
// thread; start() and stop() from the owner.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace spindle::rm {

// How fast tasks arrive: an exponentially decayed count of the tasks taken per batch (time
// constant kDecayUs), in tasks per microsecond. Deterministic: times are passed in.
//
//   ArrivalRate rate;
//   rate.onBatch(nowUs, batch.size());
//   if (rate.expectedWithin(gatherUs) >= 2) gather();
class ArrivalRate {
 public:
  static constexpr double kDecayUs = 10'000;
  void onBatch(int64_t nowUs, size_t tasks);
  // The tasks expected to arrive within `us` at the current rate.
  double expectedWithin(int64_t us) const { return perUs_ * static_cast<double>(us); }

 private:
  double perUs_ = 0;
  int64_t lastUs_ = 0;
};

class SchedulerLoop {
 public:
  using Task = std::function<void()>;
  // gatherUs: step 5's gather time in microseconds (0: take each batch as soon as it is there).
  SchedulerLoop(int64_t tickMs, Task tick, Task afterBatch = {}, int64_t gatherUs = 0);
  ~SchedulerLoop();
  SchedulerLoop(const SchedulerLoop&) = delete;
  SchedulerLoop& operator=(const SchedulerLoop&) = delete;

  void start();
  void post(Task task);
  // Runs `task` ahead of the post() tasks not started yet (see above).
  void postFirst(Task task);
  // Runs the queued tasks, then stops the thread; later posts are dropped.
  void stop();

 private:
  void run();
  // Runs the postFirst() tasks queued now; on the loop's thread.
  void runFirstTasks(std::vector<Task>& scratch);

  const int64_t tickMs_;
  const int64_t gatherUs_;
  Task tick_;
  Task afterBatch_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Task> queue_;
  std::vector<Task> firstQueue_;          // postFirst()'s
  std::atomic<bool> firstQueued_{false};  // firstQueue_ is not empty (read without the lock)
  bool stopping_ = false;
  bool gathering_ = false;  // step 5: posts do not notify
  ArrivalRate arrivals_;    // the loop thread's own
  bool stopped_ = false;
  std::thread thread_;
};

}  // namespace spindle::rm

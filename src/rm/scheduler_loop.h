// The ResourceManager's scheduler thread: the one thread that owns the RmCore (and through it
// the Driver and the scheduler). Other threads post tasks; the loop runs them in batches, then
// its periodic tick.
//
//   SchedulerLoop loop(/*tickMs=*/100, [&] { core->tick(); });
//   loop.start();
//   loop.post([&, respond] { respond(core->metrics()); });   // from an I/O thread
//   loop.stop();                                             // runs what is queued, then joins
//
// Algorithm: 1. wait until a task is queued or the tick is due; 2. swap the whole queue out
// under the lock (one lock round trip per batch, not per task) and run every task in order;
// 3. run the tick when due; 4. after each batch, run the `afterBatch` hook (the daemon hands
// AM launches to its launcher there).
// Thread-safety: post() from any thread; start() and stop() from the owner.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace spindle::rm {

class SchedulerLoop {
 public:
  using Task = std::function<void()>;
  SchedulerLoop(int64_t tickMs, Task tick, Task afterBatch = {});
  ~SchedulerLoop();
  SchedulerLoop(const SchedulerLoop&) = delete;
  SchedulerLoop& operator=(const SchedulerLoop&) = delete;

  void start();
  void post(Task task);
  // Runs the queued tasks, then stops the thread; later posts are dropped.
  void stop();

 private:
  void run();

  const int64_t tickMs_;
  Task tick_;
  Task afterBatch_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Task> queue_;
  bool stopping_ = false;
  bool stopped_ = false;
  std::thread thread_;
};

}  // namespace spindle::rm

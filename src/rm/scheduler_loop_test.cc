#include "rm/scheduler_loop.h"

#include <chrono>
#include <future>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace spindle::rm {
namespace {

// With a gather time, tasks posted from another thread still all run, in the order posted,
// on the loop's thread; stop() during a gather runs what is queued and returns.
TEST(SchedulerLoopTest, GatheringKeepsEveryTaskAndItsOrder) {
  std::vector<int> ran;  // touched only on the loop's thread until stop() has joined it
  SchedulerLoop loop(/*tickMs=*/1000, [] {}, {}, /*gatherUs=*/100'000);
  loop.start();
  std::promise<void> first;
  loop.post([&] {
    ran.push_back(0);
    first.set_value();
  });
  first.get_future().wait();
  // The loop now gathers for up to 100 ms: these wait for it, and stop() cuts it short.
  for (int i = 1; i <= 100; ++i) loop.post([&ran, i] { ran.push_back(i); });
  loop.stop();
  ASSERT_EQ(ran.size(), 101u);
  for (int i = 0; i <= 100; ++i) EXPECT_EQ(ran[static_cast<size_t>(i)], i);
}

// Without gathering, each post wakes the loop; the answer comes back through a future.
TEST(SchedulerLoopTest, APostIsAnsweredWithoutGathering) {
  SchedulerLoop loop(/*tickMs=*/1000, [] {});
  loop.start();
  for (int i = 0; i < 3; ++i) {
    std::promise<int> answer;
    loop.post([&answer, i] { answer.set_value(i * 2); });
    EXPECT_EQ(answer.get_future().get(), i * 2);
  }
  loop.stop();
  loop.post([] { FAIL() << "a post after stop() must be dropped"; });
}

// postFirst() tasks run before the post() tasks queued with them, and between the tasks of a
// batch being run: here one posted while the batch's first task runs goes before its second.
TEST(SchedulerLoopTest, PostFirstGoesAheadOfQueuedTasks) {
  std::vector<std::string> ran;  // the loop's thread's until stop() has joined it
  SchedulerLoop loop(/*tickMs=*/1000, [] {});
  loop.start();
  // Holds the loop in a task until released.
  auto hold = [&loop, &ran](const std::string& name, std::promise<void>& started,
                            std::shared_future<void> release) {
    loop.post([&ran, name, &started, release] {
      ran.push_back(name);
      started.set_value();
      release.wait();
    });
  };
  std::promise<void> started0, release0, started1, release1;
  hold("hold0", started0, release0.get_future().share());
  started0.get_future().wait();
  // Queued while hold0 runs: one batch of two, then a first task.
  hold("hold1", started1, release1.get_future().share());
  loop.post([&ran] { ran.push_back("a"); });
  loop.postFirst([&ran] { ran.push_back("first0"); });
  release0.set_value();
  started1.get_future().wait();
  // hold1 runs; "a" is in the same batch, after it.
  loop.postFirst([&ran] { ran.push_back("first1"); });
  release1.set_value();
  loop.stop();
  EXPECT_EQ(ran, (std::vector<std::string>{"hold0", "first0", "hold1", "first1", "a"}));
}

// A postFirst() task ends a gather at once instead of waiting out the gather time.
TEST(SchedulerLoopTest, PostFirstEndsAGather) {
  SchedulerLoop loop(/*tickMs=*/100'000, [] {}, {}, /*gatherUs=*/60'000'000);
  loop.start();
  // A thousand posts at once: the arrival rate then says a gather collects two or more, so once
  // they have run the loop gathers (for a minute: posts meanwhile do not wake it).
  std::promise<void> ranAll;
  for (int i = 0; i < 999; ++i) loop.post([] {});
  loop.post([&ranAll] { ranAll.set_value(); });
  ranAll.get_future().wait();
  std::promise<void> first;
  loop.postFirst([&first] { first.set_value(); });
  // Without the wake-up this would wait out the gather.
  EXPECT_EQ(first.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
  loop.stop();
}

// The rate follows the arrivals: 10,000 tasks a second in batches of 5 every 500 us make a
// gather of 500 us worth it (5 expected); one request every 2 ms (a client waiting for each
// answer) does not, and the estimate decays once the load stops.
TEST(ArrivalRateTest, FollowsTheLoad) {
  ArrivalRate heavy;
  for (int64_t t = 0; t < 100'000; t += 500) heavy.onBatch(t, 5);
  EXPECT_NEAR(heavy.expectedWithin(500), 5.0, 0.2);
  heavy.onBatch(200'000, 0);  // 100 ms of nothing: ten time constants
  EXPECT_LT(heavy.expectedWithin(500), 0.01);

  ArrivalRate light;
  for (int64_t t = 0; t < 100'000; t += 2'000) light.onBatch(t, 1);
  // 0.25 on average; just after an arrival the decayed count is a little higher (0.276).
  EXPECT_GT(light.expectedWithin(500), 0.2);
  EXPECT_LT(light.expectedWithin(500), 0.3);
}

}  // namespace
}  // namespace spindle::rm

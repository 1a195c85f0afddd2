#include "rm/scheduler_loop.h"

#include <future>
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

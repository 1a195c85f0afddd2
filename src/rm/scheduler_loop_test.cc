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

}  // namespace
}  // namespace spindle::rm

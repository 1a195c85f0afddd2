// Fair Scheduler vectors FS-9 (testQueueInfo) and FS-15 (testSimpleContainerAllocation),
// observed through the scheduler as a user sees them.
#include <gtest/gtest.h>

#include "scheduler/fair/fair_scheduler.h"
#include "scheduler/fair/fs_test_fixture.h"

namespace spindle {
namespace {

using fstest::allocationXml;
using fstest::Fs;

// QueueInfo.capacity = fairShare.mem / cluster.mem; currentCapacity = usage.mem /
// fairShare.mem (FSQueue.getQueueInfo).
float capacity(Fs& fs, const std::string& q) {
  return static_cast<float>(fs.fairMb(q)) /
         static_cast<float>(fs.sched().cluster().total().memoryMb());
}
float currentCapacity(Fs& fs, const std::string& q) {
  const int64_t share = fs.fairMb(q);
  return share == 0 ? 0.0f
                    : static_cast<float>(fs.queue(q).usage.memoryMb()) / static_cast<float>(share);
}

// FS-9: weights 0.25 / 0.75 are the capacities (root.default is idle); one container per
// node update, so two updates give queueA its 1 GB and queueB its 6 GB.
TEST(FairVectors, Fs9QueueInfoCapacities) {
  Fs fs(allocationXml(R"(
    <queue name="queueA"><weight>.25</weight></queue>
    <queue name="queueB"><weight>.75</weight></queue>)"));
  fs.node("h1", "/r1", 8 * 1024, 8);
  AppId a = fs.app("queueA", "user1");
  fs.ask(a, 1, "*", 1 * 1024, 1, 1);
  AppId b = fs.app("queueB", "user1");
  fs.ask(b, 1, "*", 6 * 1024, 1, 1);
  fs.tick();
  EXPECT_FLOAT_EQ(capacity(fs, "root.queueA"), 0.25f);
  EXPECT_FLOAT_EQ(currentCapacity(fs, "root.queueA"), 0.0f);
  EXPECT_FLOAT_EQ(capacity(fs, "root.queueB"), 0.75f);
  EXPECT_FLOAT_EQ(currentCapacity(fs, "root.queueB"), 0.0f);

  fs.heartbeat("h1");
  fs.heartbeat("h1");
  EXPECT_FLOAT_EQ(capacity(fs, "root.queueA"), 0.25f);
  EXPECT_FLOAT_EQ(currentCapacity(fs, "root.queueA"), 0.5f);
  EXPECT_FLOAT_EQ(capacity(fs, "root.queueB"), 0.75f);
  EXPECT_FLOAT_EQ(currentCapacity(fs, "root.queueB"), 1.0f);
  EXPECT_EQ(fs.allocations(a), 1);
  EXPECT_EQ(fs.allocations(b), 1);
  EXPECT_EQ(fs.queue("root.queueA").usage.memoryMb(), 1024);
  EXPECT_EQ(fs.queue("root.queueB").usage.memoryMb(), 6144);
}

// FS-15: FairSchedulerTestBase's configuration (minimum allocation 0, increment 1024 MB): a
// 512 MB / 2 vcore ask becomes 1024 MB / 2 vcores, which only the 1024 MB node can hold.
TEST(FairVectors, Fs15SimpleContainerAllocation) {
  Fs fs(allocationXml(""), {{"yarn.scheduler.minimum-allocation-mb", "0"},
                            {"yarn.resource-types.memory-mb.increment-allocation", "1024"},
                            {"yarn.scheduler.maximum-allocation-mb", "10240"}});
  fs.node("127.0.0.1", "/r1", 1024, 4);
  fs.node("127.0.0.2", "/r1", 512, 2);
  AppId app = fs.app("queue1", "user1");
  fs.ask(app, 1, "*", 512, 2, 2);
  fs.tick();
  fs.heartbeat("127.0.0.1");
  EXPECT_EQ(fs.queue("root.queue1").usage.memoryMb(), 1024);
  fs.heartbeat("127.0.0.2");
  EXPECT_EQ(fs.queue("root.queue1").usage, Resource::of(1024, 2));
  EXPECT_EQ(fs.queue("root").usage, Resource::of(1024, 2));
  const Resource available = fs.sched().cluster().total() - fs.sched().cluster().allocated();
  EXPECT_EQ(available, Resource::of(512, 4));
}

}  // namespace
}  // namespace spindle

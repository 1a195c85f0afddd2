#include "scheduler/fifo/fifo_scheduler.h"

#include <gtest/gtest.h>

namespace spindle {
namespace {

// A small fluent fixture: a FIFO scheduler on a simulated clock with a decision log.
class Fifo {
 public:
  Fifo() {
    sched_ = FifoScheduler::create(conf_, clock_, rng_).value();
    sched_->setDecisionSink(&log_);
  }
  Fifo& node(const std::string& name, const std::string& rack, int64_t mb) {
    EXPECT_TRUE(sched_->handle(NodeAdded{name, rack, Resource::of(mb, 8), {}, {}}).isOk());
    return *this;
  }
  AppId app(int64_t amMb = 0) {
    AppSubmission sub;
    sub.amResource = Resource::of(amMb, amMb ? 1 : 0);
    return sched_->submit(sub).value();
  }
  Status ask(AppId app, int prio, std::string name, int64_t mb, int count) {
    ResourceRequest rr{{prio, 0}, std::move(name), Resource::of(mb, 1), count, true, ""};
    return sched_->handle(AppAllocate{app, {rr}, {}, {}, {}});
  }
  void heartbeat(const std::string& node) {
    ASSERT_TRUE(sched_->handle(NodeHeartbeat{node, {}}).isOk());
    ASSERT_TRUE(sched_->checkInvariants().isOk()) << sched_->checkInvariants().toString();
  }
  int allocations(AppId app) const {
    int n = 0;
    for (const auto& d : log_.decisions()) n += d.kind == DecisionKind::kAllocate && d.app == app;
    return n;
  }
  FifoScheduler& sched() { return *sched_; }

 private:
  Configuration conf_;
  SimulatedClock clock_;
  Rng rng_{1};
  DecisionLog log_;
  std::unique_ptr<FifoScheduler> sched_;
};

TEST(FifoScheduler, FillsANodeByMemoryAndIgnoresVcores) {
  Fifo f;
  f.node("h1", "/r1", 4096);
  AppId a = f.app();
  ASSERT_TRUE(f.ask(a, 1, "*", 1024, 10).isOk());
  f.heartbeat("h1");
  EXPECT_EQ(f.allocations(a), 4) << "4 x 1 GB fit in 4 GB; 8 vcores would allow 8";
  EXPECT_EQ(f.sched().headroom(), Resource::of(0, 4));
}

TEST(FifoScheduler, EarlierAppIsServedFirst) {
  Fifo f;
  f.node("h1", "/r1", 2048);
  AppId first = f.app();
  AppId second = f.app();
  ASSERT_TRUE(f.ask(second, 1, "*", 1024, 2).isOk());
  ASSERT_TRUE(f.ask(first, 1, "*", 1024, 2).isOk());
  f.heartbeat("h1");
  EXPECT_EQ(f.allocations(first), 2);
  EXPECT_EQ(f.allocations(second), 0);
}

TEST(FifoScheduler, AskAboveMaximumIsRefusedAndNothingChanges) {
  Fifo f;
  f.node("h1", "/r1", 16384);
  AppId a = f.app();
  Status s = f.ask(a, 1, "*", 9000, 1);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(f.sched().findApp(a)->asks().hasPending());
}

TEST(FifoScheduler, NormalisesAsksUpToTheMinimumAllocation) {
  Fifo f;
  f.node("h1", "/r1", 4096);
  AppId a = f.app();
  ASSERT_TRUE(f.ask(a, 1, "*", 100, 1).isOk());
  f.heartbeat("h1");
  EXPECT_EQ(f.sched().cluster().allocated().memoryMb(), 1024);
}

}  // namespace
}  // namespace spindle

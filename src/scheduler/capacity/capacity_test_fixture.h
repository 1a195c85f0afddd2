// Test fixture for the Capacity Scheduler (tests only): a scheduler built from
// capacity-scheduler keys on a simulated clock, with a decision log and fluent steps.
//
//   Cs cs(testing::CsConf().queues("root", "a,b").cap("root.a", "40").cap("root.b", "60"));
//   cs.node("h1", "/r1", 8 * GB);
//   AppId app = cs.submit("a", "alice");
//   cs.ask(app, 1, "*", 1 * GB, 4).heartbeat("h1");
//   EXPECT_EQ(cs.allocations(app), 4);
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/config/test_builder.h"

namespace spindle {

inline constexpr int64_t GB = 1024;

class Cs {
 public:
  // yarn-site defaults of TestLeafQueue: minAlloc 1 GB / 1 vcore, maxAlloc 16 GB / 32 vcores.
  explicit Cs(testing::CsConf conf) {
    conf.raw("yarn.scheduler.minimum-allocation-mb", "1024")
        .raw("yarn.scheduler.maximum-allocation-mb", "16384")
        .raw("yarn.scheduler.maximum-allocation-vcores", "32");
    auto s = CapacityScheduler::create(conf.conf(), clock_, rng_);
    EXPECT_TRUE(s.isOk()) << s.status().message();
    if (s.isOk()) sched_ = std::move(s.value());
    sched_->setDecisionSink(&log_);
  }

  Cs& node(const std::string& name, const std::string& rack, int64_t mb, int64_t vcores = 32,
           std::vector<std::string> labels = {}) {
    Status s = sched_->handle(NodeAdded{name, rack, Resource::of(mb, vcores), labels, {}});
    EXPECT_TRUE(s.isOk()) << s.message();
    sched_->settle();  // the tests read views after adding nodes
    return *this;
  }
  Cs& labels(std::vector<NodeLabel> l) {
    EXPECT_TRUE(sched_->handle(AddNodeLabels{std::move(l)}).isOk());
    return *this;
  }
  Result<AppId> trySubmit(const std::string& queue, const std::string& user, int64_t amMb = 0,
                          int32_t priority = 0, const std::string& name = "app") {
    AppSubmission sub;
    sub.queue = queue;
    sub.user = user;
    sub.name = name;
    sub.priority = priority;
    sub.amResource = amMb ? Resource::of(amMb, 1) : Resource();
    return sched_->submit(sub);
  }
  AppId submit(const std::string& queue, const std::string& user, int64_t amMb = 0,
               int32_t priority = 0) {
    auto r = trySubmit(queue, user, amMb, priority);
    EXPECT_TRUE(r.isOk()) << r.status().message();
    return r.isOk() ? *r : AppId();
  }
  Cs& ask(AppId app, int prio, const std::string& where, int64_t mb, int count, bool relax = true,
          const std::string& label = "") {
    ResourceRequest rr{{prio, 0}, where, Resource::of(mb, 1), count, relax, label};
    Status s = sched_->handle(AppAllocate{app, {rr}, {}, {}, {}});
    EXPECT_TRUE(s.isOk()) << s.message();
    return *this;
  }
  // One NODE_UPDATE; returns the allocations it made.
  int heartbeat(const std::string& node) {
    const size_t before = log_.decisions().size();
    Status s = sched_->handle(NodeHeartbeat{node, {}});
    EXPECT_TRUE(s.isOk()) << s.message();
    Status inv = sched_->checkInvariants();
    EXPECT_TRUE(inv.isOk()) << inv.message();
    int n = 0;
    for (size_t i = before; i < log_.decisions().size(); ++i) {
      n += log_.decisions()[i].kind == DecisionKind::kAllocate;
    }
    return n;
  }
  Cs& finish(AppId app) {
    EXPECT_TRUE(sched_->handle(AppRemoved{app, AppState::FINISHED}).isOk());
    EXPECT_TRUE(sched_->checkInvariants().isOk()) << sched_->checkInvariants().message();
    return *this;
  }
  Cs& complete(ContainerId c) {
    EXPECT_TRUE(sched_->handle(ContainerFinished{c, 0}).isOk());
    return *this;
  }
  Cs& tick() {
    EXPECT_TRUE(sched_->handle(MonitorTick{}).isOk());
    return *this;
  }

  int allocations(AppId app) const { return count(DecisionKind::kAllocate, app); }
  int count(DecisionKind kind, AppId app) const {
    int n = 0;
    for (const auto& d : log_.decisions()) n += d.kind == kind && d.app == app;
    return n;
  }
  int64_t usedMb(AppId app) const { return sched_->findApp(app)->used().memoryMb(); }
  int64_t opportunities(AppId app, int prio) const {
    return sched_->findApp(app)->schedulingOpportunities({prio, 0});
  }
  CsAppPhase phase(AppId app) const { return sched_->csApp(app)->phase; }
  const CsQueue& queue(const std::string& q) const { return *sched_->findQueue(q); }
  const Decision* lastSkip(AppId app) const { return sched_->lastSkip(app); }
  std::vector<Decision> allocationsOf(AppId app) const {
    std::vector<Decision> out;
    for (const auto& d : log_.decisions()) {
      if (d.kind == DecisionKind::kAllocate && d.app == app) out.push_back(d);
    }
    return out;
  }
  CapacityScheduler& sched() { return *sched_; }
  const DecisionLog& log() const { return log_; }
  SimulatedClock& clock() { return clock_; }

 private:
  SimulatedClock clock_;
  Rng rng_{7};
  DecisionLog log_;
  std::unique_ptr<CapacityScheduler> sched_;
};

}  // namespace spindle

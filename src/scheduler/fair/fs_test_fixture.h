// Test fixture for the Fair Scheduler tests: a scheduler built from an allocation file's text
// and yarn-site keys, on a simulated clock, with a decision log.
//
//   Fs fs(allocationXml(R"(<queue name="a"/>)"));  // wrapped in <allocations>
//   fs.node("h1", "/r1", 8192, 8);
//   AppId a = fs.app("root.a", "alice");
//   fs.ask(a, 1, "*", 1024, 1, 2);
//   fs.heartbeat("h1");
//   EXPECT_EQ(fs.allocations(a), 2);
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "scheduler/fair/fair_scheduler.h"

namespace spindle::fstest {

inline std::string allocationXml(const std::string& body) {
  return "<?xml version=\"1.0\"?>\n<allocations>\n" + body + "\n</allocations>\n";
}

class Fs {
 public:
  explicit Fs(const std::string& xml = allocationXml(""),
              std::vector<std::pair<std::string, std::string>> site = {}) {
    for (const auto& [k, v] : site) conf_.set(k, v);
    auto s = FairScheduler::createWithAllocation(conf_, xml, clock_, rng_);
    EXPECT_TRUE(s.isOk()) << s.status().toString();
    sched_ = std::move(s).value();
    sched_->setDecisionSink(&log_);
  }
  Fs& node(const std::string& name, const std::string& rack, int64_t mb, int64_t vcores = 8) {
    EXPECT_TRUE(sched_->handle(NodeAdded{name, rack, Resource::of(mb, vcores), {}, {}}).isOk());
    return *this;
  }
  // An app without an AM container unless amMb > 0.
  Result<AppId> submit(const std::string& queue, const std::string& user, int64_t amMb = 0) {
    AppSubmission sub;
    sub.name = "job";
    sub.queue = queue;
    sub.user = user;
    sub.amResource = Resource::of(amMb, amMb ? 1 : 0);
    return sched_->submit(sub);
  }
  AppId app(const std::string& queue, const std::string& user = "user", int64_t amMb = 0) {
    Result<AppId> id = submit(queue, user, amMb);
    EXPECT_TRUE(id.isOk()) << id.status().toString();
    return id.isOk() ? *id : AppId{};
  }
  void ask(AppId app, int prio, const std::string& where, int64_t mb, int64_t vcores, int count,
           bool relax = true) {
    ResourceRequest rr{{prio, 0}, where, Resource::of(mb, vcores), count, relax, ""};
    Status s = sched_->handle(AppAllocate{app, {rr}, {}, {}, {}});
    EXPECT_TRUE(s.isOk()) << s.toString();
  }
  // A node-local ask on `host` (with the matching rack and ANY requests).
  void askOnHost(AppId app, int prio, const std::string& host, const std::string& rack, int64_t mb,
                 int count) {
    std::vector<ResourceRequest> rrs = {{{prio, 0}, host, Resource::of(mb, 1), count, true, ""},
                                        {{prio, 0}, rack, Resource::of(mb, 1), count, true, ""},
                                        {{prio, 0}, "*", Resource::of(mb, 1), count, true, ""}};
    Status s = sched_->handle(AppAllocate{app, rrs, {}, {}, {}});
    EXPECT_TRUE(s.isOk()) << s.toString();
  }
  void release(AppId app, ContainerId c) {
    Status s = sched_->handle(AppAllocate{app, {}, {c}, {}, {}});
    EXPECT_TRUE(s.isOk()) << s.toString();
  }
  void remove(AppId app) {
    Status s = sched_->handle(AppRemoved{app, AppState::FINISHED});
    EXPECT_TRUE(s.isOk()) << s.toString();
    invariants();
  }
  void heartbeat(const std::string& node) {
    Status s = sched_->handle(NodeHeartbeat{node, {}});
    EXPECT_TRUE(s.isOk()) << s.toString();
    invariants();
  }
  void tick() {
    EXPECT_TRUE(sched_->handle(MonitorTick{}).isOk());
    invariants();
  }
  void invariants() {
    Status inv = sched_->checkInvariants();
    EXPECT_TRUE(inv.isOk()) << inv.toString();
  }
  int allocations(AppId app) const { return count(DecisionKind::kAllocate, app); }
  int count(DecisionKind kind, AppId app) const {
    int n = 0;
    for (const auto& d : log_.decisions()) n += d.kind == kind && d.app == app;
    return n;
  }
  // The apps allocated to, in order.
  std::vector<AppId> allocationOrder() const {
    std::vector<AppId> out;
    for (const auto& d : log_.decisions()) {
      if (d.kind == DecisionKind::kAllocate) out.push_back(d.app);
    }
    return out;
  }
  const fair::FsQueue& queue(const std::string& path) const {
    const fair::FsQueue* q = sched_->queues().find(path);
    EXPECT_NE(q, nullptr) << path;
    return *q;
  }
  int64_t fairMb(const std::string& path) const { return queue(path).fairShare.memoryMb(); }
  int64_t steadyMb(const std::string& path) const {
    return sched_->steadyFairShares().at(&queue(path)).memoryMb();
  }
  bool runnable(AppId app) const { return sched_->fsApp(app)->runnable; }
  FairScheduler& sched() { return *sched_; }
  SimulatedClock& clock() { return clock_; }
  DecisionLog& log() { return log_; }
  Configuration& conf() { return conf_; }

 private:
  Configuration conf_;
  SimulatedClock clock_;
  Rng rng_{1};
  DecisionLog log_;
  std::unique_ptr<FairScheduler> sched_;
};

}  // namespace spindle::fstest

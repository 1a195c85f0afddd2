#include "scheduler/reservation_system.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "scheduler/capacity/capacity_scheduler.h"
#include "scheduler/capacity/config/test_builder.h"
#include "scheduler/driver.h"
#include "scheduler/fair/fair_scheduler.h"

namespace spindle {
namespace {

using reservation::Interpreter;
using reservation::ReservationDefinition;
using reservation::ReservationId;
using reservation::ReservationRequest;

constexpr int64_t GB = 1024;

// root.a 20 %, root.dedicated 80 % and reservable; one 100 GB / 100 vcore node.
struct Plan {
  explicit Plan(bool moveOnExpiry = true) {
    testing::CsConf c;
    c.queues("root", "a,dedicated").cap("root.a", "20").cap("root.dedicated", "80");
    c.set("root.dedicated.reservable", "true");
    c.set("root.dedicated.reservation-move-on-expiry", moveOnExpiry ? "true" : "false");
    c.raw("yarn.resourcemanager.reservation-system.enable", "true");
    c.raw("yarn.resourcemanager.reservation-system.planfollower.time-step", "1000");
    c.raw("yarn.scheduler.minimum-allocation-mb", "1024");
    auto d = Driver::create(c.conf(), clock, rng);
    EXPECT_TRUE(d.isOk()) << d.status().message();
    driver = std::move(d).value();
    EXPECT_TRUE(driver->handle(NodeAdded{"h1", "/r1", Resource::of(100 * GB, 100), {}, {}}).isOk());
    driver->settle();
  }
  const CapacityScheduler& cs() const {
    return static_cast<const CapacityScheduler&>(driver->scheduler());
  }
  // `containers` 1 GB containers for `durationMs` inside [arrival, deadline).
  ReservationId reserve(int64_t arrival, int64_t deadline, int64_t containers, int64_t durationMs) {
    ReservationDefinition def;
    def.arrival = arrival;
    def.deadline = deadline;
    def.interpreter = Interpreter::kAll;
    def.stages.push_back(ReservationRequest::of(Resource::of(GB, 1), containers, 1, durationMs));
    ReservationId id = driver->reservationSystem()->newReservationId();
    auto s = driver->reservationSystem()->submit("dedicated", id, &def, "alice");
    EXPECT_TRUE(s.isOk()) << s.toString();
    return id;
  }
  const AppChange* submit(const std::string& queue, const std::string& reservation) {
    AppSubmission sub;
    sub.name = "job";
    sub.queue = queue;
    sub.user = "alice";
    sub.amResource = Resource::of(GB, 1);
    sub.reservationId = reservation;
    auto out = driver->submit(sub);
    EXPECT_TRUE(out.isOk()) << out.status().message();
    return out->admission();
  }
  SimulatedClock clock{0};
  Rng rng{1};
  std::unique_ptr<Driver> driver;
};

TEST(ReservationSystem, PlanQueueStartsWithItsDefaultQueueAtFullCapacity) {
  Plan p;
  const CsQueue* def = p.cs().findQueue("root.dedicated.dedicated-default");
  ASSERT_NE(def, nullptr);
  EXPECT_FLOAT_EQ(def->cap("").capacity, 1.0f);
  EXPECT_FLOAT_EQ(def->cap("").absCapacity, 0.8f);
  EXPECT_FALSE(p.cs().findQueue("root.dedicated")->isLeaf());
  EXPECT_EQ(p.cs().planQueues(), std::vector<std::string>{"root.dedicated"});
  // An app sent to the plan queue without a reservation runs in the default queue.
  const AppChange* a = p.submit("dedicated", "");
  ASSERT_EQ(a->action, AppAction::kAccepted);
  EXPECT_EQ(p.cs().findApp(a->app)->queue(), "root.dedicated.dedicated-default");
}

TEST(ReservationSystem, FollowerCreatesTheReservationQueueAtItsShareAndRoutesItsApps) {
  Plan p;
  ReservationId id = p.reserve(1000, 11000, 16, 10000);
  // Before the follower runs the reservation has no queue: YARN refuses the app.
  const AppChange* early = p.submit("dedicated", id.toString());
  ASSERT_EQ(early->action, AppAction::kRejected);
  EXPECT_NE(early->reason.find("submitted to a reservation which is not currently active: " +
                               id.toString()),
            std::string::npos)
      << early->reason;

  p.clock.setMs(1000);
  ASSERT_EQ(p.driver->nextMonitorTick(), std::optional<TimeMs>(1000));
  auto out = p.driver->runDueMonitorTick();
  ASSERT_TRUE(out.isOk()) << out.status().message();
  EXPECT_TRUE(out->planFollowerRan);
  EXPECT_FALSE(out->monitorRan);      // the Capacity Scheduler's monitors are off
  ASSERT_EQ(out->queues.size(), 2u);  // the default queue resized, the reservation's created
  const CsQueue* rq = p.cs().findQueue("root.dedicated." + id.toString());
  ASSERT_NE(rq, nullptr);
  // 16 GB of the plan's 80 GB.
  EXPECT_FLOAT_EQ(rq->cap("").capacity, 0.2f);
  EXPECT_FLOAT_EQ(rq->cap("").absCapacity, 0.16f);
  EXPECT_FLOAT_EQ(p.cs().findQueue("root.dedicated.dedicated-default")->cap("").capacity, 0.8f);

  const AppChange* job = p.submit("dedicated", id.toString());
  ASSERT_EQ(job->action, AppAction::kAccepted) << job->reason;
  EXPECT_EQ(p.cs().findApp(job->app)->queue(), rq->path());
  // A reservation id sent to a queue that is not a plan is ignored, as YARN does.
  const AppChange* other = p.submit("a", id.toString());
  ASSERT_EQ(other->action, AppAction::kAccepted);
  EXPECT_EQ(p.cs().findApp(other->app)->queue(), "root.a");
  EXPECT_TRUE(p.driver->scheduler().checkInvariants().isOk());
}

TEST(ReservationSystem, ExpiredReservationMovesItsAppsToTheDefaultQueue) {
  Plan p;
  ReservationId id = p.reserve(1000, 5000, 8, 4000);
  p.clock.setMs(1000);
  ASSERT_TRUE(p.driver->monitorTick().isOk());
  const AppChange* job = p.submit("dedicated", id.toString());
  ASSERT_EQ(job->action, AppAction::kAccepted);
  const AppId app = job->app;
  ASSERT_TRUE(p.driver->handle(NodeHeartbeat{"h1", {}}).isOk());  // the AM runs
  p.clock.setMs(6000);
  auto out = p.driver->monitorTick();
  ASSERT_TRUE(out.isOk()) << out.status().message();
  ASSERT_EQ(out->apps.size(), 1u);
  EXPECT_EQ(out->apps[0].action, AppAction::kMoved);
  EXPECT_EQ(out->apps[0].reason, "root.dedicated.dedicated-default");
  EXPECT_EQ(p.cs().findQueue("root.dedicated." + id.toString()), nullptr);
  EXPECT_EQ(p.cs().findApp(app)->queue(), "root.dedicated.dedicated-default");
  EXPECT_EQ(p.cs().findQueue("root.dedicated.dedicated-default")->usage("").used,
            Resource::of(GB, 1));
  EXPECT_TRUE(p.driver->scheduler().checkInvariants().isOk());
}

TEST(ReservationSystem, ExpiredReservationKillsItsAppsWithoutMoveOnExpiry) {
  Plan p(/*moveOnExpiry=*/false);
  ReservationId id = p.reserve(1000, 5000, 8, 4000);
  p.clock.setMs(1000);
  ASSERT_TRUE(p.driver->monitorTick().isOk());
  const AppId app = p.submit("dedicated", id.toString())->app;
  p.clock.setMs(6000);
  auto out = p.driver->monitorTick();
  ASSERT_TRUE(out.isOk()) << out.status().message();
  ASSERT_EQ(out->apps.size(), 1u);
  EXPECT_EQ(out->apps[0].action, AppAction::kFinished);
  EXPECT_EQ(out->apps[0].finalState, AppState::KILLED);
  EXPECT_EQ(p.cs().findApp(app)->state(), AppState::KILLED);
  EXPECT_EQ(p.cs().findQueue("root.dedicated." + id.toString()), nullptr);
}

TEST(ReservationSystem, RefusedSubmissionLeavesThePlanUnchanged) {
  Plan p;
  p.reserve(1000, 11000, 16, 10000);
  ReservationDefinition tooBig;
  tooBig.arrival = 1000;
  tooBig.deadline = 11000;
  tooBig.stages.push_back(ReservationRequest::of(Resource::of(GB, 1), 81, 81, 5000));
  auto s = p.driver->reservationSystem()->submit(
      "dedicated", p.driver->reservationSystem()->newReservationId(), &tooBig, "bob");
  EXPECT_FALSE(s.isOk());
  const auto* plan = p.driver->reservationSystem()->plan("dedicated");
  EXPECT_EQ(plan->size(), 1u);
  EXPECT_EQ(plan->totalCommittedResources(2000), Resource::of(16 * GB, 16));
  auto notPlan = p.driver->reservationSystem()->submit(
      "a", p.driver->reservationSystem()->newReservationId(), &tooBig, "bob");
  EXPECT_NE(notPlan.message().find("is not managed by reservation system"), std::string::npos)
      << notPlan.message();
}

// Everything a refresh derives for the queues (configuration, tree order, capacities, limits,
// ordering keys, usage), one line per queue in preorder. Not the leaves' current limit: the
// allocation path sets it at each visit (LeafQueue.updateCurrentResourceLimits), a refresh
// resets it, and an in-place edit leaves it to the next visit, as YARN's setEntitlement does.
std::string queueState(const CapacityScheduler& cs) {
  std::string out;
  for (const std::string& path : cs.config().preorder) {
    const QueueConfig& qc = cs.config().queues.at(path);
    const PartitionConfig& pc = qc.partition("");
    out += fmt::format("config {} parent {} children {} cap {} max {} abs {} absMax {} rel {}\n",
                       path, qc.parent, fmt::join(qc.children, ","), pc.capacity.fraction,
                       pc.maximumCapacity.fraction, pc.absoluteCapacity, pc.absoluteMaximumCapacity,
                       pc.relativeCapacity);
  }
  for (const auto& [name, path] : cs.config().leafByName) out += name + " -> " + path + "\n";
  for (const CsQueue* q : cs.queues().leaves()) out += "leaf " + q->path() + "\n";
  for (const CsQueue* q : cs.queues().preorder()) {
    const ResolvedCapacity& c = q->cap("");
    const QueueUsage& u = q->usage("");
    out += fmt::format(
        "queue {} #{} cap {} max {} abs {} absMax {} min {} maxRes {} maxAlloc {} apps "
        "{}/{} maxApps {}/{} used {} pending {} am {} noMin {} simple {}\n",
        q->path(), q->indexInParent, c.capacity, c.maxCapacity, c.absCapacity, c.absMaxCapacity,
        c.effectiveMin.toString(), c.effectiveMax.toString(), q->maximumAllocation.toString(),
        q->numApplications, q->numRunnable, q->maxApplications, q->maxApplicationsPerUser,
        u.used.toString(), u.pending.toString(), u.amUsed.toString(), q->noMinDivisor,
        q->simpleChildOrder);
    for (const CsQueue::ChildKey& k : q->childKeys) {
      out += fmt::format("  key {} abs {} used {} absUsed {} pending {} leaf {}\n", k.queue->name(),
                         k.absCapacity, k.usedCapacity, k.absUsedCapacity, k.pending, k.leaf);
    }
    for (const auto& [p, ratio] : q->usageRatioSum) out += fmt::format("  ratio {}\n", ratio);
  }
  return out;
}

// Staggered reservations (some gangs) with running apps: every follower run creates, resizes
// and removes reservation queues in place; the scheduler must hold its invariants after each
// run and be exactly what a refresh (which rebuilds the tree from planChildren_) makes of it.
TEST(ReservationSystem, FollowerEditsQueuesInPlaceAsARefreshBuildsThem) {
  Plan p;
  std::vector<ReservationId> ids;
  for (int64_t i = 0; i < 12; ++i) {
    ReservationDefinition def;
    def.arrival = 1000 * (i + 1);
    def.deadline = def.arrival + 4000 + 1000 * (i % 3);
    def.interpreter = Interpreter::kAll;
    const int64_t n = 2 * (i % 4 + 1);
    def.stages.push_back(ReservationRequest::of(Resource::of(GB, 1), n, i % 2 == 0 ? n : 1, 3000));
    ids.push_back(p.driver->reservationSystem()->newReservationId());
    auto s = p.driver->reservationSystem()->submit("dedicated", ids.back(), &def, "alice");
    ASSERT_TRUE(s.isOk()) << s.toString();
  }
  for (int64_t t = 1000; t <= 20000; t += 1000) {
    p.clock.setMs(t);
    auto out = p.driver->monitorTick();
    ASSERT_TRUE(out.isOk()) << out.status().message();
    ASSERT_TRUE(p.driver->scheduler().checkInvariants().isOk())
        << p.driver->scheduler().checkInvariants().message() << " at " << t;
    // An app in the reservation that became current, with work to place.
    const size_t arrived = static_cast<size_t>(t / 1000 - 1);
    if (arrived < ids.size() && arrived % 3 != 2) {
      const AppChange* job = p.submit("dedicated", ids[arrived].toString());
      ASSERT_EQ(job->action, AppAction::kAccepted) << job->reason;
    }
    ASSERT_TRUE(p.driver->handle(NodeHeartbeat{"h1", {}}).isOk());
    const std::string inPlace = queueState(p.cs());
    auto refreshed = p.driver->refreshConfiguration(Configuration());
    ASSERT_TRUE(refreshed.isOk()) << refreshed.status().message();
    EXPECT_EQ(inPlace, queueState(p.cs())) << "at " << t;
    ASSERT_TRUE(p.driver->scheduler().checkInvariants().isOk());
  }
  EXPECT_EQ(p.cs().findQueue("root.dedicated")->children().size(), 1u);  // the default queue
}

// A Fair plan: root.a and root.default weight 1, root.dedicated weight 8 with <reservation>
// (a steady fair share of 80 % of the one 100 GB / 100 vcore node), DRF everywhere.
struct FairPlan {
  FairPlan() {
    Configuration c;
    c.set("yarn.resourcemanager.scheduler.class", "fair");
    c.set("spindle.fair.allocation-xml",
          "<allocations><defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy>"
          "<queue name=\"a\"><weight>1</weight></queue>"
          "<queue name=\"default\"><weight>1</weight></queue>"
          "<queue name=\"dedicated\"><weight>8</weight><reservation></reservation></queue>"
          "</allocations>");
    c.set("yarn.resourcemanager.reservation-system.enable", "true");
    c.set("yarn.scheduler.minimum-allocation-mb", "1024");
    auto d = Driver::create(c, clock, rng);
    EXPECT_TRUE(d.isOk()) << d.status().message();
    driver = std::move(d).value();
    EXPECT_TRUE(driver->handle(NodeAdded{"h1", "/r1", Resource::of(100 * GB, 100), {}, {}}).isOk());
    driver->settle();
  }
  const FairScheduler& fs() const { return static_cast<const FairScheduler&>(driver->scheduler()); }
  SimulatedClock clock{0};
  Rng rng{1};
  std::unique_ptr<Driver> driver;
};

TEST(ReservationSystem, FairPlanQueueWeighsReservationQueuesByTheirShareAndMovesOnExpiry) {
  FairPlan p;
  EXPECT_EQ(p.fs().planQueues(), std::vector<std::string>{"root.dedicated"});
  const auto st = p.fs().planQueueState("dedicated");
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->planResources, Resource::of(80 * GB, 80));  // the steady fair share
  ReservationDefinition def;
  def.arrival = 1000;
  def.deadline = 61000;
  def.interpreter = Interpreter::kAll;
  def.stages.push_back(ReservationRequest::of(Resource::of(GB, 1), 20, 1, 60000));
  const ReservationId id = p.driver->reservationSystem()->newReservationId();
  auto s = p.driver->reservationSystem()->submit("dedicated", id, &def, "alice");
  ASSERT_TRUE(s.isOk()) << s.toString();

  p.clock.setMs(1000);
  ASSERT_TRUE(p.driver->monitorTick().isOk());
  ASSERT_TRUE(p.driver->scheduler().checkInvariants().isOk())
      << p.driver->scheduler().checkInvariants().message();
  const fair::FsQueue* rq = p.fs().queues().find("root.dedicated." + id.toString());
  ASSERT_NE(rq, nullptr);
  EXPECT_FLOAT_EQ(rq->weight(), 0.25f);  // 20 GB of the plan's 80 GB
  const fair::FsQueue* dq = p.fs().queues().find("root.dedicated.dedicated-default");
  ASSERT_NE(dq, nullptr);
  EXPECT_FLOAT_EQ(dq->weight(), 0.75f);

  AppSubmission job;
  job.name = "job";
  job.queue = "dedicated";
  job.user = "alice";
  job.amResource = Resource::of(GB, 1);
  job.reservationId = id.toString();
  auto in = p.driver->submit(job);
  ASSERT_TRUE(in.isOk());
  ASSERT_EQ(in->admission()->action, AppAction::kAccepted) << in->admission()->reason;
  const AppId app = in->admission()->app;
  EXPECT_EQ(p.fs().findApp(app)->queue(), rq->path());
  AppSubmission other;
  other.name = "besteffort";
  other.queue = "dedicated";
  other.user = "carol";
  other.amResource = Resource::of(GB, 1);
  auto be = p.driver->submit(other);
  ASSERT_TRUE(be.isOk());
  EXPECT_EQ(p.fs().findApp(be->admission()->app)->queue(), "root.dedicated.dedicated-default");
  ASSERT_TRUE(p.driver->handle(NodeHeartbeat{"h1", {}}).isOk());
  ASSERT_TRUE(p.driver->scheduler().checkInvariants().isOk());

  p.clock.setMs(61000);
  auto out = p.driver->monitorTick();
  ASSERT_TRUE(out.isOk()) << out.status().message();
  ASSERT_EQ(out->apps.size(), 1u);
  EXPECT_EQ(out->apps[0].action, AppAction::kMoved);
  EXPECT_EQ(p.fs().queues().find("root.dedicated." + id.toString()), nullptr);
  EXPECT_EQ(p.fs().findApp(app)->queue(), "root.dedicated.dedicated-default");
  EXPECT_FLOAT_EQ(p.fs().queues().find("root.dedicated.dedicated-default")->weight(), 1.0f);
  EXPECT_TRUE(p.driver->scheduler().checkInvariants().isOk())
      << p.driver->scheduler().checkInvariants().message();
}

TEST(ReservationSystem, DisabledSystemLeavesTheDriverWithoutFollower) {
  testing::CsConf c;
  c.queues("root", "a").cap("root.a", "100");
  SimulatedClock clock{0};
  Rng rng{1};
  auto d = Driver::create(c.conf(), clock, rng).value();
  EXPECT_EQ(d->reservationSystem(), nullptr);
  EXPECT_EQ(d->nextMonitorTick(), std::nullopt);
}

}  // namespace
}  // namespace spindle

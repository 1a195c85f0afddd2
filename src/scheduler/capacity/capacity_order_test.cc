// Capacity Scheduler: the ordering caches the allocation path keeps between events (each
// parent's childKeys and simpleChildOrder, each leaf's schedulable set of app ordering keys and
// its head; capacity_invariants.cc) against a fresh computation, under random events on random
// queue trees. After every step:
//  1. checkInvariants() passes (it recomputes every cache and compares);
//  2. a plain reference, written here from YARN's rules and reading only the queues'
//     capacities, usage and configuration, gives the same child order as the cached keys
//     (PriorityUtilizationQueueOrderingPolicy, offered as the allocation path offers: a stable
//     selection) and the same app order as each leaf's schedulable set (FifoOrderingPolicy:
//     priority, then id; FairOrderingPolicy: used memory, optionally over log2(1 + demand), then
//     id).
// Seeded and bounded: a few hundred steps on each of a few trees.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/rng.h"
#include "scheduler/capacity/capacity_scheduler.h"

namespace spindle {
namespace {

constexpr int64_t GB = 1024;
const std::string kPre = "yarn.scheduler.capacity.";

// A random queue tree: its shape is fixed by the seed; capacities, maximums, priorities and
// policies are drawn again by each call of write(), so a refresh keeps the queues and changes
// their ordering inputs.
class RandomTree {
 public:
  RandomTree(uint64_t seed, bool absolute) : rng_(seed), absolute_(absolute) {
    addChildren("root", 0);
  }

  const std::vector<std::string>& leaves() const { return leaves_; }

  void write(Configuration& conf, Rng& rng) const {
    for (const auto& [parent, children] : children_) {
      std::string list;
      for (const std::string& c : children) {
        if (!list.empty()) list += ',';
        list += lastName(c);
      }
      conf.set(kPre + parent + ".queues", list);
      // A parent at 0 % may still split its (zero) share among its children.
      conf.set(kPre + parent + ".allow-zero-capacity-sum", "true");
      const bool priorities = rng.uniformInt(0, 2) == 0;
      conf.set(kPre + parent + ".ordering-policy",
               priorities ? "priority-utilization" : "utilization");
      writeCapacities(conf, rng, parent, children);
      for (const std::string& c : children) {
        conf.set(kPre + c + ".priority", std::to_string(priorities ? rng.uniformInt(0, 3) : 0));
      }
    }
    for (const std::string& leaf : leaves_) {
      const bool fair = rng.uniformInt(0, 2) == 0;
      conf.set(kPre + leaf + ".ordering-policy", fair ? "fair" : "fifo");
      conf.set(kPre + leaf + ".ordering-policy.fair.enable-size-based-weight",
               rng.uniformInt(0, 1) ? "true" : "false");
      conf.set(kPre + leaf + ".user-limit-factor", rng.uniformInt(0, 1) ? "-1" : "2");
    }
  }

 private:
  static std::string lastName(const std::string& path) { return path.substr(path.rfind('.') + 1); }

  void addChildren(const std::string& parent, int depth) {
    const int n = static_cast<int>(rng_.uniformInt(depth == 0 ? 2 : 1, 4));
    for (int i = 0; i < n; ++i) {
      const std::string child = fmt::format("{}.q{}", parent, next_++);
      children_[parent].push_back(child);
      if (depth < 2 && rng_.uniformInt(0, 2) == 0) {
        addChildren(child, depth + 1);
      } else {
        leaves_.push_back(child);
      }
    }
  }

  // Percent (some children at 0 %), weights, or absolute resources (the whole tree).
  void writeCapacities(Configuration& conf, Rng& rng, const std::string& parent,
                       const std::vector<std::string>& children) const {
    const size_t n = children.size();
    if (absolute_) {
      // Each queue gets at least 1 GB per leaf below it (absolute capacities must give memory);
      // root's children share that minimum plus 64 GB, deeper ones their parent's share.
      const int64_t total = parent == "root" ? need("root") + 64 : absoluteGb_.at(parent);
      int64_t spare = total;
      for (const std::string& c : children) spare -= need(c);
      for (size_t i = 0; i < n; ++i) {
        const int64_t extra = i + 1 == n ? spare : rng.uniformInt(0, spare);
        spare -= extra;
        const int64_t gb = need(children[i]) + extra;
        absoluteGb_[children[i]] = gb;
        conf.set(kPre + children[i] + ".capacity",
                 fmt::format("[memory={},vcores={}]", gb * GB, gb));
      }
      return;
    }
    if (rng.uniformInt(0, 3) == 0) {
      for (const std::string& c : children) {
        conf.set(kPre + c + ".capacity", fmt::format("{}w", rng.uniformInt(1, 4)));
        conf.set(kPre + c + ".maximum-capacity", "100");
      }
      return;
    }
    std::vector<int64_t> parts(n);
    int64_t sum = 0;
    for (int64_t& p : parts) sum += (p = rng.uniformInt(0, 4));
    if (sum == 0) sum = parts[0] = 1;
    std::vector<int64_t> percent(n);
    int64_t given = 0;
    for (size_t i = 0; i < n; ++i) given += (percent[i] = parts[i] * 100 / sum);
    for (size_t i = 0; i < n; ++i) {
      if (parts[i] > 0) {
        percent[i] += 100 - given;
        break;
      }
    }
    for (size_t i = 0; i < n; ++i) {
      conf.set(kPre + children[i] + ".capacity", std::to_string(percent[i]));
      conf.set(kPre + children[i] + ".maximum-capacity",
               std::to_string(std::max<int64_t>(percent[i], rng.uniformInt(50, 100))));
    }
  }

  // The least absolute share (GB) a queue can hold: 1 GB per leaf below it.
  int64_t need(const std::string& q) const {
    auto it = children_.find(q);
    if (it == children_.end()) return 1;
    int64_t sum = 0;
    for (const std::string& c : it->second) sum += need(c);
    return sum;
  }

  Rng rng_;
  bool absolute_;
  int next_ = 0;
  std::map<std::string, std::vector<std::string>> children_;
  std::vector<std::string> leaves_;
  mutable std::map<std::string, int64_t> absoluteGb_;
};

// --- The reference ---------------------------------------------------------------------------

struct RefKey {
  std::string name;
  double absCapacity;
  double used;     // usedCapacity (of the guarantee) as a float
  double absUsed;  // absoluteUsedCapacity as a float
  int priority;
  Resource configuredMin;  // zero when not absolute
};

// PriorityUtilizationQueueOrderingPolicy.PriorityQueueComparator for the default partition.
int refCompare(const RefKey& a, const RefKey& b, bool respectPriority) {
  auto sign = [](double x, double y) { return x < y ? -1 : (x > y ? 1 : 0); };
  if (a.absCapacity > 0 && b.absCapacity == 0) return -1;
  if (b.absCapacity > 0 && a.absCapacity == 0) return 1;
  const bool bothZero = a.absCapacity == 0 && b.absCapacity == 0;
  const double u1 = bothZero ? a.absUsed : a.used;
  const double u2 = bothZero ? b.absUsed : b.used;
  if (respectPriority && a.priority != b.priority) {
    // Both under or both at/over their guarantee: the higher priority first.
    if ((u1 < 1.0 && u2 < 1.0) || (u1 >= 1.0 && u2 >= 1.0)) return a.priority > b.priority ? -1 : 1;
  }
  if (int c = sign(u1, u2); c != 0) return c;
  if (!a.configuredMin.isZero() || !b.configuredMin.isZero()) {
    // The larger configured minimum first, Resource.compareTo type by type.
    for (int i = 0; i < kMaxResourceTypes; ++i) {
      if (a.configuredMin.get(i) != b.configuredMin.get(i)) {
        return a.configuredMin.get(i) > b.configuredMin.get(i) ? -1 : 1;
      }
    }
    return 0;
  }
  return sign(b.absCapacity, a.absCapacity);
}

template <typename Less>
std::vector<std::string> selection(size_t n, const std::vector<std::string>& names, Less&& less) {
  std::vector<bool> taken(n, false);
  std::vector<std::string> out;
  for (size_t round = 0; round < n; ++round) {
    size_t best = n;
    for (size_t j = 0; j < n; ++j) {
      if (!taken[j] && (best == n || less(j, best))) best = j;
    }
    taken[best] = true;
    out.push_back(names[best]);
  }
  return out;
}

// Compares every parent's and leaf's order with the reference; the first difference is reported.
void expectOrdersMatchReference(const CapacityScheduler& cs, int step) {
  const ResourceCalculator& rc = cs.calculator();
  const Resource R = cs.partitionResource("");
  for (const CsQueue* q : cs.queues().preorder()) {
    const size_t n = q->children().size();
    if (n >= 2) {
      std::vector<RefKey> ref;
      std::vector<std::string> names;
      for (const CsQueue* c : q->children()) {
        RefKey k;
        k.name = c->name();
        const ResolvedCapacity& cap = c->cap("");
        const Resource& used = c->usage("").used;
        k.absCapacity = static_cast<float>(cap.absCapacity);
        k.used = rc.isInvalidDivisor(cap.effectiveMin) || cap.effectiveMin.isZero()
                     ? 0.0
                     : static_cast<float>(rc.divide(R, used, cap.effectiveMin));
        k.absUsed = rc.isInvalidDivisor(R) ? 0.0 : static_cast<float>(rc.divide(R, used, R));
        k.priority = c->config().priority;
        const PartitionConfig& pc = c->config().partitions.at("");
        if (pc.capacity.mode == CapacityMode::kAbsolute) k.configuredMin = pc.capacity.absolute;
        ref.push_back(k);
        names.push_back(k.name);
      }
      const bool prio = q->priorityUtilization;
      const auto expected = selection(
          n, names, [&](size_t a, size_t b) { return refCompare(ref[a], ref[b], prio) < 0; });
      // The allocation path's order: its shortcut when simpleChildOrder, else compareQueues on
      // the cached keys.
      const auto& keys = q->childKeys;
      const auto walked = selection(n, names, [&](size_t a, size_t b) {
        if (q->simpleChildOrder) {
          if (keys[a].usedCapacity != keys[b].usedCapacity) {
            return keys[a].usedCapacity < keys[b].usedCapacity;
          }
          return keys[a].absCapacity > keys[b].absCapacity;
        }
        return compareQueues(keys[a], keys[b], "", prio) < 0;
      });
      ASSERT_EQ(walked, expected) << "child order of " << q->path() << " after step " << step;
    }
    if (!q->isLeaf()) continue;
    // The leaf's app order: active apps with pending asks.
    std::vector<std::pair<std::pair<double, int64_t>, AppId>> apps;
    for (const auto& [id, app] : cs.apps()) {
      const CsApp* s = cs.csApp(id);
      if (s->leaf != q || s->phase != CsAppPhase::kActive || !app->asks().hasPending()) continue;
      double primary = -static_cast<double>(s->priority);
      if (q->fairPolicy) {
        primary = static_cast<double>(app->used().memoryMb());
        if (q->config().fairSizeBasedWeight) {
          const double demand =
              static_cast<double>(app->used().memoryMb() + app->asks().pending().memoryMb());
          const double weight = std::log1p(demand) / std::log(2.0);
          if (weight > 0) primary /= weight;
        }
      }
      apps.push_back({{primary, static_cast<int64_t>(id.value())}, id});
    }
    std::sort(apps.begin(), apps.end());
    std::vector<AppId> expected, kept;
    for (const auto& a : apps) expected.push_back(a.second);
    for (const AppOrderKey& k : q->schedulable) kept.push_back(k.app);
    ASSERT_EQ(kept, expected) << "app order of " << q->path() << " after step " << step;
    ASSERT_EQ(q->head == nullptr ? AppId() : q->head->app->id(),
              expected.empty() ? AppId() : expected.front())
        << "head of " << q->path() << " after step " << step;
  }
}

// --- Random events ---------------------------------------------------------------------------

struct Run {
  uint64_t seed;
  bool absolute;
  bool async;
};

Configuration baseConf(const RandomTree& tree, Rng& rng, bool async) {
  Configuration conf;
  conf.set("yarn.scheduler.minimum-allocation-mb", "1024");
  conf.set("yarn.scheduler.maximum-allocation-mb", "8192");
  conf.set("yarn.scheduler.capacity.resource-calculator",
           rng.uniformInt(0, 1) ? "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator"
                                : "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator");
  conf.set(kPre + "maximum-am-resource-percent", "0.5");
  conf.set(kPre + "schedule-asynchronously.enable", async ? "true" : "false");
  conf.set(kPre + "per-node-heartbeat.multiple-assignments-enabled",
           rng.uniformInt(0, 1) ? "true" : "false");
  tree.write(conf, rng);
  return conf;
}

void runRandomEvents(const Run& run) {
  RandomTree tree(run.seed, run.absolute);
  Rng rng(run.seed * 7919 + 1);
  Configuration conf = baseConf(tree, rng, run.async);
  SimulatedClock clock;
  Rng schedRng(run.seed);
  auto created = CapacityScheduler::create(conf, clock, schedRng);
  ASSERT_TRUE(created.isOk()) << created.status().message();
  CapacityScheduler& cs = **created;
  std::vector<std::string> nodes;
  std::vector<AppId> apps;
  int nextNode = 0;
  auto pick = [&](const auto& v) {
    return v[static_cast<size_t>(rng.uniformInt(0, v.size() - 1))];
  };
  auto addNode = [&] {
    nodes.push_back(fmt::format("h{}", nextNode));
    const std::string rack = fmt::format("/r{}", nextNode++ % 3);
    const int64_t gb = 4 * rng.uniformInt(1, 4);
    ASSERT_TRUE(cs.handle(NodeAdded{nodes.back(), rack, Resource::of(gb * GB, gb), {}, {}}).isOk());
  };
  for (int i = 0; i < 4; ++i) addNode();
  int allocations = 0, refreshes = 0;
  for (int step = 0; step < 400; ++step) {
    clock.advanceMs(100);
    const int64_t what = rng.uniformInt(0, 99);
    if (what < 30 && !nodes.empty()) {
      ASSERT_TRUE(cs.handle(NodeHeartbeat{pick(nodes), {}}).isOk());
    } else if (what < 42) {
      AppSubmission sub;
      sub.queue = pick(tree.leaves());
      sub.user = fmt::format("u{}", rng.uniformInt(0, 2));
      sub.priority = static_cast<int32_t>(rng.uniformInt(0, 3));
      sub.amResource = rng.uniformInt(0, 2) ? Resource::of(GB, 1) : Resource();
      auto id = cs.submit(sub);
      if (id.isOk()) apps.push_back(*id);
    } else if (what < 60 && !apps.empty()) {
      const AppId a = pick(apps);
      const int32_t prio = static_cast<int32_t>(rng.uniformInt(1, 3));
      const Resource size = Resource::of(GB * rng.uniformInt(1, 3), rng.uniformInt(1, 2));
      const int32_t count = static_cast<int32_t>(rng.uniformInt(0, 5));
      std::vector<ResourceRequest> asks = {{{prio, 0}, "*", size, count, true, ""}};
      if (!nodes.empty() && rng.uniformInt(0, 1)) {
        asks.push_back({{prio, 0}, pick(nodes), size, count, true, ""});
        asks.push_back(
            {{prio, 0}, fmt::format("/r{}", rng.uniformInt(0, 2)), size, count, true, ""});
      }
      ASSERT_TRUE(cs.handle(AppAllocate{a, asks, {}, {}, {}}).isOk());
    } else if (what < 70 && !apps.empty()) {
      const AppId a = pick(apps);
      const auto& live = cs.findApp(a)->liveContainers();
      if (!live.empty()) {
        std::vector<ContainerId> ids(live.begin(), live.end());
        const ContainerId c = pick(ids);
        if (rng.uniformInt(0, 1)) {
          ASSERT_TRUE(cs.handle(ContainerFinished{c, 0}).isOk());
        } else {
          ASSERT_TRUE(cs.handle(AppAllocate{a, {}, {c}, {}, {}}).isOk());
        }
      }
    } else if (what < 76 && !apps.empty()) {
      const AppId a = pick(apps);
      apps.erase(std::find(apps.begin(), apps.end(), a));
      ASSERT_TRUE(cs.handle(AppRemoved{a, AppState::FINISHED}).isOk());
    } else if (what < 82) {
      addNode();
    } else if (what < 85 && nodes.size() > 1) {
      const std::string n = pick(nodes);
      nodes.erase(std::find(nodes.begin(), nodes.end(), n));
      ASSERT_TRUE(cs.handle(NodeRemoved{n}).isOk());
    } else if (what < 89 && !nodes.empty()) {
      const int64_t gb = 4 * rng.uniformInt(1, 4);
      ASSERT_TRUE(cs.handle(NodeResourceUpdate{pick(nodes), Resource::of(gb * GB, gb)}).isOk());
    } else if (what < 95) {
      ASSERT_TRUE(cs.handle(MonitorTick{}).isOk());
    } else {
      // New capacities, maximums, priorities and policies for the same queues.
      Configuration next = baseConf(tree, rng, run.async);
      refreshes += cs.refreshConfiguration(next).isOk() ? 1 : 0;
    }
    Status inv = cs.checkInvariants();
    ASSERT_TRUE(inv.isOk()) << "seed " << run.seed << " step " << step << " (event " << what
                            << "): " << inv.message();
    expectOrdersMatchReference(cs, step);
    if (::testing::Test::HasFatalFailure()) return;
  }
  for (const auto& [id, app] : cs.apps()) allocations += app->accounting().containersAllocated;
  EXPECT_GT(allocations, 20) << "seed " << run.seed;
  EXPECT_GT(refreshes, 0) << "seed " << run.seed;
}

TEST(CapacityOrder, HeartbeatModeMatchesFreshComputation) {
  for (uint64_t seed : {1, 2, 3, 4, 5, 6}) {
    SCOPED_TRACE(seed);
    runRandomEvents({seed, false, false});
    if (HasFatalFailure()) return;
  }
}

TEST(CapacityOrder, AbsoluteCapacitiesMatchFreshComputation) {
  for (uint64_t seed : {11, 12, 13}) {
    SCOPED_TRACE(seed);
    runRandomEvents({seed, true, false});
    if (HasFatalFailure()) return;
  }
}

TEST(CapacityOrder, AsyncModeMatchesFreshComputation) {
  for (uint64_t seed : {21, 22, 23}) {
    SCOPED_TRACE(seed);
    runRandomEvents({seed, false, true});
    if (HasFatalFailure()) return;
  }
}

// --- The checker fails when a cache is wrong -------------------------------------------------

// A scheduler with two leaves under root and one app with pending asks in each.
class Corrupted : public ::testing::Test {
 protected:
  void SetUp() override {
    Configuration conf;
    conf.set("yarn.scheduler.minimum-allocation-mb", "1024");
    conf.set(kPre + "root.queues", "a,b");
    conf.set(kPre + "root.a.capacity", "40");
    conf.set(kPre + "root.b.capacity", "60");
    conf.set(kPre + "root.a.ordering-policy", "fair");
    auto created = CapacityScheduler::create(conf, clock_, rng_);
    ASSERT_TRUE(created.isOk()) << created.status().message();
    cs_ = std::move(created.value());
    ASSERT_TRUE(cs_->handle(NodeAdded{"h1", "/r1", Resource::of(8 * GB, 8), {}, {}}).isOk());
    for (const char* q : {"a", "a", "b"}) {
      AppSubmission sub;
      sub.queue = q;
      const AppId id = cs_->submit(sub).value();
      ASSERT_TRUE(
          cs_->handle(
                 AppAllocate{id, {{{1, 0}, "*", Resource::of(GB, 1), 4, true, ""}}, {}, {}, {}})
              .isOk());
    }
    ASSERT_TRUE(cs_->handle(NodeHeartbeat{"h1", {}}).isOk());
    ASSERT_TRUE(cs_->checkInvariants().isOk()) << cs_->checkInvariants().message();
  }
  // The queue as the scheduler keeps it (the tree hands out mutable queues).
  CsQueue& queue(const std::string& path) { return *cs_->queues().find(path); }
  void expectCaught(const std::string& what) {
    Status s = cs_->checkInvariants();
    EXPECT_FALSE(s.isOk());
    EXPECT_NE(s.message().find(what), std::string::npos) << s.message();
  }

  SimulatedClock clock_;
  Rng rng_{3};
  std::unique_ptr<CapacityScheduler> cs_;
};

TEST_F(Corrupted, ChildKeyUsedCapacity) {
  CsQueue::ChildKey& k = queue("root").childKeys[0];
  const float kept = k.usedCapacity;
  k.usedCapacity = kept + 0.25f;
  expectCaught("cached ordering key in root out of step");
  k.usedCapacity = kept;
  EXPECT_TRUE(cs_->checkInvariants().isOk());
}

TEST_F(Corrupted, ChildKeyPriorityAndConfiguredMin) {
  CsQueue::ChildKey& k = queue("root").childKeys[1];
  k.priority = 5;
  expectCaught("root.b: cached ordering key");
  k.priority = 0;
  static const Resource kMin = Resource::of(GB, 1);
  k.configuredMin = &kMin;
  expectCaught("configuredMin");
}

TEST_F(Corrupted, SimpleChildOrder) {
  queue("root").simpleChildOrder = !queue("root").simpleChildOrder;
  expectCaught("root: cached simpleChildOrder");
}

TEST_F(Corrupted, LeafHead) {
  CsQueue& a = queue("root.a");
  ASSERT_EQ(a.schedulable.size(), 2u);
  a.head = cs_->csApp(std::next(a.schedulable.begin())->app);
  expectCaught("leaf root.a: cached first schedulable app");
}

TEST_F(Corrupted, AppOrderingKey) {
  CsQueue& a = queue("root.a");
  // The fair policy's key is the used memory. A missed reorder leaves the app's kept key and
  // its set entry at the old value, consistent with each other but not with the usage.
  AppOrderKey stale = *a.schedulable.begin();
  auto& app = const_cast<CsApp&>(*cs_->csApp(stale.app));  // the scheduler's own record
  a.schedulable.erase(a.schedulable.begin());
  stale.primary += 4096;
  app.orderKey = stale;
  a.schedulable.insert(stale);
  expectCaught("leaf root.a: app application_");
  expectCaught("ordering key out of step");
}

TEST_F(Corrupted, StaleSchedulableEntry) {
  CsQueue& a = queue("root.a");
  AppOrderKey extra = *a.schedulable.begin();
  extra.primary += 1;
  a.schedulable.insert(extra);
  expectCaught("schedulable set holds a stale entry");
}

}  // namespace
}  // namespace spindle

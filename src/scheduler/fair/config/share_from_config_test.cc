// Steady and instantaneous fair shares computed from a parsed allocation file with the policies
// of fair/policy/, as the scheduler will do it (top-down: each parent splits its share among its
// children with its own policy). Vectors FS-10, FS-13, FS-14, FSS-1, FSS-2, FSS-3, FSS-6.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "scheduler/fair/config/allocation_config.h"
#include "scheduler/fair/policy/scheduling_policy.h"

namespace spindle::fair {
namespace {

// Shares of every queue: root gets the cluster; `active` lists the leaves with runnable apps
// (their ancestors are active too). Queues whose policy YARN would refuse are skipped.
std::map<std::string, Resource> shares(const AllocationConfig& cfg, const Resource& cluster,
                                       ShareMode mode, const std::set<std::string>& active = {}) {
  auto isActive = [&](const std::string& path) {
    for (const std::string& leaf : active) {
      if (leaf == path || leaf.starts_with(path + ".")) return true;
    }
    return false;
  };
  std::map<std::string, Resource> out{{"root", cluster}};
  for (const std::string& path : cfg.preorder) {
    const FairQueueConfig& parent = cfg.queue(path);
    if (parent.isLeaf() || !parent.policyAllowed) continue;
    std::vector<Schedulable> children;
    for (const std::string& child : parent.children) {
      const FairQueueConfig& q = cfg.queue(child);
      Schedulable s = Schedulable::queue(child);
      s.weight = q.weight;
      s.minShare = q.minShare(cluster, 2);
      s.maxShare = q.maxShare(cluster, 2);
      s.isActive = isActive(child);
      children.push_back(s);
    }
    std::vector<Resource> result(children.size());
    SchedulingPolicy(parent.policy, cluster, 2).computeShares(children, out[path], mode, result);
    for (size_t i = 0; i < children.size(); ++i) out[children[i].name] = result[i];
  }
  return out;
}

AllocationConfig parse(const std::string& xml) {
  auto r = parseAllocationText(xml, "fs.xml", ResourceTypes(), FairSiteConfig());
  EXPECT_TRUE(r.isOk()) << r.status().message();
  return r.isOk() ? r.value() : emptyAllocation(FairSiteConfig());
}

const char* kHierarchy = R"(<allocations>
  <defaultQueueSchedulingPolicy>%POLICY%</defaultQueueSchedulingPolicy>
  <queue name="parentA"><weight>8</weight>
    <queue name="childA1"/><queue name="childA2"/><queue name="childA3"/><queue name="childA4"/>
  </queue>
  <queue name="parentB"><weight>1</weight>
    <queue name="childB1"/><queue name="childB2"/>
  </queue>
</allocations>)";

AllocationConfig hierarchy(const std::string& policy) {
  std::string xml = kHierarchy;
  xml.replace(xml.find("%POLICY%"), 8, policy);
  return parse(xml);
}

TEST(ShareFromConfigTest, FS10_SimpleHierarchicalFairShare) {
  AllocationConfig cfg = parse(R"(<allocations><queue name="parent">
    <queue name="queue2"/><queue name="queue3"/></queue></allocations>)");
  const std::set<std::string> active{"root.parent.queue2", "root.parent.queue3", "root.default"};
  auto inst = shares(cfg, Resource::of(240, 0), ShareMode::kInstantaneous, active);
  EXPECT_EQ(inst["root.default"].memoryMb(), 120);
  EXPECT_EQ(inst["root.parent.queue2"].memoryMb(), 60);
  EXPECT_EQ(inst["root.parent.queue3"].memoryMb(), 60);
  auto steady = shares(cfg, Resource::of(240, 0), ShareMode::kSteady);
  EXPECT_EQ(steady["root.parent.queue2"].memoryMb(), 60);
}

TEST(ShareFromConfigTest, FSS1_NoAppsRunning) {
  AllocationConfig cfg = hierarchy("fair");
  auto inst = shares(cfg, Resource::of(16384, 0), ShareMode::kInstantaneous);
  auto steady = shares(cfg, Resource::of(16384, 0), ShareMode::kSteady);
  for (const char* q : {"root.parentA.childA1", "root.parentA.childA4"}) {
    EXPECT_EQ(inst[q].memoryMb(), 0);
    EXPECT_NEAR(steady[q].memoryMb() / 16384.0, 0.2, 0.001) << q;
  }
  EXPECT_NEAR(steady["root.parentB.childB1"].memoryMb() / 16384.0, 0.05, 0.001);
}

TEST(ShareFromConfigTest, FSS2_FSS3_OnlyActiveQueuesShare) {
  AllocationConfig cfg = hierarchy("fair");
  auto one =
      shares(cfg, Resource::of(16384, 0), ShareMode::kInstantaneous, {"root.parentA.childA1"});
  EXPECT_NEAR(one["root.parentA.childA1"].memoryMb() / 16384.0 * 100, 100, 0.1);
  EXPECT_EQ(one["root.parentA.childA2"].memoryMb(), 0);
  auto three = shares(cfg, Resource::of(16384, 0), ShareMode::kInstantaneous,
                      {"root.parentA.childA1", "root.parentA.childA2", "root.parentA.childA3"});
  for (const char* q : {"root.parentA.childA1", "root.parentA.childA2", "root.parentA.childA3"}) {
    EXPECT_NEAR(three[q].memoryMb() / 16384.0 * 100, 33, 0.9) << q;
  }
}

TEST(ShareFromConfigTest, FSS6_DrfDifferentParents) {
  AllocationConfig cfg = hierarchy("drf");
  const Resource cluster = Resource::of(16384, 10);
  auto inst = shares(
      cfg, cluster, ShareMode::kInstantaneous,
      {"root.parentA.childA1", "root.parentA.childA2", "root.parentB.childB1", "root.default"});
  EXPECT_NEAR(inst["root.parentA.childA1"].memoryMb() / 16384.0 * 100, 40, 0.9);
  EXPECT_NEAR(inst["root.parentA.childA1"].vcores() / 10.0 * 100, 40, 0.9);
  EXPECT_NEAR(inst["root.parentA.childA2"].memoryMb() / 16384.0 * 100, 40, 0.9);
  EXPECT_NEAR(inst["root.parentB.childB1"].memoryMb() / 16384.0 * 100, 10, 0.9);
  EXPECT_NEAR(inst["root.parentB.childB1"].vcores() / 10.0 * 100, 10, 0.9);
  auto steady = shares(cfg, cluster, ShareMode::kSteady);
  EXPECT_NEAR(steady["root.parentA.childA1"].memoryMb() / 16384.0, 0.2, 0.001);
  EXPECT_NEAR(steady["root.parentA.childA1"].vcores() / 10.0, 0.2, 0.001);
  EXPECT_NEAR(steady["root.parentB.childB1"].memoryMb() / 16384.0, 0.05, 0.001);
  EXPECT_EQ(steady["root.parentB.childB1"].vcores(), 1);  // 0.1, the rounding quirk
}

TEST(ShareFromConfigTest, FS14_SteadySharesAfterNodeAddAndReload) {
  const char* before = R"(<allocations>
    <defaultQueueSchedulingPolicy>fair</defaultQueueSchedulingPolicy>
    <queue name="root"><schedulingPolicy>drf</schedulingPolicy>
      <queue name="child1"><weight>1</weight></queue>
      <queue name="child2"><weight>1</weight></queue>
    </queue></allocations>)";
  AllocationConfig cfg = parse(before);
  auto empty = shares(cfg, Resource(), ShareMode::kSteady);
  EXPECT_EQ(empty["root.child1"].memoryMb(), 0);
  auto added = shares(cfg, Resource::of(6144, 6), ShareMode::kSteady);
  EXPECT_EQ(added["root.child1"].memoryMb(), 2048);
  EXPECT_EQ(added["root.child2"].memoryMb(), 2048);
  AllocationConfig reloaded = parse(R"(<allocations>
    <defaultQueueSchedulingPolicy>fair</defaultQueueSchedulingPolicy>
    <queue name="root"><schedulingPolicy>drf</schedulingPolicy>
      <queue name="child1"><weight>1</weight></queue>
      <queue name="child2"><weight>2</weight></queue>
      <queue name="child3"><weight>2</weight></queue>
    </queue></allocations>)");
  auto after = shares(reloaded, Resource::of(6144, 6), ShareMode::kSteady);
  EXPECT_EQ(after["root.child1"].memoryMb(), 1024);
  EXPECT_EQ(after["root.child2"].memoryMb(), 2048);
  EXPECT_EQ(after["root.child3"].memoryMb(), 2048);
  EXPECT_EQ(after["root.default"].memoryMb(), 1024);
}

TEST(ShareFromConfigTest, FS13_NestedUserQueuesSplitParentShare) {
  // root: parentq (min 1024) and default get 8192 each; parentq's two user queues (created by
  // placement, weight 1) split it.
  AllocationConfig cfg = parse(R"(<allocations>
    <queue name="parentq" type="parent"><minResources>1024mb,0vcores</minResources></queue>
  </allocations>)");
  auto root = shares(cfg, Resource::of(16384, 0), ShareMode::kInstantaneous,
                     {"root.parentq", "root.default"});
  ASSERT_EQ(root["root.parentq"].memoryMb(), 8192);
  std::vector<Schedulable> users{Schedulable::queue("root.parentq.user1"),
                                 Schedulable::queue("root.parentq.user2")};
  std::vector<Resource> split(2);
  SchedulingPolicy(PolicyKind::kFair, Resource::of(16384, 0), 2)
      .computeShares(users, root["root.parentq"], ShareMode::kInstantaneous, split);
  EXPECT_EQ(split[0].memoryMb(), 4096);
  EXPECT_EQ(split[1].memoryMb(), 4096);
}

}  // namespace
}  // namespace spindle::fair

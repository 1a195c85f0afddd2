#include "trace/trace_transform.h"

#include <gtest/gtest.h>

#include <map>

#include <fmt/format.h>

namespace spindle {
namespace {

Trace sample(int jobs, int nodes) {
  Trace t;
  for (int i = 0; i < jobs; ++i) {
    TraceJob j;
    j.id = fmt::format("j{}", i);
    j.startMs = 1000 * i;
    j.endMs = 1000 * i + 500;
    j.queue = std::string(i % 2 == 0 ? "a" : "b");
    t.jobs.push_back(j);
  }
  for (int i = 0; i < nodes; ++i) {
    TraceNode n;
    n.name = fmt::format("h{}", i);
    n.rack = fmt::format("/r{}", i / 2);
    n.resource = Resource::of(4096, 4);
    t.nodes.push_back(n);
  }
  return t;
}

TEST(TraceTransform, QueueMapRenamesOnlyExactNames) {
  Trace t = sample(4, 1);
  TraceTransform x;
  x.queueMap["a"] = "root.alpha";
  ASSERT_TRUE(applyTransform(t, x, 1).isOk());
  EXPECT_EQ(t.jobs[0].queue, "root.alpha");
  EXPECT_EQ(t.jobs[1].queue, "b");
  auto m = parseQueueMapping("prod=root.production");
  ASSERT_TRUE(m.isOk());
  EXPECT_EQ(m->first, "prod");
  EXPECT_EQ(m->second, "root.production");
  EXPECT_FALSE(parseQueueMapping("prod").isOk());
  EXPECT_FALSE(parseQueueMapping("=x").isOk());
  EXPECT_FALSE(parseQueueMapping("x=").isOk());
}

TEST(TraceTransform, LoadScaleCopiesAtTracedArrivalsDeterministically) {
  Trace t = sample(1000, 1);
  TraceTransform x;
  x.loadScale = 1.5;
  Trace again = t;
  ASSERT_TRUE(applyTransform(t, x, 7).isOk());
  ASSERT_TRUE(applyTransform(again, x, 7).isOk());
  // About 1,500 jobs; every original kept; copies named #2 at some job's arrival time.
  EXPECT_GT(t.jobs.size(), 1400u);
  EXPECT_LT(t.jobs.size(), 1600u);
  std::map<std::string, const TraceJob*> byId;
  for (const TraceJob& j : t.jobs) byId[j.id] = &j;
  for (int i = 0; i < 1000; ++i) EXPECT_TRUE(byId.contains(fmt::format("j{}", i)));
  for (const TraceJob& j : t.jobs) {
    EXPECT_EQ(j.startMs % 1000, 0) << j.id;  // an arrival time of the trace
    EXPECT_EQ(*j.endMs - j.startMs, 500) << j.id;
  }
  for (size_t i = 1; i < t.jobs.size(); ++i) EXPECT_LE(t.jobs[i - 1].startMs, t.jobs[i].startMs);
  ASSERT_EQ(t.jobs.size(), again.jobs.size());
  for (size_t i = 0; i < t.jobs.size(); ++i) EXPECT_EQ(t.jobs[i].id, again.jobs[i].id);

  Trace half = sample(1000, 1);
  x.loadScale = 0.5;
  ASSERT_TRUE(applyTransform(half, x, 7).isOk());
  EXPECT_GT(half.jobs.size(), 400u);
  EXPECT_LT(half.jobs.size(), 600u);
}

TEST(TraceTransform, NodeCountCutsOrCycles) {
  Trace t = sample(1, 3);
  TraceTransform x;
  x.nodeCount = 7;
  ASSERT_TRUE(applyTransform(t, x, 1).isOk());
  ASSERT_EQ(t.nodes.size(), 7u);
  EXPECT_EQ(t.nodes[3].name, "h0-1");
  EXPECT_EQ(t.nodes[3].rack, "/r0");
  EXPECT_EQ(t.nodes[6].name, "h0-2");
  x.nodeCount = 2;
  ASSERT_TRUE(applyTransform(t, x, 1).isOk());
  EXPECT_EQ(t.nodes.size(), 2u);
}

TEST(TraceTransform, RefusesBadKnobs) {
  Trace t = sample(1, 1);
  TraceTransform x;
  x.loadScale = 0;
  EXPECT_FALSE(applyTransform(t, x, 1).isOk());
  x.loadScale = 1;
  x.nodeCount = 0;
  EXPECT_FALSE(applyTransform(t, x, 1).isOk());
  Trace empty;
  x.nodeCount = 5;
  EXPECT_FALSE(applyTransform(empty, x, 1).isOk());
}

}  // namespace
}  // namespace spindle

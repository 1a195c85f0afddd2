// The node lifecycle against YARN's RMNodeImpl: registration, health flips, graceful and forced
// decommissioning, loss; wrong events are refused with both names; final states refuse all.
#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "cluster/node_state.h"

namespace spindle {

// Readable gtest failures (found by ADL, so outside the anonymous namespace).
void PrintTo(NodeState s, std::ostream* os) { *os << toString(s); }

namespace {

// Walks a node through heartbeats and admin events; a refused event fails the test and leaves
// the state as it was.
class NodeWalk {
 public:
  explicit NodeWalk(NodeState start) : state_(start), path_(toString(start)) {}

  NodeWalk& on(NodeEvent event, NodeTransitionContext context = {}) {
    auto next = nextNodeState(state_, event, context);
    EXPECT_TRUE(next.isOk()) << "event " << toString(event) << ": " << next.status().toString();
    if (!next.isOk()) return *this;
    state_ = *next;
    path_ += std::string(" ") + toString(state_);
    return *this;
  }

  NodeState state() const { return state_; }
  // Every state visited, space separated, starting with the initial one.
  const std::string& path() const { return path_; }

 private:
  NodeState state_;
  std::string path_;
};

const NodeTransitionContext kUnhealthy{.healthy = false};
const NodeTransitionContext kDrained{.drained = true};

TEST(NodeState, RegisterRunAndFlipHealth) {
  NodeWalk w(NodeState::NEW);
  w.on(NodeEvent::STARTED)
      .on(NodeEvent::STATUS_UPDATE)
      .on(NodeEvent::STATUS_UPDATE, kUnhealthy)
      .on(NodeEvent::STATUS_UPDATE, kUnhealthy)
      .on(NodeEvent::STATUS_UPDATE)
      .on(NodeEvent::CLEANUP_APP)
      .on(NodeEvent::RESOURCE_UPDATE);
  EXPECT_EQ(w.path(), "NEW RUNNING RUNNING UNHEALTHY UNHEALTHY RUNNING RUNNING RUNNING");
  // A node that registers unhealthy starts out unusable.
  EXPECT_EQ(*nextNodeState(NodeState::NEW, NodeEvent::STARTED, kUnhealthy), NodeState::UNHEALTHY);
}

TEST(NodeState, GracefulDecommissionWaitsUntilDrained) {
  NodeWalk w(NodeState::RUNNING);
  w.on(NodeEvent::GRACEFUL_DECOMMISSION)
      .on(NodeEvent::STATUS_UPDATE)
      .on(NodeEvent::STATUS_UPDATE, kUnhealthy)  // health does not matter while draining
      .on(NodeEvent::GRACEFUL_DECOMMISSION)      // a new timeout
      .on(NodeEvent::STATUS_UPDATE, kDrained);
  EXPECT_EQ(w.path(),
            "RUNNING DECOMMISSIONING DECOMMISSIONING DECOMMISSIONING DECOMMISSIONING "
            "DECOMMISSIONED");
  EXPECT_TRUE(isFinal(w.state()));
}

TEST(NodeState, DecommissioningCanBeRecommissionedOrForced) {
  EXPECT_EQ(NodeWalk(NodeState::UNHEALTHY)
                .on(NodeEvent::GRACEFUL_DECOMMISSION)
                .on(NodeEvent::RECOMMISSION)
                .path(),
            "UNHEALTHY DECOMMISSIONING RUNNING");
  // The watcher's timeout forces the decommission.
  EXPECT_EQ(*nextNodeState(NodeState::DECOMMISSIONING, NodeEvent::DECOMMISSION),
            NodeState::DECOMMISSIONED);
  EXPECT_EQ(*nextNodeState(NodeState::NEW, NodeEvent::DECOMMISSION), NodeState::DECOMMISSIONED);
}

TEST(NodeState, ActiveNodesCanBeLostRebootedOrShutDown) {
  for (NodeState s : {NodeState::RUNNING, NodeState::UNHEALTHY, NodeState::DECOMMISSIONING}) {
    EXPECT_EQ(*nextNodeState(s, NodeEvent::EXPIRE), NodeState::LOST) << toString(s);
    EXPECT_EQ(*nextNodeState(s, NodeEvent::REBOOTING), NodeState::REBOOTED) << toString(s);
    EXPECT_EQ(*nextNodeState(s, NodeEvent::SHUTDOWN), NodeState::SHUTDOWN) << toString(s);
  }
}

TEST(NodeState, InvalidTransitionNamesStateAndEvent) {
  auto r = nextNodeState(NodeState::RUNNING, NodeEvent::RECOMMISSION);
  ASSERT_FALSE(r.isOk());
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(r.status().message(),
            "invalid transition: node in state RUNNING cannot take event RECOMMISSION");
  // A node must register before it heartbeats.
  EXPECT_FALSE(nextNodeState(NodeState::NEW, NodeEvent::STATUS_UPDATE).isOk());
}

TEST(NodeState, FinalStatesRejectEveryEvent) {
  for (NodeState s :
       {NodeState::DECOMMISSIONED, NodeState::LOST, NodeState::REBOOTED, NodeState::SHUTDOWN}) {
    EXPECT_TRUE(isFinal(s));
    for (NodeEvent e : allNodeEvents()) {
      EXPECT_FALSE(nextNodeState(s, e).isOk()) << toString(s) << " took " << toString(e);
    }
  }
  EXPECT_FALSE(isFinal(NodeState::DECOMMISSIONING));
  EXPECT_FALSE(isFinal(NodeState::UNHEALTHY));
}

// Every event is taken somewhere, and every live state can reach a final state.
TEST(NodeState, TableIsComplete) {
  for (NodeEvent e : allNodeEvents()) {
    bool used = false;
    for (const NodeTransition& t : nodeTransitions()) used = used || t.event == e;
    EXPECT_TRUE(used) << "event " << toString(e) << " has no transition";
  }
  for (NodeState start : allNodeStates()) {
    if (isFinal(start)) continue;
    std::set<NodeState> seen{start};
    std::vector<NodeState> todo{start};
    bool reachesFinal = false;
    while (!todo.empty() && !reachesFinal) {
      NodeState s = todo.back();
      todo.pop_back();
      reachesFinal = isFinal(s);
      for (const NodeTransition& t : nodeTransitions()) {
        if (t.from == s && seen.insert(t.to).second) todo.push_back(t.to);
      }
    }
    EXPECT_TRUE(reachesFinal) << toString(start) << " cannot reach a final state";
  }
}

TEST(NodeState, NamesRoundTripAsYarnPrintsThem) {
  for (NodeState s : allNodeStates()) EXPECT_EQ(*nodeStateFromString(toString(s)), s);
  for (NodeEvent e : allNodeEvents()) EXPECT_EQ(*nodeEventFromString(toString(e)), e);
  EXPECT_STREQ(toString(NodeState::DECOMMISSIONING), "DECOMMISSIONING");
  EXPECT_EQ(*nodeStateFromString("unhealthy"), NodeState::UNHEALTHY);
  auto bad = nodeStateFromString("DEAD");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().message(),
            "unknown node state 'DEAD'; expected one of NEW, RUNNING, UNHEALTHY, DECOMMISSIONED, "
            "LOST, REBOOTED, DECOMMISSIONING, SHUTDOWN");
}

}  // namespace
}  // namespace spindle

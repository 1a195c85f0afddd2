// RmCore's records of nodes and apps (rm_core.h), shared by its three source files:
// rm_core.cc (nodes, outcomes, liveness), rm_am.cc (the AM protocol), rm_client.cc (REST).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rm/rm_core.h"

namespace spindle::rm {

// YARN's RMNodeImpl, the parts the scheduler does not keep.
struct RmCore::RmNode {
  std::string nodeId;  // host:port, also the scheduler's node name
  std::string host;
  std::string rack = "/default-rack";  // resolved at registration (RackResolver)
  std::string httpAddress;
  NodeId sched;
  RmNodeState state = RmNodeState::RUNNING;
  protocol::ResourceRecord total;
  std::vector<std::string> labels;
  TimeMs registeredAt = 0;
  TimeMs lastHeartbeat = 0;
  TimeMs lastHealthUpdate = 0;
  std::string healthReport;
  // The last heartbeat's answer: a repeated request gets it again (responseId).
  protocol::NodeHeartbeatResponse lastResponse;
  // Containers the NM must stop (released, killed), sent with the next response.
  std::vector<std::string> toCleanup;
  // The node's distributed attributes as last accepted from its reports.
  std::vector<protocol::NodeAttributeRecord> distributed;
  // The NM's last measured utilisation (NodeStatus.containersUtilization, nodeUtilization).
  std::optional<protocol::ResourceUtilization> containersUtilization;
  std::optional<protocol::ResourceUtilization> nodeUtilization;
  // DECOMMISSIONING: when it is forced (-1: never), and the apps that ran containers on the
  // node, which it waits for (DecommissioningNodesWatcher).
  TimeMs decommissionDeadline = -1;
  std::set<AppId> decommissionApps;
  // DECOMMISSIONED: the SHUTDOWN message its next heartbeat gets.
  std::string shutdownMessage;
};

// One attempt as the REST API lists it (YARN's AppAttemptInfo).
struct AttemptRecord {
  uint32_t attempt = 0;
  TimeMs startTime = 0;
  TimeMs finishedTime = 0;
  std::string amContainerId;
  std::string nodeId;
  std::string nodeHttpAddress;
  // RMAppAttemptState as YARN shows it: SCHEDULED, ALLOCATED, RUNNING, FINISHED, FAILED, KILLED.
  std::string state = "SCHEDULED";
  std::string diagnostics;
  // The AM container's exit status when it ended the attempt; INVALID otherwise.
  int32_t amContainerExitStatus = ContainerExitStatus::INVALID;

  // RMAppAttemptImpl.shouldCountTowardsMaxAttemptRetry: a failed attempt counts against
  // am.max-attempts unless its AM container was preempted, lost with its node (ABORTED),
  // lost to failed disks or killed by the ResourceManager.
  bool countsTowardsMaxAttempts() const {
    if (state != "FAILED") return false;
    const int32_t e = amContainerExitStatus;
    return e != ContainerExitStatus::PREEMPTED && e != ContainerExitStatus::ABORTED &&
           e != ContainerExitStatus::DISKS_FAILED &&
           e != ContainerExitStatus::KILLED_BY_RESOURCEMANAGER;
  }

  static AttemptRecord started(uint32_t attempt, TimeMs at) {
    AttemptRecord r;
    r.attempt = attempt;
    r.startTime = at;
    return r;
  }
};

// YARN's RMAppImpl and the current RMAppAttemptImpl, the parts the scheduler does not keep.
struct RmCore::RmApp {
  AppId id;
  protocol::SubmissionContext ctx;
  std::string user;
  protocol::FinalApplicationStatus finalStatus = protocol::FinalApplicationStatus::UNDEFINED;
  std::string diagnostics;
  double progress = 0;
  std::string trackingUrl;
  std::string amHost;
  int32_t amRpcPort = -1;
  // The current attempt.
  uint32_t attempt = 0;
  bool registered = false;
  bool unregistered = false;
  TimeMs lastAmContact = 0;
  std::optional<protocol::AllocateResponse> lastResponse;
  std::vector<protocol::Container> newlyAllocated;
  std::vector<protocol::ContainerStatus> completed;
  std::optional<ContainerId> amContainer;
  std::string amNodeHttpAddress;
  // Every attempt so far, the current one last.
  std::vector<AttemptRecord> attempts;
  // The AM's SchedulingRequests as sent, by (priority, allocationRequestId): a rejection
  // returns the request as the AM wrote it.
  std::map<std::pair<int32_t, int64_t>, protocol::SchedulingRequestRecord> schedulingRequests;
  // Rejected SchedulingRequests for the AM's next allocate response.
  std::vector<protocol::RejectedSchedulingRequestRecord> rejected;
  // Recovered from the state store: an allocate before the AM registers again is answered
  // AM_RESYNC (the AM registered with the previous RM).
  bool recovered = false;
  // Nodes whose state changed since the AM's last allocate (updatedNodes), by node id.
  std::map<std::string, protocol::NodeReport> updatedNodes;
  // Containers the AM released that the RM did not know, shortly after a restart: an NM may
  // still report them, and then they are stopped instead of recovered (YARN's pendingRelease).
  std::set<ContainerId> pendingRelease;

  void endAttempt(const char* state, TimeMs now, const std::string& why) {
    if (attempts.empty() || attempts.back().finishedTime != 0) return;
    attempts.back().state = state;
    attempts.back().finishedTime = now;
    attempts.back().diagnostics = why;
  }
};

// Flushes the store's changed apps when a public RmCore call returns: one batch (one
// transaction) per call, written before the daemon answers.
struct RmCore::FlushOnReturn {
  RmCore& core;
  explicit FlushOnReturn(RmCore& c) : core(c) {}
  ~FlushOnReturn() { core.flush(); }
  FlushOnReturn(const FlushOnReturn&) = delete;
  FlushOnReturn& operator=(const FlushOnReturn&) = delete;
};

}  // namespace spindle::rm

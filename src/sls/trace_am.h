// One trace job's ApplicationMaster over the real AM-RM protocol (`spindle sls`): the
// simulator's own AM (sim/am_simulator.h decides what to ask and which task runs in which
// container) behind a translation to and from protocol records (protocol/records.h).
//
//   TraceAm am(job, AmKind::kMapReduce, placementAsks, rackOf);
//   am.amStarted("container_..._01_000001");
//   TraceAm::Beat b = am.beat(simNowMs);             // asks, releases, tasks to start
//   protocol::AllocateRequest req = ...; req.ask = b.asks; ...
//   am.onAllocateResponse(response, simNowMs);       // then beat() again to start the tasks
//
// Algorithm:
//  1. Container ids are parsed from YARN's strings (attempt and sequence number) into the
//     simulator's ContainerId; the node ids the RM names are interned as NodeIds.
//  2. An allocated container's locality is not in the protocol, so the AM infers it the way the
//     RM's scheduler decided it: node-local when the RM's ask table (mirrored here from the
//     absolute counts sent, decremented as AppSchedulingInfo.allocate decrements it) has an ask
//     at the container's (priority, allocationRequestId) for its host, else rack-local when it
//     has one for the node's rack as the RM sees it, else off-switch.
//  3. Completed container statuses, rejected SchedulingRequests and the preemption message go
//     to the simulator's AM as the engine delivers them; beat() runs its heartbeat and turns
//     the actions into protocol asks (resource requests, SchedulingRequests with the task's
//     placement spec text) and releases.
// Not thread-safe; one per job.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/status.h"
#include "protocol/records.h"
#include "sim/am_simulator.h"
#include "trace/trace.h"

namespace spindle::sls {

// The rack the RM puts a node in (its nodes REST view), by node id.
using RackOf = std::function<std::string(const std::string& nodeId)>;

struct TaskToStart {
  std::string containerId;
  std::string nodeId;
  int64_t durationMs = 0;  // simulated ms
  protocol::ResourceRecord resource;
};

class TraceAm {
 public:
  TraceAm(const TraceJob& job, sim::AmKind kind, const sim::PlacementAsks* placement,
          RackOf rackOf);

  struct Beat {
    std::vector<protocol::ResourceRequest> asks;
    std::vector<protocol::SchedulingRequestRecord> schedulingRequests;
    std::vector<std::string> releases;
    std::vector<TaskToStart> starts;
    bool finished = false;  // every task done: unregister
    bool restart = false;   // the AM container was lost: the RM starts a new attempt
  };

  // The RM launched the AM container (containers/start): a new attempt when its attempt
  // number is higher than the last one's.
  Status amStarted(const std::string& containerId);
  uint32_t attempt() const { return attempt_; }
  Status onAllocateResponse(const protocol::AllocateResponse& r, int64_t simNowMs);
  Beat beat(int64_t simNowMs);

  int tasksDone() const { return am_.tasksDone(); }
  int64_t rejectedTasks() const { return am_.rejectedTasks(); }
  int64_t allocated() const { return allocated_; }

 private:
  Result<ContainerId> parse(const std::string& containerId) const;
  NodeId intern(const std::string& nodeId);
  Locality inferLocality(const SchedulerKey& key, const std::string& host, const std::string& rack);
  std::string specText(const placement::PlacementConstraint& c) const;

  const TraceJob& job_;
  const sim::PlacementAsks* placement_;
  RackOf rackOf_;
  sim::AmSimulator am_;
  uint32_t attempt_ = 0;
  std::unordered_map<ContainerId, std::string> ids_;                     // back to the RM's strings
  std::unordered_map<ContainerId, protocol::ResourceRecord> resources_;  // allocated, not started
  std::vector<std::string> nodes_;                                       // NodeId value -> node id
  std::unordered_map<std::string, NodeId> nodeIndex_;
  // The RM's ask table as this AM sent it: (key) -> resource name -> count.
  std::map<SchedulerKey, std::map<std::string, int32_t>> rmAsks_;
  PreemptionMessage preemption_;
  int64_t allocated_ = 0;
};

}  // namespace spindle::sls

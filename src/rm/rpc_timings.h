// How long the RM takes over each protocol call, per method, in three measures (YARN's
// RpcQueueTime and RpcProcessingTime, per method as its RpcDetailedActivity, plus the whole
// span the RM holds a call):
//   queue       the request fully read on the I/O thread -> the scheduler thread starts it
//   processing  the scheduler thread's work on it (the RmCore call and making the answer record)
//   total       the request fully read -> the answer's last byte handed to the socket (so it
//               also holds the answer's JSON made on the I/O thread and that thread's wake-up)
// Time a request waits in the kernel before the I/O thread reads it is in none of them; it is
// the client's latency minus `total`, with the network.
//
//   RpcTimings timings;
//   RpcTimings::Method& m = timings.of(RpcMethod::kAllocate);
//   m.queue.record(startUs - req.receivedUs);                  // scheduler thread
//   answer.sentLatency = &m.total;                             // the server records it
//   nlohmann::json j = timings.toJson();                       // any thread
//
// Served at /ws/v1/cluster/spindle/rpc-timings (docs/rest-api.md). Thread-safe (the
// histograms' atomics).
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/latency_histogram.h"

namespace spindle::rm {

enum class RpcMethod : size_t {
  kRegisterNodeManager,
  kNodeHeartbeat,
  kRegisterApplicationMaster,
  kAllocate,
  kFinishApplicationMaster,
  kCount
};

// YARN's method names: registerNodeManager, nodeHeartbeat, registerApplicationMaster, allocate,
// finishApplicationMaster.
std::string_view rpcMethodName(RpcMethod m);

class RpcTimings {
 public:
  struct Method {
    LatencyHistogram queue, processing, total;
  };
  Method& of(RpcMethod m) { return methods_[static_cast<size_t>(m)]; }

  // {"rpcTimings": {"method": [{"name", "queue": {...}, "processing": {...}, "total": {...}}]}},
  // each measure {"numOps", "avgTimeUs", "p50Us", "p90Us", "p99Us", "maxUs",
  // "buckets": [[lowUs, count], ...] (the non-empty ones)}; methods never called are left out.
  nlohmann::json toJson() const;

 private:
  std::array<Method, static_cast<size_t>(RpcMethod::kCount)> methods_;
};

}  // namespace spindle::rm

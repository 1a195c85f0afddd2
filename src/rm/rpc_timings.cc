#include "rm/rpc_timings.h"

namespace spindle::rm {

using nlohmann::json;

std::string_view rpcMethodName(RpcMethod m) {
  switch (m) {
    case RpcMethod::kRegisterNodeManager: return "registerNodeManager";
    case RpcMethod::kNodeHeartbeat: return "nodeHeartbeat";
    case RpcMethod::kRegisterApplicationMaster: return "registerApplicationMaster";
    case RpcMethod::kAllocate: return "allocate";
    case RpcMethod::kFinishApplicationMaster: return "finishApplicationMaster";
    case RpcMethod::kCount: break;
  }
  return "unknown";
}

namespace {

json measure(const LatencyHistogram& h) {
  const LatencyHistogram::Counts c = h.counts();
  json buckets = json::array();
  for (int i = 0; i < LatencyHistogram::kBuckets; ++i) {
    if (c.buckets[i] > 0) buckets.push_back({LatencyHistogram::bucketLowUs(i), c.buckets[i]});
  }
  const double avg = c.count == 0 ? 0 : static_cast<double>(c.sumUs) / static_cast<double>(c.count);
  return {{"numOps", c.count},
          {"avgTimeUs", avg},
          {"p50Us", percentileUs(c.buckets, 0.5, c.maxUs)},
          {"p90Us", percentileUs(c.buckets, 0.9, c.maxUs)},
          {"p99Us", percentileUs(c.buckets, 0.99, c.maxUs)},
          {"maxUs", c.maxUs},
          {"buckets", std::move(buckets)}};
}

}  // namespace

json RpcTimings::toJson() const {
  json methods = json::array();
  for (size_t i = 0; i < methods_.size(); ++i) {
    const Method& m = methods_[i];
    if (m.queue.count() == 0) continue;
    methods.push_back({{"name", rpcMethodName(static_cast<RpcMethod>(i))},
                       {"queue", measure(m.queue)},
                       {"processing", measure(m.processing)},
                       {"total", measure(m.total)}});
  }
  return {{"rpcTimings", {{"method", std::move(methods)}}}};
}

}  // namespace spindle::rm

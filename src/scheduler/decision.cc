#include "scheduler/decision.h"

#include <iterator>

#include <fmt/args.h>

namespace spindle {

const char* toString(DecisionKind k) {
  switch (k) {
    case DecisionKind::kAllocate: return "allocate";
    case DecisionKind::kReserve: return "reserve";
    case DecisionKind::kUnreserve: return "unreserve";
    case DecisionKind::kSkip: return "skip";
    case DecisionKind::kRelease: return "release";
    case DecisionKind::kComplete: return "complete";
    case DecisionKind::kKill: return "kill";
    case DecisionKind::kPreemptMark: return "preempt-mark";
    case DecisionKind::kAppAccepted: return "app-accepted";
    case DecisionKind::kAppRejected: return "app-rejected";
    case DecisionKind::kAppFinished: return "app-finished";
    case DecisionKind::kNodeAdded: return "node-added";
    case DecisionKind::kNodeRemoved: return "node-removed";
    case DecisionKind::kNodeUpdated: return "node-updated";
    case DecisionKind::kRequestRejected: return "request-rejected";
  }
  return "?";
}

const char* toString(RejectionReason r) {
  return r == RejectionReason::kCouldNotPlaceOnNode ? "COULD_NOT_PLACE_ON_NODE"
                                                    : "COULD_NOT_SCHEDULE_ON_NODE";
}

const char* toString(SkipReason r) {
  switch (r) {
    case SkipReason::kNone: return "NONE";
    case SkipReason::kAmLimit: return "AM_LIMIT";
    case SkipReason::kUserLimit: return "USER_LIMIT";
    case SkipReason::kQueueMaxCapacity: return "QUEUE_MAX_CAPACITY";
    case SkipReason::kLocalityDelay: return "LOCALITY_DELAY";
    case SkipReason::kRelaxLocality: return "RELAX_LOCALITY";
    case SkipReason::kPartition: return "PARTITION";
    case SkipReason::kNoNodeFits: return "NO_NODE_FITS";
    case SkipReason::kBlacklisted: return "BLACKLISTED";
    case SkipReason::kPriorityOrder: return "PRIORITY_ORDER";
    case SkipReason::kConstraint: return "CONSTRAINT";
    case SkipReason::kQueueStopped: return "QUEUE_STOPPED";
    case SkipReason::kMaxParallelApps: return "MAX_PARALLEL_APPS";
  }
  return "?";
}

std::string Reason::text() const {
  std::string out;
  textInto(out);
  return out;
}

void Reason::textInto(std::string& out) const {
  out.clear();
  if (!formatted_) {
    out.assign(format_);
    return;
  }
  fmt::dynamic_format_arg_store<fmt::format_context> store;
  store.reserve(numArgs_, numArgs_);
  for (int i = 0; i < numArgs_; ++i) {
    const Arg& a = args_[i];
    switch (a.type) {
      case Arg::Type::kInt: store.push_back(a.i); break;
      case Arg::Type::kUint: store.push_back(a.u); break;
      case Arg::Type::kDouble: store.push_back(a.d); break;
      case Arg::Type::kText: store.push_back(std::string_view(a.text.data, a.text.size)); break;
      case Arg::Type::kResource: store.push_back(a.resource->toString()); break;
    }
  }
  fmt::vformat_to(std::back_inserter(out), format_, store);
}

Decision Decision::of(const DecisionRecord& r) {
  Decision d;
  d.assign(r);
  return d;
}

void Decision::assign(const DecisionRecord& r) {
  kind = r.kind;
  time = r.time;
  app = r.app;
  container = r.container;
  node = r.node;
  queue.assign(r.queue);
  key = r.key;
  locality = r.locality;
  resource = r.resource;
  am = r.am;
  skip = r.skip;
  exitStatus = r.exitStatus;
  rejection = r.rejection;
  r.reason.textInto(reason);
  numbers.assign(r.numbers.begin(), r.numbers.end());
}

DecisionRecord Decision::view() const {
  DecisionRecord r;
  r.kind = kind;
  r.time = time;
  r.app = app;
  r.container = container;
  r.node = node;
  r.queue = queue;
  r.key = key;
  r.locality = locality;
  r.resource = resource;
  r.am = am;
  r.skip = skip;
  r.exitStatus = exitStatus;
  r.rejection = rejection;
  r.reason = Reason(reason);
  r.numbers = numbers;
  return r;
}

}  // namespace spindle

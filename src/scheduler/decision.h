// Decision records: every allocation, reservation, skip, release, preemption and app or node
// change the core makes, with its reason. The decision log, the "why is my app pending" view,
// the simulator report and the tests all read these records. They are an observer stream: the
// actions a front end takes (launch, kill, wake an AM) come from the Driver's Outcome
// (driver.h, outcome.h), never from here, so a front end may attach no sink at all.
//
//   DecisionLog log;                       // keeps every record, text rendered
//   driver.setDecisionSink(&log);          // or scheduler.setDecisionSink(&log)
//   ... run ...
//   for (const Decision& d : log.decisions()) if (d.kind == DecisionKind::kAllocate) ...
//
// A sink receives a DecisionRecord: always complete (queue and reason filled), but lazy: the
// queue is a view of the scheduler's own queue name and the reason a Reason, a format string
// with its arguments kept as values, rendered to text only by a sink that reads it
// (Reason::text()). Both are valid during the record() call only; a sink that keeps a record
// keeps a Decision (Decision::of), which owns its text.
// Records hold ids, not names; decision_json.h renders them with names resolved.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "app/asks.h"
#include "base/clock.h"
#include "base/ids.h"
#include "resource/resource.h"

namespace spindle {

enum class DecisionKind {
  kAllocate,     // a container was allocated
  kReserve,      // a node was reserved for an ask that did not fit
  kUnreserve,    // a reservation was cancelled or turned into an allocation
  kSkip,         // an app was passed over on a node, with SkipReason
  kRelease,      // the app released a container
  kComplete,     // a container finished on its node (exit status)
  kKill,         // the scheduler killed a container (node lost, app finished, preemption)
  kPreemptMark,  // a container was marked for preemption (AM told)
  kAppAccepted,
  kAppRejected,
  kAppFinished,
  kNodeAdded,
  kNodeRemoved,
  kNodeUpdated,      // node capacity changed
  kRequestRejected,  // a SchedulingRequest was rejected (RejectionReason), returned to its AM
};
const char* toString(DecisionKind k);  // "allocate", "reserve", ...

// RejectionReason of a rejected SchedulingRequest.
enum class RejectionReason : uint8_t {
  kCouldNotPlaceOnNode,     // no node satisfied the constraints (or none fitted)
  kCouldNotScheduleOnNode,  // the scheduler refused the chosen node (queue or user limits, room)
};
const char* toString(RejectionReason r);  // "COULD_NOT_PLACE_ON_NODE", ...

enum class SkipReason {
  kNone,
  kAmLimit,           // queue or user AM resource limit reached
  kUserLimit,         // user over its limit in the queue
  kQueueMaxCapacity,  // queue (or a parent) would exceed maximum-capacity
  kLocalityDelay,     // waiting for a better locality (missed opportunities vs threshold)
  kRelaxLocality,     // the ask forbids the only locality this node offers
  kPartition,         // the node's partition is not accessible to the ask
  kNoNodeFits,        // the ask does not fit in this node's unallocated resource
  kBlacklisted,       // the app blacklisted this node or its rack
  kPriorityOrder,     // a higher-priority key got nothing, lower keys are not tried
  kConstraint,        // a placement constraint is not satisfied on this node
  kQueueStopped,
  kMaxParallelApps,  // not runnable yet: a queue's or the user's max-parallel-apps is reached
};
const char* toString(SkipReason r);  // "AM_LIMIT", "USER_LIMIT", ...

namespace reason_internal {
// The type fmt checks a Reason argument as: a Resource renders as its toString().
template <typename T>
struct FmtType {
  using type = T;
};
template <>
struct FmtType<Resource> {
  using type = std::string;
};
template <typename T>
using FmtTypeOf = typename FmtType<std::decay_t<T>>::type;
}  // namespace reason_internal

// Why a decision was made, as a deferred format: a fmt format string (checked at compile time)
// and up to kMaxArgs arguments kept as values (integers, doubles, text views, resources), or a
// plain text view. Making one formats nothing and allocates nothing; text() renders it.
//
//   Reason r = Reason::format("{} ask at priority {} on {}", toString(loc), key.priority, name);
//   std::string s = r.text();                  // "NODE_LOCAL ask at priority 1 on h1"
//   Reason plain = "released by the application";
//
// Text and resource arguments are viewed, not copied: render it while they live (a sink's
// record() call).
class Reason {
 public:
  static constexpr int kMaxArgs = 6;

  Reason() = default;
  Reason(std::string_view text) : format_(text) {}    // NOLINT: implicit by design
  Reason(const char* text) : format_(text) {}         // NOLINT
  Reason(const std::string& text) : format_(text) {}  // NOLINT
  template <typename... A>
  static Reason format(fmt::format_string<reason_internal::FmtTypeOf<A>...> f, const A&... args) {
    static_assert(sizeof...(A) <= kMaxArgs, "too many Reason arguments");
    Reason r;
    const fmt::string_view text = f;
    r.format_ = std::string_view(text.data(), text.size());
    r.formatted_ = true;
    (r.push(args), ...);
    return r;
  }

  bool empty() const { return !formatted_ && format_.empty(); }
  std::string text() const;
  // The text into `out` (replacing what it held, reusing its room).
  void textInto(std::string& out) const;

 private:
  struct Arg {
    enum class Type : uint8_t { kInt, kUint, kDouble, kText, kResource };
    Type type = Type::kInt;
    union {
      int64_t i;
      uint64_t u;
      double d;
      struct {
        const char* data;
        size_t size;
      } text;
      const Resource* resource;
    };
    Arg() : i(0) {}
  };
  template <typename T>
  void push(const T& v) {
    Arg& a = args_[numArgs_++];
    using D = std::decay_t<T>;
    if constexpr (std::is_same_v<D, bool>) {
      setText(a, v ? std::string_view("true") : std::string_view("false"));
    } else if constexpr (std::is_integral_v<D> && std::is_signed_v<D>) {
      a.type = Arg::Type::kInt;
      a.i = v;
    } else if constexpr (std::is_integral_v<D>) {
      a.type = Arg::Type::kUint;
      a.u = v;
    } else if constexpr (std::is_floating_point_v<D>) {
      a.type = Arg::Type::kDouble;
      a.d = v;
    } else if constexpr (std::is_same_v<D, Resource>) {
      a.type = Arg::Type::kResource;
      a.resource = &v;
    } else {
      setText(a, std::string_view(v));
    }
  }
  static void setText(Arg& a, std::string_view s) {
    a.type = Arg::Type::kText;
    a.text = {s.data(), s.size()};
  }

  std::string_view format_;  // the format string, or the plain text
  bool formatted_ = false;   // format_ is a format string (even with no arguments)
  uint8_t numArgs_ = 0;
  Arg args_[kMaxArgs];
};

// A decision as a sink receives it: complete, with views into the scheduler's state (queue) and
// a deferred reason; valid during DecisionSink::record() only.
struct DecisionRecord {
  DecisionKind kind = DecisionKind::kAllocate;
  TimeMs time = 0;
  AppId app;
  ContainerId container;
  NodeId node;
  std::string_view queue;
  SchedulerKey key;
  Locality locality = Locality::kOffSwitch;
  Resource resource;
  bool am = false;
  SkipReason skip = SkipReason::kNone;
  int32_t exitStatus = 0;
  RejectionReason rejection = RejectionReason::kCouldNotPlaceOnNode;  // kRequestRejected
  Reason reason;                                                      // human-readable why
  // Named numbers behind the reason, e.g. {"missedOpportunities", 2}, {"threshold", 3}.
  std::span<const std::pair<std::string, double>> numbers;
};

// A decision that owns its text: what DecisionLog keeps and Scheduler::lastSkip returns.
struct Decision {
  DecisionKind kind = DecisionKind::kAllocate;
  TimeMs time = 0;
  AppId app;
  ContainerId container;
  NodeId node;
  std::string queue;
  SchedulerKey key;
  Locality locality = Locality::kOffSwitch;
  Resource resource;
  bool am = false;
  SkipReason skip = SkipReason::kNone;
  int32_t exitStatus = 0;
  RejectionReason rejection = RejectionReason::kCouldNotPlaceOnNode;  // kRequestRejected
  std::string reason;                                                 // human-readable why
  // Named numbers behind the reason, e.g. {"missedOpportunities", 2}, {"threshold", 3}.
  std::vector<std::pair<std::string, double>> numbers;

  // The record rendered: queue copied, reason formatted.
  static Decision of(const DecisionRecord& r);
  // The same in place: this decision's strings and numbers keep their room.
  void assign(const DecisionRecord& r);
  // A record viewing this decision (valid while it lives).
  DecisionRecord view() const;
};

// An observer of the decision stream. Observing changes nothing: the core makes the same
// decisions with or without a sink.
class DecisionSink {
 public:
  virtual ~DecisionSink() = default;
  virtual void record(const DecisionRecord& d) = 0;
};

// Keeps every decision in memory, in order, text rendered.
class DecisionLog final : public DecisionSink {
 public:
  void record(const DecisionRecord& d) override { decisions_.push_back(Decision::of(d)); }
  const std::vector<Decision>& decisions() const { return decisions_; }
  void clear() { decisions_.clear(); }

 private:
  std::vector<Decision> decisions_;
};

// Hands every record to each of several sinks, in the order they were added (not owned).
class DecisionFanOut final : public DecisionSink {
 public:
  void add(DecisionSink* sink) { sinks_.push_back(sink); }
  void record(const DecisionRecord& d) override {
    for (DecisionSink* s : sinks_) s->record(d);
  }

 private:
  std::vector<DecisionSink*> sinks_;
};

// Counts records by kind and renders nothing: for benchmarks and front ends that only need to
// know that something was decided.
class DecisionCounter final : public DecisionSink {
 public:
  void record(const DecisionRecord& d) override {
    ++total_;
    ++byKind_[static_cast<size_t>(d.kind)];
  }
  int64_t total() const { return total_; }
  int64_t count(DecisionKind k) const { return byKind_[static_cast<size_t>(k)]; }

 private:
  int64_t total_ = 0;
  int64_t byKind_[static_cast<size_t>(DecisionKind::kRequestRejected) + 1] = {};
};

}  // namespace spindle

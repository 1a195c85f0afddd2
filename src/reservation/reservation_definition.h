// The Reservation Definition Language (RDL): what a user asks the plan for.
//
//   ReservationDefinition def;
//   def.arrival = 5000;
//   def.deadline = 20000;
//   def.interpreter = Interpreter::kAll;
//   def.stages.push_back(ReservationRequest::of(Resource::of(2048, 2), /*containers=*/10,
//                                               /*concurrency=*/5, /*durationMs=*/10000));
//   // 10 containers of <2048, 2> in gangs of 5 (two gangs), each gang held for 10 s,
//   // somewhere inside [5000, 20000).
//   ReservationId id = ReservationId::parse("reservation_1404198295326_0003").value();
//
// Mirrors org.apache.hadoop.yarn.api.records.{ReservationId, ReservationDefinition,
// ReservationRequest, ReservationRequests, ReservationRequestInterpreter}. Plain values: no
// invariants beyond what ReservationInputValidator and the planner check.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "resource/resource.h"

namespace spindle::reservation {

// reservation_<clusterTimestamp>_<sequence>; ordered by timestamp then sequence as YARN's
// ReservationId.compareTo (the replanner's tie-break relies on it).
struct ReservationId {
  int64_t clusterTimestamp = 0;
  int64_t sequence = 0;

  static ReservationId of(int64_t clusterTimestamp, int64_t sequence) {
    return {clusterTimestamp, sequence};
  }
  // "reservation_1404198295326_0003": the sequence zero-padded to four digits.
  std::string toString() const;
  // Parses the form above; InvalidArgument naming the text otherwise.
  static Result<ReservationId> parse(std::string_view text);
  auto operator<=>(const ReservationId&) const = default;
};

// ReservationRequestInterpreter, with the proto enum values.
enum class Interpreter {
  kAny = 0,         // R_ANY: exactly one stage is satisfied; the agent picks which
  kAll = 1,         // R_ALL (the proto default): every stage, no order among them
  kOrder = 2,       // R_ORDER: every stage, stage k ends no later than stage k+1 starts
  kOrderNoGap = 3,  // R_ORDER_NO_GAP: as R_ORDER, and each stage starts where the last ended
};

// "R_ANY", "R_ALL", "R_ORDER", "R_ORDER_NO_GAP".
const char* interpreterName(Interpreter i);
// Accepts the names above or the REST integers "0".."3"; InvalidArgument otherwise.
Result<Interpreter> parseInterpreter(std::string_view text);
// From the REST integer; InvalidArgument for values outside 0..3 (YARN indexes an array with
// it and fails with an unchecked exception).
Result<Interpreter> interpreterFromInt(int64_t value);

// One stage: `numContainers` containers of `capability`, in gangs of `concurrency` containers
// that must run together for `durationMs`. Proto defaults: numContainers 1, concurrency 1,
// duration -1.
struct ReservationRequest {
  Resource capability;
  int64_t numContainers = 1;
  int64_t concurrency = 1;
  int64_t durationMs = -1;

  static ReservationRequest of(const Resource& capability, int64_t numContainers,
                               int64_t concurrency, int64_t durationMs) {
    return {capability, numContainers, concurrency, durationMs};
  }
  // capability * concurrency: what one gang holds.
  Resource gang() const { return capability.times(concurrency); }
  bool operator==(const ReservationRequest&) const = default;
};

struct ReservationDefinition {
  int64_t arrival = 0;   // earliest start, ms
  int64_t deadline = 0;  // latest end, ms
  std::vector<ReservationRequest> stages;
  Interpreter interpreter = Interpreter::kAll;
  std::string name;  // reservationName: a mnemonic, not an id
  // Period in ms, kept as the string YARN carries; "0" (default) is non-periodic.
  std::string recurrenceExpression = "0";
  // Lower is more important; carried, never used for placement (as in YARN).
  std::optional<int> priority;

  // The recurrence as a number: 0 when the expression is empty or "0"; InvalidArgument
  // ("Invalid period ..." / "Negative Period ...") as ReservationInputValidator.
  Result<int64_t> period() const;
  bool operator==(const ReservationDefinition&) const = default;
};

}  // namespace spindle::reservation

template <>
struct std::hash<spindle::reservation::ReservationId> {
  size_t operator()(const spindle::reservation::ReservationId& id) const noexcept {
    return std::hash<int64_t>()(id.clusterTimestamp * 1000003 ^ id.sequence);
  }
};

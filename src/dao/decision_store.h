// The recent decisions a web page or a script asks about: the decision log's lines
// (decision_json.h) kept in a bounded ring, newest last, searchable by app, node, queue, kind and
// reason, and per app with its latest skip ("why is it pending"). The RM fills one from its
// scheduler's decision stream (DecisionStoreSink); `spindle sim serve` fills one from
// decisions.jsonl.
//
//   DecisionStore store(20000);
//   store.add(decisionToJson(sched, record, seq));
//   auto page = store.query({{"app", "application_1_0001"}, {"limit", "50"}});
//   nlohmann::json why = store.appDecisions("application_1_0001");
//
// Thread-compatible.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "scheduler/decision.h"
#include "scheduler/scheduler.h"

namespace spindle {

class DecisionStore {
 public:
  explicit DecisionStore(size_t capacity) : capacity_(capacity) {}

  // One decision-log line (decision_json.h's fields).
  void add(nlohmann::json decision);
  // {"decisions": {"total": matching, "kept": in the ring, "decision": [newest first]}}. Filters
  // (all optional, case-insensitive): app, node, queue (a substring of the queue path), kind,
  // reason (a substring of the reason or the skip code), limit (default 200, at most 5000).
  // Errors: a limit that is not a positive number.
  Result<nlohmann::json> query(const std::map<std::string, std::string>& q) const;
  // {"appDecisions": {"app", "whyPending": the latest skip or null, "decision": [oldest first]}}.
  nlohmann::json appDecisions(const std::string& app) const;
  size_t size() const { return ring_.size(); }

 private:
  size_t capacity_;
  std::deque<nlohmann::json> ring_;
  std::map<std::string, nlohmann::json> lastSkip_;  // by app id
};

// Renders each decision of a scheduler into a store.
class DecisionStoreSink final : public DecisionSink {
 public:
  DecisionStoreSink(const Scheduler& sched, DecisionStore& store) : sched_(sched), store_(store) {}
  void record(const DecisionRecord& d) override;

 private:
  const Scheduler& sched_;
  DecisionStore& store_;
  size_t seq_ = 0;
};

}  // namespace spindle

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
// The RM's sink keeps each decision as its record (Decision, the app's name) and renders it as
// JSON only when a query reads it: a scheduler making 100,000 allocations per second pays a
// copy per decision into a reused slot, not a JSON object built and destroyed.
// Thread-compatible.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "base/ring.h"
#include "base/status.h"
#include "scheduler/decision.h"
#include "scheduler/scheduler.h"

namespace spindle {

class DecisionStore {
 public:
  explicit DecisionStore(size_t capacity) : ring_(capacity) {}

  // One decision-log line (decision_json.h's fields).
  void add(nlohmann::json decision);
  // A scheduler's decision, rendered with decisionToJson(sched, ...) when read; `sched` must
  // outlive the store.
  void add(const Scheduler& sched, const DecisionRecord& d, size_t seq);
  // {"decisions": {"total": matching, "kept": in the ring, "decision": [newest first]}}. Filters
  // (all optional, case-insensitive): app, node, queue (a substring of the queue path), kind,
  // reason (a substring of the reason or the skip code), limit (default 200, at most 5000).
  // Errors: a limit that is not a positive number.
  Result<nlohmann::json> query(const std::map<std::string, std::string>& q) const;
  // {"appDecisions": {"app", "whyPending": the latest skip or null, "decision": [oldest first]}}.
  nlohmann::json appDecisions(const std::string& app) const;
  size_t size() const { return ring_.size(); }

 private:
  struct Entry {
    nlohmann::json line;  // a line added as JSON; null for a record
    Decision decision;
    size_t seq = 0;
    std::string appName;  // the app's name when decided (a finished app is gone later)
  };
  nlohmann::json render(const Entry& e) const;

  const Scheduler* sched_ = nullptr;
  // Full, a record overwrites the oldest entry's fields in place (its strings keep their room).
  Ring<Entry> ring_;
  std::map<std::string, nlohmann::json> lastSkip_;  // lines, by app id
  std::map<uint32_t, Entry> lastSkipRecord_;        // records, by AppId value
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

// The ResourceManager's durable state (YARN's RMStateStore): the one interface every store
// implements (memory_store.h for tests, sqlite_store.h the default, an etcd store for HA),
// and the typed records RmCore writes through it.
//
//   std::unique_ptr<StateStore> store = ...;              // store_factory.h picks one
//   if (StoreStatus s = store->open(); !s.isOk()) ...     // refuse to start: s.message()
//   StoreSnapshot snap;
//   if (StoreStatus s = store->load(snap); !s.isOk()) ...
//   auto epoch = store->bumpEpoch();                      // once per start, before any write
//   StoreBatch b;
//   b.put(RecordKind::kApp, app.appId, toJson(app));      // one batch = one state transition
//   b.put(RecordKind::kAttempt, attempt.attemptId, toJson(attempt));
//   if (StoreStatus s = store->apply(b); s.code() == StoreCode::kFenced) ... // deposed: stand by
//
// Model: a store holds records, each a (kind, key) -> JSON value; a batch of puts and erases is
// applied atomically (all or nothing), which an etcd txn, an SQLite transaction and a map swap
// all give. What is stored follows ZKRMStateStore's layout (rest-cli-protocols.md 2.1): apps with
// their submission contexts, attempts with their AM container and final state, reservations,
// admin node attributes, the epoch and the schema version. Live containers, queue usage and
// outstanding asks are not stored: NMs and AMs report them again after a restart (YARN-556).
//
// Errors: every call answers a StoreStatus whose code says what the RM must do.
//   kFenced       another RM is the leader now (a fenced write refused): go standby, never retry.
//   kFailed       the store could not write or read (disk full, I/O error, etcd unreachable):
//                 the RM stops serving writes rather than run without durability.
//   kCorrupt      the stored data is damaged (SQLite quick_check failed, a value that does not
//                 parse): refuse to start, name the file or key.
//   kIncompatible the schema version is one this build cannot read: refuse to start.
// Thread-compatible: one thread (the RM's scheduler thread) calls a store.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace spindle::store {

// The record layout this build writes. A store holding another version is upgraded when an
// upgrade step exists (older) or refused with kIncompatible (newer, or no step), never misread.
inline constexpr int kSchemaVersion = 1;

enum class StoreCode { kOk, kFenced, kFailed, kCorrupt, kIncompatible };
const char* toString(StoreCode c);

class [[nodiscard]] StoreStatus {
 public:
  StoreStatus() = default;
  StoreStatus(StoreCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static StoreStatus ok() { return {}; }
  bool isOk() const { return code_ == StoreCode::kOk; }
  StoreCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // As a spindle Status: kFenced and kFailed are FailedPrecondition, kCorrupt and
  // kIncompatible InvalidArgument (a bad input file); the message is kept.
  Status toStatus() const;

 private:
  StoreCode code_ = StoreCode::kOk;
  std::string message_;
};

// What a record is; each kind is a table in SQLite and a key prefix in etcd.
enum class RecordKind {
  kApp,             // key: application id; value: StoredApp
  kAttempt,         // key: attempt id (appattempt_..._000001); value: StoredAttempt
  kReservation,     // key: reservation id; value: the reservation as its REST JSON
  kNodeAttributes,  // key: host; value: the admin (centralised) attributes of the host
};
inline constexpr RecordKind kAllKinds[] = {RecordKind::kApp, RecordKind::kAttempt,
                                           RecordKind::kReservation, RecordKind::kNodeAttributes};
// "app", "attempt", "reservation", "node-attributes" (SQLite table suffix, etcd key segment).
const char* toString(RecordKind k);

struct StoreOp {
  enum class Type { kPut, kErase };
  Type type = Type::kPut;
  RecordKind kind = RecordKind::kApp;
  std::string key;
  nlohmann::json value;  // kPut only
};

// The writes of one state transition, applied atomically and in order.
class StoreBatch {
 public:
  void put(RecordKind kind, std::string key, nlohmann::json value) {
    ops_.push_back({StoreOp::Type::kPut, kind, std::move(key), std::move(value)});
  }
  void erase(RecordKind kind, std::string key) {
    ops_.push_back({StoreOp::Type::kErase, kind, std::move(key), {}});
  }
  bool empty() const { return ops_.empty(); }
  size_t size() const { return ops_.size(); }
  const std::vector<StoreOp>& ops() const { return ops_; }
  void clear() { ops_.clear(); }

 private:
  std::vector<StoreOp> ops_;
};

// Everything a store holds, for recovery.
struct StoreSnapshot {
  int schemaVersion = kSchemaVersion;
  uint64_t epoch = 0;  // the last epoch bumped (0: never started)
  // By kind, then key (ordered: apps come back in id order).
  std::map<RecordKind, std::map<std::string, nlohmann::json>> records;

  const std::map<std::string, nlohmann::json>& of(RecordKind k) const;
};

class StateStore {
 public:
  virtual ~StateStore() = default;
  // "memory", "sqlite:<path>", "etcd:<endpoints>": for logs and /ws/v1/cluster/info.
  virtual std::string name() const = 0;
  // Opens (creating when absent), checks integrity and the schema version, upgrades an older
  // one. kCorrupt / kIncompatible / kFailed: the RM must not start.
  virtual StoreStatus open() = 0;
  // Reads everything (after open()).
  virtual StoreStatus load(StoreSnapshot& out) = 0;
  // Stores epoch + 1 and answers it: the new epoch, which container ids carry (YARN's
  // EPOCH_NODE, incremented each time an RM becomes active).
  virtual StoreStatus bumpEpoch(uint64_t& epoch) = 0;
  // All the batch's operations or none. An erase of an absent key is not an error.
  virtual StoreStatus apply(const StoreBatch& batch) = 0;
};

// --- Typed records (state_records.cc encodes them; unknown JSON fields are ignored so a later
// additive change stays readable) ---

// YARN's ApplicationStateData: the app as submitted and its final state.
struct StoredApp {
  std::string appId;
  std::string user;
  std::string queue;
  std::string name;
  std::string type;
  int64_t submitTime = 0;
  int64_t startTime = 0;
  int64_t finishTime = 0;   // 0 while running
  std::string state;        // RMAppState name: SUBMITTED, ACCEPTED, RUNNING, FINISHED, ...
  std::string finalStatus;  // FinalApplicationStatus name: UNDEFINED, SUCCEEDED, ...
  std::string diagnostics;
  nlohmann::json submissionContext;  // ApplicationSubmissionContextInfo as POSTed
  uint32_t currentAttempt = 0;
};
nlohmann::json toJson(const StoredApp& a);
Result<StoredApp> storedAppFromJson(const nlohmann::json& j);

// YARN's ApplicationAttemptStateData.
struct StoredAttempt {
  std::string attemptId;  // appattempt_<clusterTs>_<app>_<attempt>
  std::string appId;
  uint32_t attempt = 0;
  int64_t startTime = 0;
  int64_t finishTime = 0;
  std::string amContainerId;
  std::string nodeId;
  std::string nodeHttpAddress;
  std::string state;  // RMAppAttemptState as the REST API shows it
  std::string finalStatus;
  std::string diagnostics;
  std::string trackingUrl;
  // The AM container's exit status when the attempt failed because its AM container ended
  // (ApplicationAttemptStateData.amContainerExitStatus); kNoExitStatus otherwise. Whether the
  // failure counts against the app's attempts follows from it after a restart.
  static constexpr int32_t kNoExitStatus = -1000;  // ContainerExitStatus.INVALID
  int32_t amContainerExitStatus = kNoExitStatus;
};
nlohmann::json toJson(const StoredAttempt& a);
Result<StoredAttempt> storedAttemptFromJson(const nlohmann::json& j);

// YARN's ReservationAllocationStateProto: an accepted reservation of a plan, as the agent
// placed it (the plan queue, the contract, the owner and the intervals), so a restarted RM
// puts it back into its plan without planning it again.
struct StoredReservation {
  struct Interval {
    int64_t start = 0;
    int64_t end = 0;
    int64_t memoryMb = 0;
    int32_t vcores = 0;
  };
  std::string reservationId;  // reservation_<clusterTs>_<sequence>
  std::string planQueue;      // the plan (reservable) queue's full path
  std::string user;
  int64_t acceptanceTime = 0;
  int64_t startTime = 0;
  int64_t endTime = 0;
  int64_t periodicity = 0;  // 0: not periodic
  // The ReservationDefinition as the REST API shows it (ReservationDefinitionInfo).
  nlohmann::json definition;
  // The agent's intervals (for a periodic reservation, its base over [0, periodicity)).
  std::vector<Interval> allocations;
};
nlohmann::json toJson(const StoredReservation& r);
Result<StoredReservation> storedReservationFromJson(const nlohmann::json& j);

}  // namespace spindle::store

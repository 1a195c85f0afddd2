// SqliteStore: the default state store, one SQLite file (rest-cli-protocols.md 2.4: WAL mode,
// one transaction per state transition, app history queryable).
//
//   SqliteStore store("/var/lib/spindle/rm-state.db");
//   if (StoreStatus s = store.open(); !s.isOk()) { std::cerr << s.message(); return 2; }
//   auto history = store.queryApps({.user = "alice", .limit = 50});
//
// Layout (schema version kSchemaVersion):
//   schema_version(version)                    one row
//   meta(name, value)                          'epoch'
//   apps(app_id, user, queue, name, type, state, final_status, submit_time, start_time,
//        finish_time, value)                   real columns for history queries, value = JSON
//   attempts(attempt_id, app_id, state, start_time, finish_time, value)
//   reservations(key, value), node_attributes(key, value)
// open():
//  1. an existing file is checked first, read-only in effect: PRAGMA quick_check must answer
//     "ok" and the file must hold a schema_version table; a damaged, truncated, empty or foreign
//     file is kCorrupt and is left exactly as it was.
//  2. a newer schema version is kIncompatible; an older one is upgraded step by step in one
//     transaction, or kIncompatible when no step exists.
//  3. journal_mode=WAL, synchronous as configured (NORMAL: a committed transaction survives the
//     RM process dying; FULL: also a power loss).
// A failed write (disk full, file size limit, I/O error) rolls its transaction back and answers
// kFailed: what was committed before stays loadable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/state_store.h"

struct sqlite3;

namespace spindle::store {

struct AppHistoryQuery {
  std::optional<std::string> user{};
  std::optional<std::string> queue{};
  std::optional<std::string> state{};
  int64_t submittedSince = 0;
  int limit = 100;
};

class SqliteStore : public StateStore {
 public:
  // `synchronous`: "NORMAL" or "FULL" (SQLite's PRAGMA synchronous).
  explicit SqliteStore(std::string path, std::string synchronous = "NORMAL");
  ~SqliteStore() override;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  std::string name() const override { return "sqlite:" + path_; }
  StoreStatus open() override;
  StoreStatus load(StoreSnapshot& out) override;
  StoreStatus bumpEpoch(uint64_t& epoch) override;
  StoreStatus apply(const StoreBatch& batch) override;

  // Finished and running apps, newest submission first.
  Result<std::vector<StoredApp>> queryApps(const AppHistoryQuery& q);

 private:
  StoreStatus exec(const std::string& sql, StoreCode onError = StoreCode::kFailed);
  StoreStatus checkExisting();
  StoreStatus createOrUpgrade();
  StoreStatus applyOp(const StoreOp& op);
  StoreStatus error(StoreCode code, const std::string& what) const;

  std::string path_;
  std::string synchronous_;
  sqlite3* db_ = nullptr;
};

}  // namespace spindle::store

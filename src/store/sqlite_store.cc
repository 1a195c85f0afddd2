#include "store/sqlite_store.h"

#include <sys/stat.h>

#include <sqlite3.h>

#include <fmt/format.h>

namespace spindle::store {

namespace {

// Upgrade steps: kUpgrades[i] takes a store from schema version i + 1 to i + 2. Version 1 is the
// first, so there are none yet; a step is appended with each layout change.
const std::vector<std::string> kUpgrades = {};

constexpr const char* kCreate = R"sql(
CREATE TABLE schema_version(version INTEGER NOT NULL);
CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE apps(app_id TEXT PRIMARY KEY, user TEXT, queue TEXT, name TEXT, type TEXT,
  state TEXT, final_status TEXT, submit_time INTEGER, start_time INTEGER, finish_time INTEGER,
  value TEXT NOT NULL);
CREATE INDEX apps_by_user ON apps(user, submit_time);
CREATE INDEX apps_by_queue ON apps(queue, submit_time);
CREATE INDEX apps_by_state ON apps(state, submit_time);
CREATE TABLE attempts(attempt_id TEXT PRIMARY KEY, app_id TEXT NOT NULL, state TEXT,
  start_time INTEGER, finish_time INTEGER, value TEXT NOT NULL);
CREATE INDEX attempts_by_app ON attempts(app_id);
CREATE TABLE reservations(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE node_attributes(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta(name, value) VALUES ('epoch', '0');
)sql";

const char* tableOf(RecordKind k) {
  switch (k) {
    case RecordKind::kApp: return "apps";
    case RecordKind::kAttempt: return "attempts";
    case RecordKind::kReservation: return "reservations";
    case RecordKind::kNodeAttributes: return "node_attributes";
  }
  return "?";
}

const char* keyColumnOf(RecordKind k) {
  switch (k) {
    case RecordKind::kApp: return "app_id";
    case RecordKind::kAttempt: return "attempt_id";
    default: return "key";
  }
}

// A prepared statement that finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const std::string& sql) {
    rc_ = sqlite3_prepare_v2(db, sql.c_str(), -1, &s_, nullptr);
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return rc_ == SQLITE_OK; }
  sqlite3_stmt* get() const { return s_; }
  void text(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void integer(int i, int64_t v) { sqlite3_bind_int64(s_, i, v); }
  std::string column(int i) const {
    const unsigned char* t = sqlite3_column_text(s_, i);
    return t ? reinterpret_cast<const char*>(t) : "";
  }

 private:
  sqlite3_stmt* s_ = nullptr;
  int rc_ = SQLITE_OK;
};

bool fileSize(const std::string& path, int64_t& size) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  size = st.st_size;
  return true;
}

}  // namespace

SqliteStore::SqliteStore(std::string path, std::string synchronous)
    : path_(std::move(path)), synchronous_(std::move(synchronous)) {}

SqliteStore::~SqliteStore() {
  if (db_) sqlite3_close_v2(db_);
}

StoreStatus SqliteStore::error(StoreCode code, const std::string& what) const {
  return {code, fmt::format("state store {}: {}: {}", path_, what,
                            db_ ? sqlite3_errmsg(db_) : "cannot open")};
}

StoreStatus SqliteStore::exec(const std::string& sql, StoreCode onError) {
  char* msg = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) {
    std::string m = msg ? msg : "unknown error";
    sqlite3_free(msg);
    return {onError, fmt::format("state store {}: {}", path_, m)};
  }
  return StoreStatus::ok();
}

// Step 1 of open(), on a read-only handle so a damaged file is never written.
StoreStatus SqliteStore::checkExisting() {
  int64_t size = 0;
  if (!fileSize(path_, size)) return StoreStatus::ok();  // absent: created below
  if (size == 0) {
    return {StoreCode::kCorrupt,
            fmt::format("state store {}: the file is empty (truncated?); refusing to start on it "
                        "(move it away to start with an empty store)",
                        path_)};
  }
  sqlite3* ro = nullptr;
  int rc = sqlite3_open_v2(path_.c_str(), &ro, SQLITE_OPEN_READONLY, nullptr);
  // sqlite3_close_v2: a failure inside the block below closes while its statements are still
  // alive; the handle is freed when the last one is finalised (sqlite3_close would refuse and
  // leak it).
  auto fail = [&](const std::string& why) {
    StoreStatus s{StoreCode::kCorrupt,
                  fmt::format("state store {}: {}; refusing to start (the file is left as it is)",
                              path_, why)};
    sqlite3_close_v2(ro);
    return s;
  };
  if (rc != SQLITE_OK) return fail(fmt::format("cannot open: {}", sqlite3_errstr(rc)));
  {
    Stmt check(ro, "PRAGMA quick_check");
    if (!check.ok())
      return fail(fmt::format("not a valid SQLite database ({})", sqlite3_errmsg(ro)));
    std::string verdict;
    while ((rc = sqlite3_step(check.get())) == SQLITE_ROW) {
      if (!verdict.empty()) verdict += "; ";
      verdict += check.column(0);
    }
    if (rc != SQLITE_DONE) {
      return fail(fmt::format("damaged or truncated ({})", sqlite3_errmsg(ro)));
    }
    if (verdict != "ok") return fail(fmt::format("integrity check failed: {}", verdict));
    Stmt table(ro, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'");
    if (!table.ok() || sqlite3_step(table.get()) != SQLITE_ROW) {
      return fail("not a Spindle state store (no schema_version table)");
    }
  }
  sqlite3_close_v2(ro);
  return StoreStatus::ok();
}

StoreStatus SqliteStore::createOrUpgrade() {
  int version = 0;
  {
    Stmt has(db_, "SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'");
    if (!has.ok()) return error(StoreCode::kCorrupt, "reading the schema");
    if (sqlite3_step(has.get()) != SQLITE_ROW) {
      // A new store: the whole schema in one transaction.
      if (StoreStatus s = exec("BEGIN IMMEDIATE"); !s.isOk()) return s;
      StoreStatus s = exec(kCreate);
      if (s.isOk()) {
        s = exec(fmt::format("INSERT INTO schema_version(version) VALUES ({})", kSchemaVersion));
      }
      if (!s.isOk()) {
        (void)exec("ROLLBACK");
        return s;
      }
      return exec("COMMIT");
    }
    Stmt v(db_, "SELECT version FROM schema_version");
    if (!v.ok() || sqlite3_step(v.get()) != SQLITE_ROW) {
      return {StoreCode::kCorrupt, fmt::format("state store {}: schema_version has no row", path_)};
    }
    version = sqlite3_column_int(v.get(), 0);
  }
  if (version == kSchemaVersion) return StoreStatus::ok();
  if (version > kSchemaVersion) {
    return {StoreCode::kIncompatible,
            fmt::format("state store {}: schema version {} was written by a newer Spindle; this "
                        "build reads version {} and will not misread it",
                        path_, version, kSchemaVersion)};
  }
  if (version < 1 || static_cast<size_t>(kSchemaVersion - 1) > kUpgrades.size()) {
    return {StoreCode::kIncompatible,
            fmt::format("state store {}: schema version {} cannot be upgraded to version {}", path_,
                        version, kSchemaVersion)};
  }
  if (StoreStatus s = exec("BEGIN IMMEDIATE"); !s.isOk()) return s;
  for (int v = version; v < kSchemaVersion; ++v) {
    if (StoreStatus s = exec(kUpgrades[v - 1]); !s.isOk()) {
      (void)exec("ROLLBACK");
      return s;
    }
  }
  StoreStatus s = exec(fmt::format("UPDATE schema_version SET version = {}", kSchemaVersion));
  if (!s.isOk()) {
    (void)exec("ROLLBACK");
    return s;
  }
  return exec("COMMIT");
}

StoreStatus SqliteStore::open() {
  if (synchronous_ != "NORMAL" && synchronous_ != "FULL") {
    return {StoreCode::kFailed,
            fmt::format("state store {}: synchronous must be NORMAL or FULL, not '{}'", path_,
                        synchronous_)};
  }
  if (StoreStatus s = checkExisting(); !s.isOk()) return s;
  int rc =
      sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    StoreStatus s = error(StoreCode::kFailed, "cannot open or create");
    sqlite3_close_v2(db_);
    db_ = nullptr;
    return s;
  }
  sqlite3_busy_timeout(db_, 2000);
  if (StoreStatus s = exec("PRAGMA journal_mode=WAL"); !s.isOk()) return s;
  if (StoreStatus s = exec("PRAGMA synchronous=" + synchronous_); !s.isOk()) return s;
  return createOrUpgrade();
}

StoreStatus SqliteStore::load(StoreSnapshot& out) {
  out = StoreSnapshot{};
  {
    Stmt e(db_, "SELECT value FROM meta WHERE name = 'epoch'");
    if (!e.ok() || sqlite3_step(e.get()) != SQLITE_ROW) {
      return error(StoreCode::kCorrupt, "reading the epoch");
    }
    out.epoch = std::stoull(e.column(0));
  }
  for (RecordKind k : kAllKinds) {
    Stmt s(db_, fmt::format("SELECT {}, value FROM {}", keyColumnOf(k), tableOf(k)));
    if (!s.ok()) return error(StoreCode::kCorrupt, fmt::format("reading {}", tableOf(k)));
    auto& table = out.records[k];
    int rc;
    while ((rc = sqlite3_step(s.get())) == SQLITE_ROW) {
      std::string key = s.column(0);
      auto value = nlohmann::json::parse(s.column(1), nullptr, false);
      if (value.is_discarded()) {
        return {StoreCode::kCorrupt,
                fmt::format("state store {}: {} '{}' holds invalid JSON", path_, toString(k), key)};
      }
      table.emplace(std::move(key), std::move(value));
    }
    if (rc != SQLITE_DONE) return error(StoreCode::kCorrupt, fmt::format("reading {}", tableOf(k)));
  }
  return StoreStatus::ok();
}

StoreStatus SqliteStore::bumpEpoch(uint64_t& epoch) {
  if (StoreStatus s = exec("BEGIN IMMEDIATE"); !s.isOk()) return s;
  uint64_t current = 0;
  {
    Stmt e(db_, "SELECT value FROM meta WHERE name = 'epoch'");
    if (!e.ok() || sqlite3_step(e.get()) != SQLITE_ROW) {
      (void)exec("ROLLBACK");
      return error(StoreCode::kCorrupt, "reading the epoch");
    }
    current = std::stoull(e.column(0));
  }
  StoreStatus s =
      exec(fmt::format("UPDATE meta SET value = '{}' WHERE name = 'epoch'", current + 1));
  if (s.isOk()) s = exec("COMMIT");
  if (!s.isOk()) {
    (void)exec("ROLLBACK");
    return s;
  }
  epoch = current + 1;
  return StoreStatus::ok();
}

StoreStatus SqliteStore::applyOp(const StoreOp& op) {
  const char* table = tableOf(op.kind);
  if (op.type == StoreOp::Type::kErase) {
    Stmt s(db_, fmt::format("DELETE FROM {} WHERE {} = ?1", table, keyColumnOf(op.kind)));
    s.text(1, op.key);
    if (!s.ok() || sqlite3_step(s.get()) != SQLITE_DONE) {
      return error(StoreCode::kFailed, fmt::format("erasing {} '{}'", toString(op.kind), op.key));
    }
    return StoreStatus::ok();
  }
  std::string value = op.value.dump();
  auto str = [&](const char* f) {
    auto it = op.value.find(f);
    return it != op.value.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  auto num = [&](const char* f) {
    auto it = op.value.find(f);
    return it != op.value.end() && it->is_number_integer() ? it->get<int64_t>() : int64_t{0};
  };
  std::string sql;
  if (op.kind == RecordKind::kApp) {
    sql =
        "INSERT OR REPLACE INTO apps(app_id, user, queue, name, type, state, final_status, "
        "submit_time, start_time, finish_time, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
        "?9, ?10, ?11)";
  } else if (op.kind == RecordKind::kAttempt) {
    sql =
        "INSERT OR REPLACE INTO attempts(attempt_id, app_id, state, start_time, finish_time, "
        "value) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
  } else {
    sql = fmt::format("INSERT OR REPLACE INTO {}(key, value) VALUES (?1, ?2)", table);
  }
  Stmt s(db_, sql);
  if (!s.ok()) return error(StoreCode::kFailed, fmt::format("writing {}", toString(op.kind)));
  s.text(1, op.key);
  if (op.kind == RecordKind::kApp) {
    s.text(2, str("user"));
    s.text(3, str("queue"));
    s.text(4, str("name"));
    s.text(5, str("type"));
    s.text(6, str("state"));
    s.text(7, str("finalStatus"));
    s.integer(8, num("submitTime"));
    s.integer(9, num("startTime"));
    s.integer(10, num("finishTime"));
    s.text(11, value);
  } else if (op.kind == RecordKind::kAttempt) {
    s.text(2, str("appId"));
    s.text(3, str("state"));
    s.integer(4, num("startTime"));
    s.integer(5, num("finishTime"));
    s.text(6, value);
  } else {
    s.text(2, value);
  }
  if (sqlite3_step(s.get()) != SQLITE_DONE) {
    return error(StoreCode::kFailed, fmt::format("writing {} '{}'", toString(op.kind), op.key));
  }
  return StoreStatus::ok();
}

StoreStatus SqliteStore::apply(const StoreBatch& batch) {
  if (batch.empty()) return StoreStatus::ok();
  if (StoreStatus s = exec("BEGIN IMMEDIATE"); !s.isOk()) return s;
  for (const StoreOp& op : batch.ops()) {
    if (StoreStatus s = applyOp(op); !s.isOk()) {
      (void)exec("ROLLBACK");
      return s;
    }
  }
  if (StoreStatus s = exec("COMMIT"); !s.isOk()) {
    (void)exec("ROLLBACK");
    return s;
  }
  return StoreStatus::ok();
}

Result<std::vector<StoredApp>> SqliteStore::queryApps(const AppHistoryQuery& q) {
  std::string sql = "SELECT value FROM apps WHERE submit_time >= ?1";
  if (q.user) sql += " AND user = ?2";
  if (q.queue) sql += " AND queue = ?3";
  if (q.state) sql += " AND state = ?4";
  sql += " ORDER BY submit_time DESC, app_id DESC LIMIT ?5";
  Stmt s(db_, sql);
  if (!s.ok()) return failedPrecondition("state store {}: {}", path_, sqlite3_errmsg(db_));
  s.integer(1, q.submittedSince);
  if (q.user) s.text(2, *q.user);
  if (q.queue) s.text(3, *q.queue);
  if (q.state) s.text(4, *q.state);
  s.integer(5, q.limit);
  std::vector<StoredApp> out;
  while (sqlite3_step(s.get()) == SQLITE_ROW) {
    auto app = storedAppFromJson(nlohmann::json::parse(s.column(0), nullptr, false));
    if (!app) return app.status();
    out.push_back(std::move(*app));
  }
  return out;
}

}  // namespace spindle::store

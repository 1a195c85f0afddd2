// The memory and SQLite stores behind StateStore: round trips, atomic batches, the epoch,
// schema versions, corrupt and truncated files, failed writes, history queries, the factory.
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "store/memory_store.h"
#include "store/sqlite_store.h"
#include "store/store_factory.h"

namespace spindle::store {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/spindle_store_test_XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

StoredApp app(const std::string& id, const std::string& user, const std::string& state,
              int64_t submit) {
  StoredApp a;
  a.appId = id;
  a.user = user;
  a.queue = "root.default";
  a.name = "job " + id;
  a.type = "YARN";
  a.submitTime = submit;
  a.state = state;
  a.finalStatus = "UNDEFINED";
  a.submissionContext = {{"application-id", id}, {"am-container-spec", {{"commands", "x"}}}};
  a.currentAttempt = 1;
  return a;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The same checks for every store: put, erase, batches, epoch, reload.
void roundTrip(StateStore& store) {
  ASSERT_TRUE(store.open().isOk());
  uint64_t epoch = 0;
  ASSERT_TRUE(store.bumpEpoch(epoch).isOk());
  EXPECT_EQ(epoch, 1u);
  ASSERT_TRUE(store.bumpEpoch(epoch).isOk());
  EXPECT_EQ(epoch, 2u);

  StoreBatch b;
  b.put(RecordKind::kApp, "application_1_0001",
        toJson(app("application_1_0001", "ann", "ACCEPTED", 10)));
  StoredAttempt at;
  at.attemptId = "appattempt_1_0001_000001";
  at.appId = "application_1_0001";
  at.attempt = 1;
  at.amContainerId = "container_e2_1_0001_01_000001";
  at.state = "RUNNING";
  b.put(RecordKind::kAttempt, at.attemptId, toJson(at));
  b.put(RecordKind::kNodeAttributes, "host1", {{"rm.yarn.io/os", "linux"}});
  b.put(RecordKind::kReservation, "reservation_1_0001", {{"queue", "root.a"}});
  ASSERT_TRUE(store.apply(b).isOk());
  StoreBatch b2;
  b2.put(RecordKind::kApp, "application_1_0002",
         toJson(app("application_1_0002", "bob", "FINISHED", 20)));
  b2.erase(RecordKind::kReservation, "reservation_1_0001");
  b2.erase(RecordKind::kReservation, "absent");
  ASSERT_TRUE(store.apply(b2).isOk());

  StoreSnapshot snap;
  ASSERT_TRUE(store.load(snap).isOk());
  EXPECT_EQ(snap.epoch, 2u);
  EXPECT_EQ(snap.schemaVersion, kSchemaVersion);
  ASSERT_EQ(snap.of(RecordKind::kApp).size(), 2u);
  auto a = storedAppFromJson(snap.of(RecordKind::kApp).at("application_1_0001"));
  ASSERT_TRUE(a.isOk()) << a.status().message();
  EXPECT_EQ(a->user, "ann");
  EXPECT_EQ(a->submissionContext["am-container-spec"]["commands"], "x");
  auto att = storedAttemptFromJson(snap.of(RecordKind::kAttempt).at("appattempt_1_0001_000001"));
  ASSERT_TRUE(att.isOk());
  EXPECT_EQ(att->amContainerId, "container_e2_1_0001_01_000001");
  EXPECT_EQ(snap.of(RecordKind::kNodeAttributes).at("host1")["rm.yarn.io/os"], "linux");
  EXPECT_TRUE(snap.of(RecordKind::kReservation).empty());
}

TEST(MemoryStore, RoundTripAndSharedData) {
  auto data = std::make_shared<MemoryStoreData>();
  MemoryStore store(data);
  roundTrip(store);
  MemoryStore again(data);  // a restarted RM on the same data
  StoreSnapshot snap;
  ASSERT_TRUE(again.open().isOk());
  ASSERT_TRUE(again.load(snap).isOk());
  EXPECT_EQ(snap.of(RecordKind::kApp).size(), 2u);
}

TEST(MemoryStore, FencedAndFailedWritesChangeNothing) {
  auto data = std::make_shared<MemoryStoreData>();
  MemoryStore store(data);
  ASSERT_TRUE(store.open().isOk());
  StoreBatch b;
  b.put(RecordKind::kApp, "application_1_0001", toJson(app("application_1_0001", "a", "NEW", 1)));
  data->fenced = true;
  EXPECT_EQ(store.apply(b).code(), StoreCode::kFenced);
  uint64_t e = 0;
  EXPECT_EQ(store.bumpEpoch(e).code(), StoreCode::kFenced);
  data->fenced = false;
  data->failWrites = true;
  EXPECT_EQ(store.apply(b).code(), StoreCode::kFailed);
  EXPECT_TRUE(data->snapshot.of(RecordKind::kApp).empty());
  EXPECT_EQ(data->snapshot.epoch, 0u);
}

TEST(MemoryStore, RefusesAnotherSchemaVersion) {
  auto data = std::make_shared<MemoryStoreData>();
  data->snapshot.schemaVersion = kSchemaVersion + 1;
  MemoryStore store(data);
  StoreStatus s = store.open();
  EXPECT_EQ(s.code(), StoreCode::kIncompatible);
  EXPECT_NE(s.message().find("schema version"), std::string::npos);
}

TEST(SqliteStore, RoundTripSurvivesReopen) {
  TempDir dir;
  {
    SqliteStore store(dir.file("rm.db"));
    roundTrip(store);
  }
  SqliteStore again(dir.file("rm.db"), "FULL");
  ASSERT_TRUE(again.open().isOk());
  StoreSnapshot snap;
  ASSERT_TRUE(again.load(snap).isOk());
  EXPECT_EQ(snap.epoch, 2u);
  EXPECT_EQ(snap.of(RecordKind::kApp).size(), 2u);
  EXPECT_EQ(snap.of(RecordKind::kAttempt).size(), 1u);
  uint64_t e = 0;
  ASSERT_TRUE(again.bumpEpoch(e).isOk());
  EXPECT_EQ(e, 3u);
}

TEST(SqliteStore, UsesWalAndQueriesHistoryByColumns) {
  TempDir dir;
  SqliteStore store(dir.file("rm.db"));
  ASSERT_TRUE(store.open().isOk());
  for (int i = 1; i <= 6; ++i) {
    StoreBatch b;
    std::string id = "application_1_000" + std::to_string(i);
    b.put(RecordKind::kApp, id,
          toJson(app(id, i % 2 ? "ann" : "bob", i < 4 ? "FINISHED" : "RUNNING", i * 100)));
    ASSERT_TRUE(store.apply(b).isOk());
  }
  auto ann = store.queryApps({.user = "ann"});
  ASSERT_TRUE(ann.isOk());
  ASSERT_EQ(ann->size(), 3u);
  EXPECT_EQ((*ann)[0].appId, "application_1_0005");  // newest first
  auto finished = store.queryApps({.state = "FINISHED", .limit = 2});
  ASSERT_TRUE(finished.isOk());
  ASSERT_EQ(finished->size(), 2u);
  EXPECT_EQ((*finished)[0].appId, "application_1_0003");
  auto recent = store.queryApps({.submittedSince = 500});
  ASSERT_TRUE(recent.isOk());
  EXPECT_EQ(recent->size(), 2u);
  // The real columns, seen by another SQLite reader; and WAL mode.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(dir.file("rm.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(db, "SELECT count(*) FROM apps WHERE user='bob' AND state='RUNNING'", -1, &st,
                     nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), 2);
  sqlite3_finalize(st);
  sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "wal");
  sqlite3_finalize(st);
  sqlite3_close(db);
}

void setVersion(const std::string& path, int version) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  std::string sql = "UPDATE schema_version SET version = " + std::to_string(version);
  ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
}

TEST(SqliteStore, RefusesNewerAndUnknownOlderSchema) {
  TempDir dir;
  std::string path = dir.file("rm.db");
  {
    SqliteStore store(path);
    ASSERT_TRUE(store.open().isOk());
  }
  setVersion(path, kSchemaVersion + 1);
  {
    SqliteStore store(path);
    StoreStatus s = store.open();
    EXPECT_EQ(s.code(), StoreCode::kIncompatible);
    EXPECT_NE(s.message().find("newer Spindle"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(path), std::string::npos);
  }
  setVersion(path, 0);
  SqliteStore store(path);
  StoreStatus s = store.open();
  EXPECT_EQ(s.code(), StoreCode::kIncompatible);
  EXPECT_NE(s.message().find("cannot be upgraded"), std::string::npos) << s.message();
}

TEST(SqliteStore, CorruptTruncatedEmptyAndForeignFilesAreRefusedUntouched) {
  TempDir dir;
  std::string path = dir.file("rm.db");
  {
    SqliteStore store(path);
    ASSERT_TRUE(store.open().isOk());
    for (int i = 0; i < 200; ++i) {
      StoreBatch b;
      std::string id = "application_1_" + std::to_string(1000 + i);
      b.put(RecordKind::kApp, id, toJson(app(id, "ann", "RUNNING", i)));
      ASSERT_TRUE(store.apply(b).isOk());
    }
  }  // closing checkpoints the WAL into the file
  std::string good = readAll(path);
  ASSERT_GT(good.size(), 8192u);

  auto refused = [&](const std::string& bytes, const char* why) {
    { std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes; }
    SqliteStore store(path);
    StoreStatus s = store.open();
    EXPECT_EQ(s.code(), StoreCode::kCorrupt) << why << ": " << s.message();
    EXPECT_NE(s.message().find(path), std::string::npos) << why;
    EXPECT_EQ(readAll(path), bytes) << why << ": the file was changed";
  };
  refused(good.substr(0, good.size() / 2), "truncated");
  std::string garbled = good;
  for (size_t i = 4096; i < 4096 + 600; ++i) garbled[i] = static_cast<char>(0x5a);
  refused(garbled, "garbled page");
  std::string header = good;
  header.replace(0, 16, "not a database!!");
  refused(header, "bad header");
  refused("", "empty");
  refused("hello, this is a text file and not SQLite at all\n", "text");
}

TEST(SqliteStore, ForeignSqliteDatabaseIsRefused) {
  TempDir dir;
  std::string path = dir.file("other.db");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE t(x)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  SqliteStore store(path);
  StoreStatus s = store.open();
  EXPECT_EQ(s.code(), StoreCode::kCorrupt);
  EXPECT_NE(s.message().find("not a Spindle state store"), std::string::npos) << s.message();
}

TEST(SqliteStore, FailedWriteRollsBackAndKeepsWhatWasStored) {
  TempDir dir;
  std::string path = dir.file("rm.db");
  SqliteStore store(path);
  ASSERT_TRUE(store.open().isOk());
  StoreBatch first;
  first.put(RecordKind::kApp, "application_1_0001",
            toJson(app("application_1_0001", "a", "RUNNING", 1)));
  ASSERT_TRUE(store.apply(first).isOk());
  // A file size limit the next transaction cannot fit in (the full disk of the fault test).
  struct rlimit old {};
  getrlimit(RLIMIT_FSIZE, &old);
  auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit tight = old;
  tight.rlim_cur = static_cast<rlim_t>(fs::file_size(path) + fs::file_size(path + "-wal"));
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &tight), 0);
  StoreBatch big;
  std::string blob(200000, 'x');
  for (int i = 0; i < 5; ++i) {
    std::string id = "application_1_100" + std::to_string(i);
    StoredApp a = app(id, "a", "RUNNING", 2);
    a.diagnostics = blob;
    big.put(RecordKind::kApp, id, toJson(a));
  }
  StoreStatus s = store.apply(big);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, oldHandler);
  EXPECT_EQ(s.code(), StoreCode::kFailed) << s.message();
  EXPECT_NE(s.message().find(path), std::string::npos);
  StoreSnapshot snap;
  ASSERT_TRUE(store.load(snap).isOk());
  EXPECT_EQ(snap.of(RecordKind::kApp).size(), 1u);
  SqliteStore reopened(path);
  ASSERT_TRUE(reopened.open().isOk());
  ASSERT_TRUE(reopened.load(snap).isOk());
  EXPECT_EQ(snap.of(RecordKind::kApp).count("application_1_0001"), 1u);
  EXPECT_EQ(snap.of(RecordKind::kApp).size(), 1u);
}

TEST(StoreFactory, MapsYarnClassNamesAndShortNames) {
  Configuration conf;
  EXPECT_EQ(*storeKind(conf), "sqlite");
  conf.set(kStoreClassKey, "org.apache.hadoop.yarn.server.resourcemanager.recovery.ZKRMStateStore");
  EXPECT_EQ(*storeKind(conf), "etcd");
  conf.set(kStoreClassKey,
           "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore");
  EXPECT_EQ(*storeKind(conf), "sqlite");
  conf.set(kStoreClassKey,
           "org.apache.hadoop.yarn.server.resourcemanager.recovery.MemoryRMStateStore");
  EXPECT_EQ(*storeKind(conf), "memory");
  conf.set(kStoreClassKey, "redis");
  auto bad = storeKind(conf);
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().message().find("redis"), std::string::npos);
  conf.set(kStoreClassKey, "NullRMStateStore");
  EXPECT_FALSE(storeKind(conf).isOk());
}

TEST(StoreFactory, RecoveryOffMeansNoStoreAndSqliteNeedsAPath) {
  Configuration conf;
  auto none = createStateStore(conf);
  ASSERT_TRUE(none.isOk());
  EXPECT_EQ(none->get(), nullptr);
  conf.set(kRecoveryEnabledKey, "true");
  auto noPath = createStateStore(conf);
  ASSERT_FALSE(noPath.isOk());
  EXPECT_NE(noPath.status().message().find(kSqlitePathKey), std::string::npos);
  TempDir dir;
  conf.set(kSqlitePathKey, dir.file("rm.db"));
  auto sqlite = createStateStore(conf);
  ASSERT_TRUE(sqlite.isOk());
  EXPECT_EQ((*sqlite)->name(), "sqlite:" + dir.file("rm.db"));
  conf.set(kStoreClassKey, "etcd");
  EXPECT_FALSE(createStateStore(conf).isOk());
  bool called = false;
  auto etcd = createStateStore(
      conf, {{"etcd", [&](const Configuration&) {
                called = true;
                return Result<std::unique_ptr<StateStore>>(std::make_unique<MemoryStore>());
              }}});
  ASSERT_TRUE(etcd.isOk());
  EXPECT_TRUE(called);
}

}  // namespace
}  // namespace spindle::store

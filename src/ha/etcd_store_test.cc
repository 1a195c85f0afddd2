#include "ha/etcd_store.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ha/etcd_test_env.h"
#include "ha/leader_elector.h"

namespace spindle::ha {
namespace {

using store::RecordKind;
using store::StoreBatch;
using store::StoreCode;
using store::StoreSnapshot;

TEST(EtcdStore, OpensLoadsAndKeepsBatchesAndTheEpoch) {
  EtcdClient etcd(testEtcdEndpoints());
  EtcdStore s(etcd, testPrefix());
  ASSERT_TRUE(s.open().isOk());
  EXPECT_EQ(s.name().rfind("etcd:127.0.0.1:", 0), 0u) << s.name();
  uint64_t epoch = 0;
  ASSERT_TRUE(s.bumpEpoch(epoch).isOk());
  EXPECT_EQ(epoch, 1u);
  ASSERT_TRUE(s.bumpEpoch(epoch).isOk());
  EXPECT_EQ(epoch, 2u);
  StoreBatch b;
  b.put(RecordKind::kApp, "application_1_0001", {{"appId", "application_1_0001"}});
  b.put(RecordKind::kAttempt, "appattempt_1_0001_000001", {{"attempt", 1}});
  b.put(RecordKind::kApp, "application_1_0002", {{"appId", "application_1_0002"}});
  ASSERT_TRUE(s.apply(b).isOk());
  StoreBatch e;
  e.erase(RecordKind::kApp, "application_1_0002");
  e.erase(RecordKind::kApp, "never-stored");
  ASSERT_TRUE(s.apply(e).isOk());

  EtcdStore reopened(etcd, testPrefix());
  ASSERT_TRUE(reopened.open().isOk());
  StoreSnapshot snap;
  auto loaded = reopened.load(snap);
  ASSERT_TRUE(loaded.isOk()) << loaded.message();
  EXPECT_EQ(snap.epoch, 2u);
  EXPECT_EQ(snap.schemaVersion, store::kSchemaVersion);
  ASSERT_EQ(snap.of(RecordKind::kApp).size(), 1u);
  EXPECT_EQ(snap.of(RecordKind::kApp).at("application_1_0001")["appId"], "application_1_0001");
  EXPECT_EQ(snap.of(RecordKind::kAttempt).at("appattempt_1_0001_000001")["attempt"], 1);
}

TEST(EtcdStore, LoadsMoreRecordsThanOnePage) {
  EtcdClient etcd(testEtcdEndpoints());
  EtcdStore s(etcd, testPrefix());
  ASSERT_TRUE(s.open().isOk());
  for (int i = 0; i < 12; ++i) {
    StoreBatch b;
    for (int j = 0; j < 100; ++j) {
      b.put(RecordKind::kApp, fmt::format("app_{}", i * 100 + j + 10000), {{"n", i * 100 + j}});
    }
    ASSERT_TRUE(s.apply(b).isOk());
  }
  StoreSnapshot snap;
  ASSERT_TRUE(s.load(snap).isOk());
  EXPECT_EQ(snap.of(RecordKind::kApp).size(), 1200u);
}

TEST(EtcdStore, ABatchOverEtcdsTxnLimitIsRefusedWhole) {
  EtcdClient etcd(testEtcdEndpoints());
  EtcdStore s(etcd, testPrefix());
  ASSERT_TRUE(s.open().isOk());
  StoreBatch b;
  for (int j = 0; j < 200; ++j) b.put(RecordKind::kApp, fmt::format("a{}", j), {{"n", j}});
  auto r = s.apply(b);
  EXPECT_EQ(r.code(), StoreCode::kFailed);
  EXPECT_NE(r.message().find("max-txn-ops"), std::string::npos) << r.message();
  StoreSnapshot snap;
  ASSERT_TRUE(s.load(snap).isOk());
  EXPECT_TRUE(snap.of(RecordKind::kApp).empty());
}

TEST(EtcdStore, ADeposedLeaderCannotWrite) {
  EtcdClient etcd1(testEtcdEndpoints()), etcd2(testEtcdEndpoints());
  SimulatedClock clock(0);
  const std::string leaderKey = testPrefix() + "leader";
  LeaderElector rm1(etcd1, clock, {.leaderKey = leaderKey, .candidate = "rm1", .ttlSeconds = 30});
  LeaderElector rm2(etcd2, clock, {.leaderKey = leaderKey, .candidate = "rm2", .ttlSeconds = 30});
  ASSERT_TRUE(rm1.campaign().value());
  EtcdStore store1(etcd1, testPrefix());
  store1.setFence({leaderKey, rm1.fencingToken()});
  ASSERT_TRUE(store1.open().isOk());
  StoreBatch b;
  b.put(RecordKind::kApp, "application_1_0001", {{"by", "rm1"}});
  ASSERT_TRUE(store1.apply(b).isOk());

  // rm1 pauses; its key goes (the lease expired) and rm2 takes over.
  ASSERT_TRUE(etcd2.deleteRange(leaderKey));
  ASSERT_TRUE(rm2.campaign().value());
  EtcdStore store2(etcd2, testPrefix());
  store2.setFence({leaderKey, rm2.fencingToken()});
  uint64_t epoch = 0;
  ASSERT_TRUE(store2.bumpEpoch(epoch).isOk());

  StoreBatch late;
  late.put(RecordKind::kApp, "application_1_0001", {{"by", "rm1-late"}});
  late.put(RecordKind::kApp, "application_1_0002", {{"by", "rm1-late"}});
  auto refused = store1.apply(late);
  EXPECT_EQ(refused.code(), StoreCode::kFenced);
  EXPECT_NE(refused.message().find("rm2"), std::string::npos) << refused.message();
  uint64_t e1 = 0;
  EXPECT_EQ(store1.bumpEpoch(e1).code(), StoreCode::kFenced);

  StoreSnapshot snap;
  ASSERT_TRUE(store2.load(snap).isOk());
  ASSERT_EQ(snap.of(RecordKind::kApp).size(), 1u);
  EXPECT_EQ(snap.of(RecordKind::kApp).at("application_1_0001")["by"], "rm1");
  EXPECT_EQ(snap.epoch, 1u);
  ASSERT_TRUE(rm2.resign().isOk());
}

TEST(EtcdStore, RefusesANewerSchemaAndGarbage) {
  EtcdClient etcd(testEtcdEndpoints());
  const std::string p = testPrefix();
  ASSERT_TRUE(etcd.put(p + "store/version", "99"));
  EtcdStore s(etcd, p);
  auto r = s.open();
  EXPECT_EQ(r.code(), StoreCode::kIncompatible);
  EXPECT_NE(r.message().find("schema 99"), std::string::npos) << r.message();
  ASSERT_TRUE(etcd.put(p + "store/version", "1"));
  ASSERT_TRUE(s.open().isOk());
  ASSERT_TRUE(etcd.put(p + "store/app/application_1_0001", "{not json"));
  StoreSnapshot snap;
  auto bad = s.load(snap);
  EXPECT_EQ(bad.code(), StoreCode::kCorrupt);
  EXPECT_NE(bad.message().find("application_1_0001"), std::string::npos) << bad.message();
}

TEST(EtcdStore, UnreachableEtcdIsAFailureNamingIt) {
  EtcdClient down({{"127.0.0.1", 1}}, 300);
  EtcdStore s(down, "/x");
  auto r = s.open();
  EXPECT_EQ(r.code(), StoreCode::kFailed);
  EXPECT_NE(r.message().find("unreachable"), std::string::npos) << r.message();
}

}  // namespace
}  // namespace spindle::ha

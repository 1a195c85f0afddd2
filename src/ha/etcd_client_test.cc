#include "ha/etcd_client.h"

#include <gtest/gtest.h>

#include "ha/etcd_test_env.h"

namespace spindle::ha {
namespace {

TEST(Base64, RoundTripsEveryLength) {
  EXPECT_EQ(base64Encode(""), "");
  EXPECT_EQ(base64Encode("f"), "Zg==");
  EXPECT_EQ(base64Encode("fo"), "Zm8=");
  EXPECT_EQ(base64Encode("foo"), "Zm9v");
  EXPECT_EQ(base64Encode("foobar"), "Zm9vYmFy");
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t n = 0; n < bytes.size(); n += 7) {
    auto back = base64Decode(base64Encode(bytes.substr(0, n)));
    ASSERT_TRUE(back) << back.status().message();
    EXPECT_EQ(*back, bytes.substr(0, n));
  }
  EXPECT_FALSE(base64Decode("Zm9v!"));
  EXPECT_FALSE(base64Decode("Zm9"));
}

TEST(EtcdEndpoints, ParsesListsAndNamesTheBadEntry) {
  auto e = parseEtcdEndpoints("http://127.0.0.1:2379, localhost:22379/");
  ASSERT_TRUE(e) << e.status().message();
  ASSERT_EQ(e->size(), 2u);
  EXPECT_EQ((*e)[0].toString(), "127.0.0.1:2379");
  EXPECT_EQ((*e)[1].toString(), "localhost:22379");
  auto bad = parseEtcdEndpoints("127.0.0.1:2379,host-without-port");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.status().message().find("host-without-port"), std::string::npos);
  EXPECT_FALSE(parseEtcdEndpoints(""));
  EXPECT_FALSE(parseEtcdEndpoints("https://127.0.0.1:2379"));
  EXPECT_FALSE(parseEtcdEndpoints("127.0.0.1:99999"));
}

TEST(EtcdClient, PrefixEndFollowsEtcdsRule) {
  EXPECT_EQ(EtcdClient::prefixEnd("/a/"), "/a0");
  EXPECT_EQ(EtcdClient::prefixEnd(std::string("a\xff", 2)), "b");
}

TEST(EtcdClient, UnreachableEtcdIsAClearError) {
  // A port nothing listens on: bind-free ports are not guaranteed, port 1 needs root to serve.
  EtcdClient etcd({{"127.0.0.1", 1}}, 500);
  auto r = etcd.put("/k", "v");
  ASSERT_FALSE(r);
  EXPECT_NE(r.status().message().find("etcd at 127.0.0.1:1 is unreachable"), std::string::npos)
      << r.status().message();
}

TEST(EtcdClient, PutRangeDeleteWithBinarySafeValues) {
  EtcdClient etcd(testEtcdEndpoints());
  const std::string p = testPrefix();
  const std::string value = std::string("{\"a\":1}\n\0x", 10);
  auto rev = etcd.put(p + "a", value);
  ASSERT_TRUE(rev) << rev.status().message();
  EXPECT_GT(*rev, 0);
  ASSERT_TRUE(etcd.put(p + "b", "2"));
  ASSERT_TRUE(etcd.put(p + "c", "3"));
  auto one = etcd.range(p + "a");
  ASSERT_TRUE(one) << one.status().message();
  ASSERT_EQ(one->kvs.size(), 1u);
  EXPECT_EQ(one->kvs[0].value, value);
  EXPECT_EQ(one->kvs[0].createRevision, *rev);
  auto all = etcd.range(p, EtcdClient::prefixEnd(p));
  ASSERT_TRUE(all);
  ASSERT_EQ(all->kvs.size(), 3u);
  EXPECT_EQ(all->kvs[2].key, p + "c");
  auto limited = etcd.range(p, EtcdClient::prefixEnd(p), 2);
  ASSERT_TRUE(limited);
  EXPECT_EQ(limited->kvs.size(), 2u);
  EXPECT_TRUE(limited->more);
  auto deleted = etcd.deleteRange(p, EtcdClient::prefixEnd(p));
  ASSERT_TRUE(deleted);
  EXPECT_EQ(*deleted, 3);
  auto none = etcd.range(p, EtcdClient::prefixEnd(p));
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->kvs.empty());
}

TEST(EtcdClient, TxnTakesTheBranchItsComparesChoose) {
  EtcdClient etcd(testEtcdEndpoints());
  const std::string k = testPrefix() + "leader";
  EtcdTxn create;
  create.compares.push_back(EtcdCompare::createRevision(k, 0));
  create.success.push_back(EtcdOp::put(k, "rm1"));
  create.failure.push_back(EtcdOp::get(k));
  auto first = etcd.txn(create);
  ASSERT_TRUE(first) << first.status().message();
  EXPECT_TRUE(first->succeeded);
  auto second = etcd.txn(create);
  ASSERT_TRUE(second);
  EXPECT_FALSE(second->succeeded);
  ASSERT_EQ(second->ranges.size(), 1u);
  ASSERT_EQ(second->ranges[0].size(), 1u);
  EXPECT_EQ(second->ranges[0][0].value, "rm1");
  EXPECT_EQ(second->ranges[0][0].createRevision, first->revision);
}

TEST(EtcdClient, LeaseKeepsAKeyAliveUntilRevoked) {
  EtcdClient etcd(testEtcdEndpoints());
  const std::string k = testPrefix() + "ephemeral";
  auto lease = etcd.leaseGrant(30);
  ASSERT_TRUE(lease) << lease.status().message();
  EXPECT_NE(lease->id, 0);
  EXPECT_EQ(lease->ttlSeconds, 30);
  ASSERT_TRUE(etcd.put(k, "x", lease->id));
  auto ttl = etcd.leaseKeepAlive(lease->id);
  ASSERT_TRUE(ttl) << ttl.status().message();
  EXPECT_GT(*ttl, 0);
  ASSERT_TRUE(etcd.leaseRevoke(lease->id).isOk());
  auto gone = etcd.range(k);
  ASSERT_TRUE(gone);
  EXPECT_TRUE(gone->kvs.empty());
  auto expired = etcd.leaseKeepAlive(lease->id);
  ASSERT_TRUE(expired) << expired.status().message();
  EXPECT_EQ(*expired, 0);
}

}  // namespace
}  // namespace spindle::ha

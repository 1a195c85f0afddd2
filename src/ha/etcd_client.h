// A client of etcd's v3 API through its JSON gRPC gateway (etcd 3.4, Debian's etcd-server):
// the key-value calls, transactions and leases the leader elector and the etcd state store use.
//
//   auto endpoints = parseEtcdEndpoints("http://127.0.0.1:2379");
//   EtcdClient etcd(*endpoints);
//   auto rev = etcd.put("/spindle/k", "v");              // the store's revision after the put
//   auto kvs = etcd.range("/spindle/", EtcdClient::prefixEnd("/spindle/"));
//   auto lease = etcd.leaseGrant(5);                      // {id, ttl seconds}
//   EtcdTxn t;
//   t.compares.push_back(EtcdCompare::createRevision("/leader", 0));
//   t.success.push_back(EtcdOp::put("/leader", "rm1", lease->id));
//   auto r = etcd.txn(t);                                 // r->succeeded: the compares held
//
// Wire format (etcd's api_grpc_gateway): POST /v3/kv/put, /v3/kv/range, /v3/kv/deleterange,
// /v3/kv/txn, /v3/lease/grant, /v3/lease/keepalive, /v3/lease/revoke with JSON bodies; keys and
// values are base64, int64 fields are JSON strings.
//
// Errors name the endpoint: "etcd at 127.0.0.1:2379 is unreachable: cannot connect ..." when no
// endpoint answers, the gateway's message for a refused call. With several endpoints a call that
// cannot reach one tries the next (etcd's members serve the same data); it never retries a call
// that reached etcd.
// Thread-compatible: one caller at a time (the elector and the store each own a client).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"
#include "protocol/http_client.h"

namespace spindle::ha {

struct EtcdEndpoint {
  std::string host;
  uint16_t port = 0;
  std::string toString() const { return host + ":" + std::to_string(port); }
};

// "http://h:p,h2:p2" (the http:// prefix optional; https is refused: the client speaks plain
// HTTP). An empty or malformed list is an error naming the entry.
Result<std::vector<EtcdEndpoint>> parseEtcdEndpoints(const std::string& list);

std::string base64Encode(std::string_view in);
Result<std::string> base64Decode(std::string_view in);

struct EtcdKeyValue {
  std::string key;
  std::string value;
  int64_t createRevision = 0;
  int64_t modRevision = 0;
  int64_t version = 0;
  int64_t lease = 0;
};

struct EtcdRange {
  std::vector<EtcdKeyValue> kvs;
  bool more = false;     // a limit cut the answer short
  int64_t revision = 0;  // the store's revision when read
};

// One compare of a txn: `target(key) <op> operand`.
struct EtcdCompare {
  enum class Target { kCreate, kMod, kVersion, kValue };
  enum class Op { kEqual, kNotEqual, kGreater, kLess };
  Target target = Target::kCreate;
  Op op = Op::kEqual;
  std::string key;
  int64_t number = 0;
  std::string value;
  static EtcdCompare createRevision(std::string key, int64_t rev) {
    return {Target::kCreate, Op::kEqual, std::move(key), rev, {}};
  }
  static EtcdCompare valueEquals(std::string key, std::string value) {
    return {Target::kValue, Op::kEqual, std::move(key), 0, std::move(value)};
  }
};

struct EtcdOp {
  enum class Type { kPut, kDelete, kRange };
  Type type = Type::kPut;
  std::string key;
  std::string value;     // kPut
  int64_t lease = 0;     // kPut
  std::string rangeEnd;  // kDelete, kRange: empty = the key alone
  static EtcdOp put(std::string key, std::string value, int64_t lease = 0) {
    return {Type::kPut, std::move(key), std::move(value), lease, {}};
  }
  static EtcdOp erase(std::string key, std::string rangeEnd = {}) {
    return {Type::kDelete, std::move(key), {}, 0, std::move(rangeEnd)};
  }
  static EtcdOp get(std::string key, std::string rangeEnd = {}) {
    return {Type::kRange, std::move(key), {}, 0, std::move(rangeEnd)};
  }
};

struct EtcdTxn {
  std::vector<EtcdCompare> compares;
  std::vector<EtcdOp> success;
  std::vector<EtcdOp> failure;
};

struct EtcdTxnResult {
  bool succeeded = false;
  int64_t revision = 0;
  // One entry per operation of the branch taken; the kvs of its kRange operations.
  std::vector<std::vector<EtcdKeyValue>> ranges;
};

struct EtcdLease {
  int64_t id = 0;
  int64_t ttlSeconds = 0;
};

class EtcdClient {
 public:
  explicit EtcdClient(std::vector<EtcdEndpoint> endpoints, int64_t timeoutMs = 3000);
  ~EtcdClient();
  EtcdClient(const EtcdClient&) = delete;
  EtcdClient& operator=(const EtcdClient&) = delete;

  // The store's revision after the put.
  Result<int64_t> put(const std::string& key, const std::string& value, int64_t lease = 0);
  // `rangeEnd` empty: the key alone; prefixEnd(p): every key starting with p. `limit` 0: all.
  Result<EtcdRange> range(const std::string& key, const std::string& rangeEnd = {},
                          int64_t limit = 0);
  // The number of keys deleted.
  Result<int64_t> deleteRange(const std::string& key, const std::string& rangeEnd = {});
  Result<EtcdTxnResult> txn(const EtcdTxn& txn);
  Result<EtcdLease> leaseGrant(int64_t ttlSeconds);
  // The lease's remaining TTL after the refresh; 0 when the lease has expired (or was revoked).
  Result<int64_t> leaseKeepAlive(int64_t leaseId);
  Status leaseRevoke(int64_t leaseId);

  // The smallest key greater than every key starting with `prefix` (etcd's range_end rule).
  static std::string prefixEnd(const std::string& prefix);
  // "127.0.0.1:2379,..." for messages and /ws/v1/cluster/info.
  std::string endpointsString() const;

 private:
  // POSTs `body` to `path` on the current endpoint, moving to the next one on a connection
  // failure; answers the parsed JSON of a 200.
  Result<nlohmann::json> call(const std::string& path, const nlohmann::json& body);

  std::vector<EtcdEndpoint> endpoints_;
  int64_t timeoutMs_;
  size_t current_ = 0;
  std::unique_ptr<protocol::HttpClient> http_;
};

}  // namespace spindle::ha

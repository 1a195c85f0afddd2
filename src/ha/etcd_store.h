// The etcd state store (the role of YARN's ZKRMStateStore): the StateStore for HA, whose every
// write is fenced by the leader's token, so a deposed RM cannot write.
//
//   EtcdClient etcd(*parseEtcdEndpoints("http://127.0.0.1:2379"));
//   EtcdStore store(etcd, "/spindle/cluster1");
//   store.setFence({"/spindle/cluster1/leader", elector.fencingToken()});
//   store.open();  store.load(snapshot);  store.bumpEpoch(epoch);  store.apply(batch);
//
// Layout under the prefix (ZKRMStateStore's, rest-cli-protocols.md 2.1):
//   <prefix>/store/version            the schema version ("1")
//   <prefix>/store/epoch              the last epoch bumped
//   <prefix>/store/<kind>/<key>       one record, its JSON text (kind: app, attempt, ...)
// Fencing: with a fence set, every write is one txn whose compare is
// create_revision(leaderKey) == token; when another RM has taken the key (or it expired) the
// compare fails, nothing is written and the call answers kFenced. Without a fence (one RM, no
// HA) writes are plain txns.
// A batch is one txn, so it is atomic; etcd refuses a txn of more than its --max-txn-ops
// operations (128 by default): a larger batch answers kFailed naming the limit.
// Thread-compatible: one thread (the RM's scheduler thread) calls it.
#pragma once

#include <string>

#include "ha/etcd_client.h"
#include "store/state_store.h"

namespace spindle::ha {

struct EtcdFence {
  std::string leaderKey;
  int64_t token = 0;  // the leader key's create revision; 0: no fencing
};

class EtcdStore : public store::StateStore {
 public:
  // etcd's default --max-txn-ops, less the fence compare's room.
  static constexpr size_t kMaxBatchOps = 128;

  EtcdStore(EtcdClient& etcd, std::string prefix);
  void setFence(EtcdFence fence) { fence_ = std::move(fence); }

  std::string name() const override;
  store::StoreStatus open() override;
  store::StoreStatus load(store::StoreSnapshot& out) override;
  store::StoreStatus bumpEpoch(uint64_t& epoch) override;
  store::StoreStatus apply(const store::StoreBatch& batch) override;

  std::string recordKey(store::RecordKind kind, const std::string& key) const;

 private:
  // Runs `t` with the fence compare added. kFenced when the fence compare failed; the other
  // compares of `t` failing answers `conflict`.
  store::StoreStatus fencedTxn(EtcdTxn t, const std::string& what, const char* conflict);
  store::StoreStatus failed(const std::string& what, const Status& s) const;

  EtcdClient& etcd_;
  std::string prefix_;  // "<prefix>/store/"
  EtcdFence fence_;
};

}  // namespace spindle::ha

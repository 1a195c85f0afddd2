#include "ha/etcd_store.h"

#include <charconv>

namespace spindle::ha {

using store::RecordKind;
using store::StoreCode;
using store::StoreStatus;

namespace {

constexpr int64_t kPageSize = 500;

std::optional<RecordKind> kindOf(std::string_view segment) {
  for (RecordKind k : store::kAllKinds) {
    if (segment == store::toString(k)) return k;
  }
  return std::nullopt;
}

}  // namespace

EtcdStore::EtcdStore(EtcdClient& etcd, std::string prefix) : etcd_(etcd) {
  while (prefix.ends_with('/')) prefix.pop_back();
  prefix_ = prefix + "/store/";
}

std::string EtcdStore::name() const { return "etcd:" + etcd_.endpointsString(); }

std::string EtcdStore::recordKey(RecordKind kind, const std::string& key) const {
  return prefix_ + store::toString(kind) + "/" + key;
}

StoreStatus EtcdStore::failed(const std::string& what, const Status& s) const {
  return {StoreCode::kFailed, "etcd store (" + prefix_ + "): " + what + ": " + s.message()};
}

StoreStatus EtcdStore::fencedTxn(EtcdTxn t, const std::string& what, const char* conflict) {
  if (fence_.token != 0) {
    t.compares.push_back(EtcdCompare::createRevision(fence_.leaderKey, fence_.token));
    // On failure, read the leader key to tell a lost fence from the other compares.
    t.failure.push_back(EtcdOp::get(fence_.leaderKey));
  }
  auto r = etcd_.txn(t);
  if (!r) return failed(what, r.status());
  if (r->succeeded) return StoreStatus::ok();
  if (fence_.token != 0) {
    const auto& leader = r->ranges.empty() ? std::vector<EtcdKeyValue>{} : r->ranges.back();
    if (leader.empty() || leader.front().createRevision != fence_.token) {
      return {StoreCode::kFenced,
              "etcd store: " + what + " refused: the leader key " + fence_.leaderKey +
                  (leader.empty() ? " is gone"
                                  : " is held by " + leader.front().value + " at revision " +
                                        std::to_string(leader.front().createRevision)) +
                  ", not this RM's revision " + std::to_string(fence_.token) +
                  " (another RM is active)"};
    }
  }
  return {StoreCode::kFailed, "etcd store: " + what + ": " + conflict};
}

StoreStatus EtcdStore::open() {
  auto r = etcd_.range(prefix_ + "version");
  if (!r) return failed("reading the schema version", r.status());
  if (r->kvs.empty()) {
    EtcdTxn t;
    t.compares.push_back(EtcdCompare::createRevision(prefix_ + "version", 0));
    t.success.push_back(EtcdOp::put(prefix_ + "version", std::to_string(store::kSchemaVersion)));
    return fencedTxn(std::move(t), "writing the schema version",
                     "another RM wrote the schema version meanwhile");
  }
  const std::string& v = r->kvs.front().value;
  int version = 0;
  if (std::from_chars(v.data(), v.data() + v.size(), version).ptr != v.data() + v.size()) {
    return {StoreCode::kCorrupt,
            "etcd store: " + prefix_ + "version holds '" + v + "', not a schema version"};
  }
  if (version != store::kSchemaVersion) {
    return {StoreCode::kIncompatible,
            "etcd store: " + prefix_ + "version is schema " + v + "; this build reads schema " +
                std::to_string(store::kSchemaVersion) + " and has no upgrade from it"};
  }
  return StoreStatus::ok();
}

StoreStatus EtcdStore::load(store::StoreSnapshot& out) {
  out = {};
  const std::string end = EtcdClient::prefixEnd(prefix_);
  std::string from = prefix_;
  // Pages read at one revision would need the revision pinned; the leader is the only writer,
  // so pages read in turn see the same data.
  for (;;) {
    auto page = etcd_.range(from, end, kPageSize);
    if (!page) return failed("loading", page.status());
    for (const EtcdKeyValue& kv : page->kvs) {
      const std::string_view rest = std::string_view(kv.key).substr(prefix_.size());
      if (rest == "version") {
        if (std::from_chars(kv.value.data(), kv.value.data() + kv.value.size(), out.schemaVersion)
                .ptr != kv.value.data() + kv.value.size()) {
          return {StoreCode::kCorrupt,
                  "etcd store: " + kv.key + " holds '" + kv.value + "', not a schema version"};
        }
        continue;
      }
      if (rest == "epoch") {
        uint64_t epoch = 0;
        if (std::from_chars(kv.value.data(), kv.value.data() + kv.value.size(), epoch).ptr !=
            kv.value.data() + kv.value.size()) {
          return {StoreCode::kCorrupt,
                  "etcd store: " + kv.key + " holds '" + kv.value + "', not an epoch"};
        }
        out.epoch = epoch;
        continue;
      }
      const size_t slash = rest.find('/');
      auto kind = slash == std::string_view::npos ? std::nullopt : kindOf(rest.substr(0, slash));
      if (!kind) {
        return {StoreCode::kCorrupt,
                "etcd store: unknown key " + kv.key + " (written by a newer build?)"};
      }
      auto value = nlohmann::json::parse(kv.value, nullptr, false);
      if (value.is_discarded()) {
        return {StoreCode::kCorrupt, "etcd store: " + kv.key + " does not hold JSON"};
      }
      out.records[*kind][std::string(rest.substr(slash + 1))] = std::move(value);
    }
    if (!page->more || page->kvs.empty()) break;
    from = page->kvs.back().key + std::string(1, '\0');
  }
  return StoreStatus::ok();
}

StoreStatus EtcdStore::bumpEpoch(uint64_t& epoch) {
  const std::string key = prefix_ + "epoch";
  auto r = etcd_.range(key);
  if (!r) return failed("reading the epoch", r.status());
  uint64_t current = 0;
  int64_t modRevision = 0;
  if (!r->kvs.empty()) {
    const std::string& v = r->kvs.front().value;
    if (std::from_chars(v.data(), v.data() + v.size(), current).ptr != v.data() + v.size()) {
      return {StoreCode::kCorrupt, "etcd store: " + key + " holds '" + v + "', not an epoch"};
    }
    modRevision = r->kvs.front().modRevision;
  }
  EtcdTxn t;
  // Unchanged since read (mod_revision 0 = still absent).
  t.compares.push_back({EtcdCompare::Target::kMod, EtcdCompare::Op::kEqual, key, modRevision, {}});
  t.success.push_back(EtcdOp::put(key, std::to_string(current + 1)));
  StoreStatus s = fencedTxn(std::move(t), "bumping the epoch",
                            "the epoch changed while being bumped (another writer)");
  if (s.isOk()) epoch = current + 1;
  return s;
}

StoreStatus EtcdStore::apply(const store::StoreBatch& batch) {
  if (batch.empty()) return StoreStatus::ok();
  if (batch.size() > kMaxBatchOps - 1) {
    return {StoreCode::kFailed, "etcd store: a batch of " + std::to_string(batch.size()) +
                                    " writes exceeds etcd's --max-txn-ops (" +
                                    std::to_string(kMaxBatchOps) + ")"};
  }
  EtcdTxn t;
  for (const store::StoreOp& op : batch.ops()) {
    const std::string key = recordKey(op.kind, op.key);
    if (op.type == store::StoreOp::Type::kPut) {
      t.success.push_back(EtcdOp::put(key, op.value.dump()));
    } else {
      t.success.push_back(EtcdOp::erase(key));
    }
  }
  return fencedTxn(std::move(t),
                   "writing " + std::to_string(batch.size()) + " record(s) (first " +
                       recordKey(batch.ops().front().kind, batch.ops().front().key) + ")",
                   "a compare failed");
}

}  // namespace spindle::ha

#include "ha/leader_elector.h"

#include <algorithm>

#include "base/log.h"

namespace spindle::ha {

LeaderElector::LeaderElector(EtcdClient& etcd, const Clock& clock, ElectorOptions options)
    : etcd_(etcd), clock_(clock), options_(std::move(options)) {
  options_.ttlSeconds = std::max<int64_t>(options_.ttlSeconds, 1);
}

TimeMs LeaderElector::nextActionMs() const {
  const TimeMs period = options_.ttlSeconds * 1000 / 3;
  return isLeader() ? std::min(nextRefreshMs_, leaseDeadlineMs_) : clock_.nowMs() + period;
}

Status LeaderElector::ensureLease() {
  const TimeMs now = clock_.nowMs();
  if (leaseId_ != 0 && now < leaseDeadlineMs_) {
    if (now < nextRefreshMs_) return Status::ok();
    auto ttl = etcd_.leaseKeepAlive(leaseId_);
    if (!ttl) return ttl.status();
    if (*ttl > 0) {
      leaseDeadlineMs_ = now + *ttl * 1000;
      nextRefreshMs_ = now + options_.ttlSeconds * 1000 / 3;
      return Status::ok();
    }
  }
  auto lease = etcd_.leaseGrant(options_.ttlSeconds);
  if (!lease) return lease.status();
  leaseId_ = lease->id;
  leaseDeadlineMs_ = now + lease->ttlSeconds * 1000;
  nextRefreshMs_ = now + options_.ttlSeconds * 1000 / 3;
  return Status::ok();
}

Result<bool> LeaderElector::campaign() {
  if (isLeader()) return true;
  if (Status s = ensureLease(); !s.isOk()) return s;
  EtcdTxn t;
  t.compares.push_back(EtcdCompare::createRevision(options_.leaderKey, 0));
  t.success.push_back(EtcdOp::put(options_.leaderKey, options_.candidate, leaseId_));
  auto r = etcd_.txn(t);
  if (!r) return r.status();
  if (!r->succeeded) return false;
  token_ = r->revision;
  lossReason_.clear();
  SPINDLE_LOG_INFO("{} leads at {} (lease {}, fencing token {})", options_.candidate,
                   options_.leaderKey, leaseId_, token_);
  return true;
}

void LeaderElector::lose(std::string reason) {
  SPINDLE_LOG_WARN("{} lost leadership of {}: {}", options_.candidate, options_.leaderKey, reason);
  token_ = 0;
  lossReason_ = std::move(reason);
}

bool LeaderElector::maintain() {
  if (!isLeader()) return false;
  const TimeMs now = clock_.nowMs();
  if (now >= leaseDeadlineMs_) {
    lose(fmt::format("lease {} not confirmed within its TTL of {} s (assumed expired)", leaseId_,
                     options_.ttlSeconds));
    return false;
  }
  if (now < nextRefreshMs_) return true;
  auto ttl = etcd_.leaseKeepAlive(leaseId_);
  if (!ttl) {
    // Not lost yet: the deadline above decides if etcd stays unreachable.
    SPINDLE_LOG_WARN("{}: lease refresh failed: {}", options_.candidate, ttl.status().message());
    nextRefreshMs_ = now + std::min<int64_t>(500, options_.ttlSeconds * 1000 / 3);
    return true;
  }
  if (*ttl <= 0) {
    lose(fmt::format("lease {} expired in etcd", leaseId_));
    leaseId_ = 0;
    return false;
  }
  leaseDeadlineMs_ = now + *ttl * 1000;
  nextRefreshMs_ = now + options_.ttlSeconds * 1000 / 3;
  auto key = etcd_.range(options_.leaderKey);
  if (!key) return true;  // the lease was confirmed; the key check runs again next time
  if (key->kvs.empty() || key->kvs.front().createRevision != token_) {
    lose(key->kvs.empty()
             ? fmt::format("leader key {} is gone", options_.leaderKey)
             : fmt::format("leader key {} now holds revision {} ({})", options_.leaderKey,
                           key->kvs.front().createRevision, key->kvs.front().value));
    return false;
  }
  return true;
}

Status LeaderElector::resign() {
  Status result;
  if (isLeader()) {
    EtcdTxn t;
    t.compares.push_back(EtcdCompare::createRevision(options_.leaderKey, token_));
    t.success.push_back(EtcdOp::erase(options_.leaderKey));
    auto r = etcd_.txn(t);
    if (!r) result = r.status();
    token_ = 0;
    lossReason_ = "resigned";
  }
  if (leaseId_ != 0) {
    Status s = etcd_.leaseRevoke(leaseId_);
    if (result.isOk() && !s.isOk()) result = s;
    leaseId_ = 0;
  }
  return result;
}

Result<std::optional<LeaderInfo>> LeaderElector::observe() {
  auto r = etcd_.range(options_.leaderKey);
  if (!r) return r.status();
  if (r->kvs.empty()) return std::optional<LeaderInfo>();
  return std::optional<LeaderInfo>(LeaderInfo{r->kvs.front().value, r->kvs.front().createRevision});
}

}  // namespace spindle::ha

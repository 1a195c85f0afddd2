// Leader election on etcd (the role of Hadoop's ActiveStandbyElector for the RMs): a lease plus
// a leader key created only when absent; the leader's fencing token is its key's create
// revision, which every write of the etcd state store checks.
//
//   LeaderElector elector(etcd, clock, {.leaderKey = "/spindle/c1/leader",
//                                       .candidate = "rm1", .ttlSeconds = 5});
//   auto won = elector.campaign();          // one attempt; *won: we lead now
//   elector.fencingToken();                 // the leader key's create revision
//   while (elector.maintain()) ...          // call at least every nextActionMs(); false: lost
//   elector.resign();                       // leave: delete our key, revoke the lease
//   auto who = elector.observe();           // the current leader, if any
//
// Algorithm:
//  1. campaign() holds a lease (granted with ttlSeconds when none is held or the held one has
//     expired) and runs one txn: if create_revision(leaderKey) == 0 put leaderKey = candidate
//     with the lease, else read leaderKey. The txn's revision is the new key's create revision.
//  2. maintain() refreshes the lease every ttl/3 (lease keepalive) and checks that the leader
//     key still holds our create revision. Leadership is lost when a keepalive answers TTL 0
//     (etcd let the lease expire), when the key holds another revision or is gone, or when the
//     lease deadline passes locally (the time of the last confirmed refresh plus the TTL) with
//     no confirmation: a paused or partitioned leader assumes it has lost by then, and etcd has
//     deleted its key at the same moment.
//  3. Losing is final for this term: campaign() again to lead again (a new token).
// Time comes from the injected Clock; the elector never sleeps (its caller schedules).
// Thread-compatible: one thread drives an elector.
#pragma once

#include <optional>
#include <string>

#include "base/clock.h"
#include "ha/etcd_client.h"

namespace spindle::ha {

struct ElectorOptions {
  std::string leaderKey;
  std::string candidate;   // the leader key's value: who leads (an RM id)
  int64_t ttlSeconds = 5;  // the lease's TTL; refreshed every ttl/3
};

struct LeaderInfo {
  std::string candidate;
  int64_t revision = 0;  // the leader key's create revision: that leader's fencing token
};

class LeaderElector {
 public:
  LeaderElector(EtcdClient& etcd, const Clock& clock, ElectorOptions options);

  // One election attempt. An etcd error is an error (neither won nor lost).
  Result<bool> campaign();
  // While leading: refreshes the lease when due and checks the leader key. false: not (or no
  // longer) the leader; lossReason() says why.
  bool maintain();
  // Gives leadership up: deletes the leader key if it still holds our revision, revokes the
  // lease.
  Status resign();
  Result<std::optional<LeaderInfo>> observe();

  bool isLeader() const { return token_ != 0; }
  int64_t fencingToken() const { return token_; }
  const std::string& lossReason() const { return lossReason_; }
  // When maintain() (leading) or campaign() (not leading) should next run.
  TimeMs nextActionMs() const;
  const ElectorOptions& options() const { return options_; }

 private:
  Status ensureLease();
  void lose(std::string reason);

  EtcdClient& etcd_;
  const Clock& clock_;
  ElectorOptions options_;
  int64_t leaseId_ = 0;
  TimeMs leaseDeadlineMs_ = 0;  // the lease is assumed expired from then on
  TimeMs nextRefreshMs_ = 0;
  int64_t token_ = 0;
  std::string lossReason_;
};

}  // namespace spindle::ha

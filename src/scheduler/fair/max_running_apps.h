// maxRunningApps enforcement for queues and users (YARN's MaxRunningAppsEnforcer; vectors MRA-1,
// MRA-2, MRA-4).
//
//   MaxRunningApps mra;
//   mra.addApp(tree, app);              // runnable when every limit allows, else waiting
//   mra.removeApp(tree, apps, app);     // may make waiting apps runnable
//
// Rules:
//  1. An app is runnable when its user is below the user limit (<user> element, else
//     userMaxAppsDefault) and its leaf and every ancestor are below their maxRunningApps.
//     Otherwise it waits (non-runnable); it is never rejected for this.
//  2. When a runnable app leaves: find the highest queue on its path that was exactly at its
//     limit (now limit - 1); gather the waiting apps of every leaf under it whose queues are all
//     below their limits, plus the user's waiting apps if the user was at its limit. Walk them
//     merged by (start time, app id) and make each one runnable whose limits now allow it,
//     stopping after as many promotions as lists were gathered
//     (updateRunnabilityOnAppRemoval / updateAppsRunnability).
//  3. Moving an app to another leaf (FairScheduler.executeMove): a runnable app stays runnable
//     (the caller has verified the target's limits below the common ancestor) and the old
//     leaf's freed slot is handed on as in rule 2 (the user's count is unchanged); a waiting
//     app becomes runnable when its limits in the new leaf allow it.
//  4. After a configuration reload every waiting app is reconsidered in start order; running
//     apps stay runnable even when over a lowered limit (updateRunnabilityOnReload).
// Not thread-safe; owned by FairScheduler.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "scheduler/fair/fs_queue.h"

namespace spindle::fair {

class MaxRunningApps {
 public:
  // Files the app in its leaf as runnable or waiting (rule 1).
  void addApp(const FsQueueTree& tree, FsApp& app);
  // Removes the app from its leaf and applies rule 2. Returns the apps made runnable.
  std::vector<AppId> removeApp(const FsQueueTree& tree, std::map<AppId, FsApp>& apps,
                               const FsApp& app);
  // Rule 3: refiles the app under `target`. Returns the apps made runnable (the moved app
  // included when it was waiting and may now run).
  std::vector<AppId> moveApp(const FsQueueTree& tree, std::map<AppId, FsApp>& apps, FsApp& app,
                             FsQueue& target);
  // Rule 4; also rebuilds the per-user counts from `apps`. Returns the apps made runnable.
  std::vector<AppId> reload(const FsQueueTree& tree, std::map<AppId, FsApp>& apps);

  int32_t userRunnable(const std::string& user) const;
  // Why the app is waiting ("" when its limits allow it to run).
  std::string blockedBy(const FsQueueTree& tree, const FsApp& app) const;

 private:
  bool canRun(const FsQueueTree& tree, const FsApp& app) const {
    return blockedBy(tree, app).empty();
  }
  void makeRunnable(FsApp& app);
  // Rule 2's scan after a runnable app of `user` left `leaf`.
  std::vector<AppId> afterRunnableLeft(const FsQueueTree& tree, std::map<AppId, FsApp>& apps,
                                       const FsQueue& leaf, const std::string& user);
  void gatherWaiting(const FsQueue& q, std::vector<const std::vector<AppId>*>& out) const;
  std::vector<AppId> promote(const FsQueueTree& tree, std::map<AppId, FsApp>& apps,
                             const std::vector<const std::vector<AppId>*>& lists,
                             size_t maxPromotions);

  std::map<std::string, int32_t> userRunnable_;
  std::map<std::string, std::vector<AppId>> userWaiting_;  // in submission order
};

}  // namespace spindle::fair

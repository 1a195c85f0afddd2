#include "scheduler/fair/max_running_apps.h"

#include <algorithm>

#include <fmt/format.h>

namespace spindle::fair {
namespace {

void eraseId(std::vector<AppId>& v, AppId id) {
  v.erase(std::remove(v.begin(), v.end(), id), v.end());
}

}  // namespace

int32_t MaxRunningApps::userRunnable(const std::string& user) const {
  auto it = userRunnable_.find(user);
  return it == userRunnable_.end() ? 0 : it->second;
}

std::string MaxRunningApps::blockedBy(const FsQueueTree& tree, const FsApp& app) const {
  const int32_t userMax = tree.config().maxRunningAppsOfUser(app.user);
  if (userRunnable(app.user) >= userMax) {
    return fmt::format("user {} already has {} running apps (maxRunningApps {})", app.user,
                       userRunnable(app.user), userMax);
  }
  for (const FsQueue* q = app.leaf; q != nullptr; q = q->parent()) {
    if (q->numRunnable >= q->maxRunningApps()) {
      return fmt::format("queue {} already has {} running apps (maxRunningApps {})", q->path(),
                         q->numRunnable, q->maxRunningApps());
    }
  }
  return "";
}

void MaxRunningApps::makeRunnable(FsApp& app) {
  app.runnable = true;
  ++userRunnable_[app.user];
  app.leaf->runnableApps.push_back(app.id);
  app.leaf->addRunnable(1);
}

void MaxRunningApps::addApp(const FsQueueTree& tree, FsApp& app) {
  if (canRun(tree, app)) {
    makeRunnable(app);
  } else {
    app.runnable = false;
    app.leaf->nonRunnableApps.push_back(app.id);
    userWaiting_[app.user].push_back(app.id);
  }
}

std::vector<AppId> MaxRunningApps::removeApp(const FsQueueTree& tree, std::map<AppId, FsApp>& apps,
                                             const FsApp& app) {
  FsQueue* leaf = app.leaf;
  if (!app.runnable) {
    eraseId(leaf->nonRunnableApps, app.id);
    eraseId(userWaiting_[app.user], app.id);
    return {};
  }
  eraseId(leaf->runnableApps, app.id);
  leaf->addRunnable(-1);
  --userRunnable_[app.user];
  return afterRunnableLeft(tree, apps, *leaf, app.user);
}

std::vector<AppId> MaxRunningApps::afterRunnableLeft(const FsQueueTree& tree,
                                                     std::map<AppId, FsApp>& apps,
                                                     const FsQueue& leaf, const std::string& user) {
  const FsQueue* highest = leaf.numRunnable == leaf.maxRunningApps() - 1 ? &leaf : nullptr;
  for (const FsQueue* p = leaf.parent(); p != nullptr; p = p->parent()) {
    if (p->numRunnable == p->maxRunningApps() - 1) highest = p;
  }
  std::vector<const std::vector<AppId>*> lists;
  if (highest != nullptr) gatherWaiting(*highest, lists);
  if (userRunnable(user) == tree.config().maxRunningAppsOfUser(user) - 1) {
    auto it = userWaiting_.find(user);
    if (it != userWaiting_.end()) lists.push_back(&it->second);
  }
  return promote(tree, apps, lists, lists.size());
}

std::vector<AppId> MaxRunningApps::moveApp(const FsQueueTree& tree, std::map<AppId, FsApp>& apps,
                                           FsApp& app, FsQueue& target) {
  FsQueue& old = *app.leaf;
  if (!app.runnable) {
    eraseId(old.nonRunnableApps, app.id);
    app.leaf = &target;
    if (!canRun(tree, app)) {
      target.nonRunnableApps.push_back(app.id);
      return {};
    }
    eraseId(userWaiting_[app.user], app.id);
    makeRunnable(app);
    return {app.id};
  }
  eraseId(old.runnableApps, app.id);
  old.addRunnable(-1);
  app.leaf = &target;
  target.runnableApps.push_back(app.id);
  target.addRunnable(1);
  return afterRunnableLeft(tree, apps, old, app.user);
}

void MaxRunningApps::gatherWaiting(const FsQueue& q,
                                   std::vector<const std::vector<AppId>*>& out) const {
  if (q.numRunnable >= q.maxRunningApps()) return;
  if (q.isLeaf()) {
    if (!q.nonRunnableApps.empty()) out.push_back(&q.nonRunnableApps);
    return;
  }
  for (const auto& c : q.children()) gatherWaiting(*c, out);
}

std::vector<AppId> MaxRunningApps::promote(const FsQueueTree& tree, std::map<AppId, FsApp>& apps,
                                           const std::vector<const std::vector<AppId>*>& lists,
                                           size_t maxPromotions) {
  // Merge by (start time, id); a user's list may repeat an app of a queue list.
  std::vector<AppId> candidates;
  for (const auto* l : lists) candidates.insert(candidates.end(), l->begin(), l->end());
  std::sort(candidates.begin(), candidates.end(), [&](AppId a, AppId b) {
    const FsApp& x = apps.at(a);
    const FsApp& y = apps.at(b);
    if (x.startTime != y.startTime) return x.startTime < y.startTime;
    return a < b;
  });
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<AppId> promoted;
  for (AppId id : candidates) {
    if (promoted.size() >= maxPromotions) break;
    FsApp& a = apps.at(id);
    if (!canRun(tree, a)) continue;
    eraseId(a.leaf->nonRunnableApps, id);
    eraseId(userWaiting_[a.user], id);
    makeRunnable(a);
    promoted.push_back(id);
  }
  return promoted;
}

std::vector<AppId> MaxRunningApps::reload(const FsQueueTree& tree, std::map<AppId, FsApp>& apps) {
  userRunnable_.clear();
  userWaiting_.clear();
  std::vector<const std::vector<AppId>*> lists;
  for (auto& [id, a] : apps) {
    if (a.runnable) {
      ++userRunnable_[a.user];
    } else {
      userWaiting_[a.user].push_back(id);
    }
  }
  std::vector<AppId> waiting;
  for (auto& [id, a] : apps) {
    if (!a.runnable) waiting.push_back(id);
  }
  lists.push_back(&waiting);
  return promote(tree, apps, lists, SIZE_MAX);
}

}  // namespace spindle::fair

#include "placement/constraint_manager.h"

#include <algorithm>

namespace spindle::placement {

size_t PlacementConstraintManager::registerApplication(AppId app,
                                                       const SourceTagConstraints& constraints) {
  if (apps_.contains(app)) return 0;
  size_t ignored = 0;
  std::map<std::string, PlacementConstraint> byTag;
  for (const auto& [tags, constraint] : constraints) {
    if (tags.size() != 1) {
      ++ignored;
      continue;
    }
    byTag.emplace(tags[0], constraint);
  }
  apps_.emplace(app, std::move(byTag));
  return ignored;
}

void PlacementConstraintManager::unregisterApplication(AppId app) { apps_.erase(app); }

void PlacementConstraintManager::addGlobalConstraint(const std::string& tag, PlacementConstraint c,
                                                     bool replace) {
  auto it = global_.find(tag);
  if (it == global_.end()) {
    global_.emplace(tag, std::move(c));
  } else if (replace) {
    it->second = std::move(c);
  }
}

void PlacementConstraintManager::removeGlobalConstraint(const std::string& tag) {
  global_.erase(tag);
}

const PlacementConstraint* PlacementConstraintManager::appConstraint(
    AppId app, std::span<const std::string> tags) const {
  if (tags.size() != 1) return nullptr;
  auto a = apps_.find(app);
  if (a == apps_.end()) return nullptr;
  auto c = a->second.find(tags[0]);
  return c == a->second.end() ? nullptr : &c->second;
}

const PlacementConstraint* PlacementConstraintManager::globalConstraint(
    std::span<const std::string> tags) const {
  if (tags.size() != 1) return nullptr;
  auto c = global_.find(tags[0]);
  return c == global_.end() ? nullptr : &c->second;
}

std::vector<const PlacementConstraint*> PlacementConstraintManager::constraintsFor(
    AppId app, std::span<const std::string> tags,
    const PlacementConstraint* requestConstraint) const {
  std::vector<const PlacementConstraint*> out;
  for (const PlacementConstraint* c :
       {requestConstraint, appConstraint(app, tags), globalConstraint(tags)}) {
    if (c == nullptr) continue;
    if (std::none_of(out.begin(), out.end(),
                     [&](const PlacementConstraint* seen) { return *seen == *c; })) {
      out.push_back(c);
    }
  }
  return out;
}

PlacementConstraint PlacementConstraintManager::multilevelConstraint(
    AppId app, std::span<const std::string> tags,
    const PlacementConstraint* requestConstraint) const {
  AndConstraint all;
  for (const PlacementConstraint* c : constraintsFor(app, tags, requestConstraint)) {
    all.children.push_back(*c);
  }
  return all;
}

}  // namespace spindle::placement

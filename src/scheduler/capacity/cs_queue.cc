#include "scheduler/capacity/cs_queue.h"

#include <algorithm>

#include "scheduler/capacity/cs_math.h"

namespace spindle {

const char* toString(QueueRunState s) {
  switch (s) {
    case QueueRunState::kRunning: return "RUNNING";
    case QueueRunState::kStopped: return "STOPPED";
    case QueueRunState::kDraining: return "DRAINING";
  }
  return "?";
}

const ResolvedCapacity& CsQueue::noCapacity() {
  static const ResolvedCapacity kNone{0, 0, 0, 0, 0, -1, {}, {}};
  return kNone;
}

const QueueUsage& CsQueue::noUsage() {
  static const QueueUsage kZero;
  return kZero;
}

CsUser& CsQueue::user(const std::string& name) {
  auto [it, inserted] = users.try_emplace(name);
  if (inserted) {
    it->second.name = name;
    it->second.weight = userWeight(name);
  }
  return it->second;
}

double CsQueue::userWeight(const std::string& user) const {
  auto it = cfg_.userWeights.find(user);
  return it == cfg_.userWeights.end() ? 1.0 : it->second;
}

void CsQueue::removeChild(CsQueue* c) {
  const auto i = static_cast<size_t>(c->indexInParent);
  children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(i));
  childKeys.erase(childKeys.begin() + static_cast<std::ptrdiff_t>(i));
  for (size_t j = i; j < children_.size(); ++j) children_[j]->indexInParent = static_cast<int>(j);
  c->indexInParent = -1;
}

void CsQueue::reorderChildren(const std::vector<CsQueue*>& order) {
  std::vector<ChildKey> keys;
  keys.reserve(order.size());
  for (CsQueue* c : order) keys.push_back(childKeys[static_cast<size_t>(c->indexInParent)]);
  children_ = order;
  childKeys = std::move(keys);
  for (size_t i = 0; i < children_.size(); ++i) {
    children_[i]->indexInParent = static_cast<int>(i);
  }
}

std::unique_ptr<QueueTree> QueueTree::build(const CapacityConfig& cfg) {
  auto tree = std::make_unique<QueueTree>();
  for (const std::string& path : cfg.preorder) {
    const QueueConfig& qc = cfg.queues.at(path);
    CsQueue* parent = qc.parent.empty() ? nullptr : tree->byPath_.at(qc.parent);
    tree->owned_.push_back(std::make_unique<CsQueue>(qc, parent));
    CsQueue* q = tree->owned_.back().get();
    if (parent) parent->addChild(q);
    if (!parent) tree->root_ = q;
    q->state =
        qc.state == QueueStateConfig::kStopped ? QueueRunState::kStopped : QueueRunState::kRunning;
    tree->byPath_[path] = q;
    tree->byName_[qc.name].push_back(q);
    tree->preorder_.push_back(q);
  }
  for (CsQueue* q : tree->preorder_) {
    if (q->isLeaf()) tree->leaves_.push_back(q);
  }
  return tree;
}

CsQueue* QueueTree::addLeaf(const QueueConfig& cfg, CsQueue* parent) {
  CsQueue* last = parent->children().back();
  owned_.push_back(std::make_unique<CsQueue>(cfg, parent));
  CsQueue* q = owned_.back().get();
  parent->addChild(q);
  q->state =
      cfg.state == QueueStateConfig::kStopped ? QueueRunState::kStopped : QueueRunState::kRunning;
  byPath_[cfg.path] = q;
  byName_[cfg.name].push_back(q);
  // The siblings are leaves: the new one follows the last of them in both orders.
  preorder_.insert(std::find(preorder_.begin(), preorder_.end(), last) + 1, q);
  leaves_.insert(std::find(leaves_.begin(), leaves_.end(), last) + 1, q);
  return q;
}

void QueueTree::removeLeaf(CsQueue* leaf) {
  leaf->parent()->removeChild(leaf);
  preorder_.erase(std::find(preorder_.begin(), preorder_.end(), leaf));
  leaves_.erase(std::find(leaves_.begin(), leaves_.end(), leaf));
  byPath_.erase(leaf->path());
  auto n = byName_.find(leaf->name());
  std::erase(n->second, leaf);
  if (n->second.empty()) byName_.erase(n);
  std::erase_if(owned_, [leaf](const std::unique_ptr<CsQueue>& q) { return q.get() == leaf; });
}

void QueueTree::reorderLeafChildren(CsQueue* parent, const std::vector<CsQueue*>& order) {
  if (order.empty()) return;
  auto inLeaves = std::find_if(leaves_.begin(), leaves_.end(),
                               [parent](const CsQueue* q) { return q->parent() == parent; });
  auto inPreorder = std::find(preorder_.begin(), preorder_.end(), parent) + 1;
  parent->reorderChildren(order);
  std::copy(order.begin(), order.end(), inPreorder);
  std::copy(order.begin(), order.end(), inLeaves);
}

CsQueue* QueueTree::child(const CsQueue& parent, const std::string& name) const {
  auto n = byName_.find(name);
  if (n == byName_.end()) return nullptr;
  for (CsQueue* q : n->second) {
    if (q->parent() == &parent) return q;
  }
  return nullptr;
}

CsQueue* QueueTree::find(const std::string& nameOrPath) const {
  auto it = byPath_.find(nameOrPath);
  if (it != byPath_.end()) return it->second;
  auto n = byName_.find(nameOrPath);
  if (n != byName_.end() && n->second.size() == 1) return n->second.front();
  return nullptr;
}

namespace {

// Percent, weight or absolute capacity of `q` (not root) on one partition, given its parent's
// resolved values (YARN's QueueCapacities; weight mode as in the Hadoop CapacityScheduler docs).
ResolvedCapacity resolveChild(const ResourceCalculator& rc, const CsQueue& q,
                              const ResolvedCapacity& parent, const std::string& partition,
                              const Resource& R) {
  ResolvedCapacity out;
  const QueueConfig& qc = q.config();
  auto pit = qc.partitions.find(partition);
  const bool accessible = qc.canAccess(partition);
  if (pit == qc.partitions.end()) {
    auto def = qc.partitions.find(kDefaultPartition);
    out.maxAmPercent = def != qc.partitions.end() ? def->second.maximumAmResourcePercent : 0.1;
    out.maxCapacity = accessible ? 1 : 0;
  } else {
    const PartitionConfig& pc = pit->second;
    out.maxAmPercent = pc.maximumAmResourcePercent;
    switch (pc.capacity.mode) {
      case CapacityMode::kPercent: out.capacity = pc.capacity.fraction; break;
      case CapacityMode::kWeight: {
        double sum = 0;
        for (const CsQueue* s : q.parent()->children()) {
          auto sp = s->config().partitions.find(partition);
          if (sp != s->config().partitions.end() && sp->second.capacity.weight > 0) {
            sum += sp->second.capacity.weight;
          }
        }
        out.weight = pc.capacity.weight;
        out.capacity = sum > 0 ? std::max(0.0, pc.capacity.weight) / sum : 0;
        break;
      }
      case CapacityMode::kAbsolute: {
        const Resource parentMin = parent.effectiveMin;
        out.capacity =
            rc.isInvalidDivisor(parentMin) ? 0 : rc.divide(R, pc.capacity.absolute, parentMin);
        break;
      }
    }
    if (pc.maximumCapacity.mode == CapacityMode::kAbsolute) {
      out.maxCapacity =
          rc.isInvalidDivisor(parent.effectiveMax)
              ? 1
              : std::min(1.0, rc.divide(R, pc.maximumCapacity.absolute, parent.effectiveMax));
    } else {
      out.maxCapacity = pc.maximumCapacity.fraction;
    }
  }
  // Percent and weight modes: the parser derived the absolute values with YARN's float
  // arithmetic; absolute mode (and partitions the queue does not configure) derive them here.
  if (pit != qc.partitions.end() && pit->second.capacity.mode != CapacityMode::kAbsolute) {
    out.absCapacity = pit->second.absoluteCapacity;
  } else {
    out.absCapacity = static_cast<float>(out.capacity * parent.absCapacity);
  }
  if (pit != qc.partitions.end() && pit->second.maximumCapacity.mode != CapacityMode::kAbsolute) {
    out.absMaxCapacity = pit->second.absoluteMaximumCapacity;
  } else {
    out.absMaxCapacity = static_cast<float>(out.maxCapacity * parent.absMaxCapacity);
  }
  out.effectiveMin = multiplyAndRoundDown(R, out.absCapacity);
  out.effectiveMax = multiplyAndRoundDown(R, out.absMaxCapacity);
  // Absolute mode: YARN's effective resources are the configured ones when the parent has them
  // (ParentQueue's effective min/max resources), every type as given; R x a float fraction can
  // lose a unit ([memory=3] of 100 is 0.03f = 0.0299999993 -> 2).
  if (pit != qc.partitions.end()) {
    const PartitionConfig& pc = pit->second;
    if (pc.capacity.mode == CapacityMode::kAbsolute &&
        pc.capacity.absolute.fitsIn(parent.effectiveMin)) {
      out.effectiveMin = pc.capacity.absolute;
    }
    if (pc.maximumCapacity.mode == CapacityMode::kAbsolute &&
        pc.maximumCapacity.absolute.fitsIn(parent.effectiveMax)) {
      out.effectiveMax = pc.maximumCapacity.absolute;
    }
  }
  return out;
}

}  // namespace

void QueueTree::resolve(const ResourceCalculator& rc,
                        const std::map<std::string, Resource>& partitions, const Resource& minAlloc,
                        const Resource& clusterMaxAlloc) {
  for (CsQueue* q : preorder_) resolveQueue(*q, rc, partitions, minAlloc, clusterMaxAlloc);
}

void QueueTree::resolveQueue(CsQueue& queue, const ResourceCalculator& rc,
                             const std::map<std::string, Resource>& partitions,
                             const Resource& minAlloc, const Resource& clusterMaxAlloc) {
  CsQueue* q = &queue;
  q->caps.clear();
  for (const auto& [p, R] : partitions) {
    if (!q->parent()) {
      ResolvedCapacity root{1, 1, 1, 1, 0.1, -1, R, R};
      auto def = q->config().partitions.find(kDefaultPartition);
      if (def != q->config().partitions.end()) {
        root.maxAmPercent = def->second.maximumAmResourcePercent;
      }
      q->caps[p] = root;
    } else {
      q->caps[p] = resolveChild(rc, *q, q->parent()->cap(p), p, R);
    }
    q->usage(p);  // every known partition has a usage entry
  }
  const Resource maxDown = rc.roundDown(q->cap(kDefaultPartition).effectiveMax, minAlloc);
  q->currentLimit = q->parent() ? rc.roundDown(rc.min(partitions.at(kDefaultPartition), maxDown,
                                                      q->parent()->currentLimit),
                                               minAlloc)
                                : partitions.at(kDefaultPartition);
  const ResourceLimit& ml = q->config().maximumAllocation;
  Resource maxAlloc = clusterMaxAlloc;
  for (int i = 0; i < kMaxResourceTypes; ++i) {
    if (ml.isBounded(i) && ml.get(i) >= 0) maxAlloc.set(i, std::min(ml.get(i), maxAlloc.get(i)));
  }
  q->maximumAllocation = maxAlloc;
}

Status QueueTree::check() const {
  for (const CsQueue* q : preorder_) {
    int apps = 0;
    for (const auto& [p, u] : q->usages) {
      if (!u.used.isNonNegative() || !u.reserved.isNonNegative() || !u.pending.isNonNegative() ||
          !u.amUsed.isNonNegative()) {
        return internalError("queue {} partition '{}': negative usage", q->path(), p);
      }
      if (!u.reserved.fitsIn(u.used)) {
        return internalError("queue {} partition '{}': reserved {} exceeds used {}", q->path(), p,
                             u.reserved.toString(), u.used.toString());
      }
      if (q->isLeaf()) {
        Resource users;
        for (const auto& [name, user] : q->users) users += user.usedIn(p);
        if (users != u.used) {
          return internalError("leaf {} partition '{}': used {} != users' used {}", q->path(), p,
                               u.used.toString(), users.toString());
        }
        continue;
      }
      QueueUsage sum;
      for (const CsQueue* c : q->children()) {
        const QueueUsage& cu = c->usage(p);
        sum.used += cu.used;
        sum.reserved += cu.reserved;
        sum.pending += cu.pending;
        sum.amUsed += cu.amUsed;
      }
      if (sum.used != u.used || sum.reserved != u.reserved || sum.pending != u.pending ||
          sum.amUsed != u.amUsed) {
        return internalError(
            "queue {} partition '{}': usage (used {}, reserved {}, pending {}, am {}) != "
            "children's sums (used {}, reserved {}, pending {}, am {})",
            q->path(), p, u.used.toString(), u.reserved.toString(), u.pending.toString(),
            u.amUsed.toString(), sum.used.toString(), sum.reserved.toString(),
            sum.pending.toString(), sum.amUsed.toString());
      }
    }
    if (q->isLeaf()) {
      apps = static_cast<int>(q->activeApps.size() + q->pendingApps.size() +
                              q->nonRunnableApps.size());
    } else {
      for (const CsQueue* c : q->children()) apps += c->numApplications;
    }
    if (apps != q->numApplications) {
      return internalError("queue {}: numApplications {} != {}", q->path(), q->numApplications,
                           apps);
    }
  }
  return Status::ok();
}

}  // namespace spindle

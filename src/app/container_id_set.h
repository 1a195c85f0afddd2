// An ordered set of container ids tuned for the scheduler's pattern: ids are inserted in
// increasing order (an app hands out container_..._<seq> with seq ascending, attempts ascending)
// and erased in any order. Replaces std::set<ContainerId> for an app's live containers, whose
// tree walk cost a cache miss per level on every allocation and release.
//
//   ContainerIdSet live;
//   live.insert(c);                 // O(1) amortised when c is the largest id so far
//   live.count(c);                  // O(log n) binary search over contiguous memory
//   live.erase(c);                  // O(log n): marks a tombstone, compacts when half are dead
//   for (ContainerId id : live) ... // ascending, as std::set iterates
//
// Layout: `ids_` sorted ascending, holding live ids and tombstones; a tombstone keeps its id
// with kDeadBit set in the sequence number (sequence numbers never reach 2^63), so an erase
// touches the same memory the search did. Invariants: ids_ is strictly ascending by id with the
// bit cleared; size() == number of entries without the bit; tombstones never exceed
// max(kCompactFloor, live entries) (compaction restores it).
// Iterators are invalidated by insert and erase, as a vector's.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "base/ids.h"

namespace spindle {

class ContainerIdSet {
 public:
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = ContainerId;
    using difference_type = std::ptrdiff_t;
    using pointer = const ContainerId*;
    using reference = const ContainerId&;
    const_iterator() = default;
    reference operator*() const { return set_->ids_[i_]; }
    pointer operator->() const { return &set_->ids_[i_]; }
    const_iterator& operator++() {
      ++i_;
      skipDead();
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }

   private:
    friend class ContainerIdSet;
    const_iterator(const ContainerIdSet* s, size_t i) : set_(s), i_(i) { skipDead(); }
    void skipDead() {
      while (i_ < set_->ids_.size() && isDead(set_->ids_[i_])) ++i_;
    }
    const ContainerIdSet* set_ = nullptr;
    size_t i_ = 0;
  };
  using iterator = const_iterator;
  using value_type = ContainerId;

  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, ids_.size()); }
  size_t size() const { return live_; }
  bool empty() const { return live_ == 0; }
  size_t count(const ContainerId& c) const {
    const size_t i = position(c);
    return i < ids_.size() && ids_[i] == c ? 1 : 0;  // a tombstone never equals a live id
  }
  bool contains(const ContainerId& c) const { return count(c) == 1; }
  const_iterator find(const ContainerId& c) const {
    const size_t i = position(c);
    return i < ids_.size() && ids_[i] == c ? const_iterator(this, i) : end();
  }

  // Returns false when c is already present.
  bool insert(const ContainerId& c) {
    // Trailing tombstones are always popped, so the last entry is live.
    if (ids_.empty() || ids_.back() < c) {
      ids_.push_back(c);
      ++live_;
      return true;
    }
    const size_t i = position(c);
    if (i < ids_.size() && sameId(ids_[i], c)) {
      if (!isDead(ids_[i])) return false;
      ids_[i] = c;
      --deadCount_;
      ++live_;
      return true;
    }
    ids_.insert(ids_.begin() + static_cast<std::ptrdiff_t>(i), c);
    ++live_;
    return true;
  }

  // Returns the number of ids removed (0 or 1), as std::set::erase.
  size_t erase(const ContainerId& c) {
    const size_t i = position(c);
    if (i >= ids_.size() || !(ids_[i] == c)) return 0;
    ids_[i].seq |= kDeadBit;
    --live_;
    ++deadCount_;
    // Trailing tombstones go at once, so the append fast path keeps working.
    while (!ids_.empty() && isDead(ids_.back())) {
      ids_.pop_back();
      --deadCount_;
    }
    if (deadCount_ > kCompactFloor && deadCount_ > live_) compact();
    return 1;
  }

  void clear() {
    ids_.clear();
    live_ = 0;
    deadCount_ = 0;
  }

  bool operator==(const ContainerIdSet& o) const {
    return live_ == o.live_ && std::equal(begin(), end(), o.begin());
  }

 private:
  static constexpr size_t kCompactFloor = 16;
  static constexpr uint64_t kDeadBit = uint64_t{1} << 63;

  static bool isDead(const ContainerId& c) { return (c.seq & kDeadBit) != 0; }
  // Equal ids, ignoring the tombstone bit.
  static bool sameId(const ContainerId& a, const ContainerId& b) {
    return a.attempt == b.attempt && (a.seq & ~kDeadBit) == b.seq;
  }
  // First entry not below c, comparing ids without the tombstone bit.
  size_t position(const ContainerId& c) const {
    auto below = [](const ContainerId& e, const ContainerId& key) {
      if (e.attempt != key.attempt) return e.attempt < key.attempt;
      return (e.seq & ~kDeadBit) < key.seq;
    };
    return static_cast<size_t>(std::lower_bound(ids_.begin(), ids_.end(), c, below) -
                               ids_.begin());
  }
  void compact() {
    size_t out = 0;
    for (size_t i = 0; i < ids_.size(); ++i) {
      if (!isDead(ids_[i])) ids_[out++] = ids_[i];
    }
    ids_.resize(out);
    deadCount_ = 0;
  }

  std::vector<ContainerId> ids_;
  size_t live_ = 0;
  size_t deadCount_ = 0;
};

}  // namespace spindle

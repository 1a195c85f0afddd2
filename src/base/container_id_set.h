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
//   ContainerIdMap<uint32_t> slots;  // the same with a small value per id
//   slots.insert(c, 7);
//   const uint32_t* v = slots.value(c);   // nullptr when absent
//
// Layout: `entries_` sorted ascending by id, holding live ids and tombstones; a tombstone keeps
// its id with kDeadBit set in the sequence number (sequence numbers never reach 2^63), so an
// erase touches the same memory the search did. Invariants: entries_ is strictly ascending by
// id with the bit cleared; size() == number of entries without the bit; tombstones never exceed
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

// Value = NoValue: a set (entries are bare ids).
struct NoValue {};

template <typename Value>
class BasicContainerIdSet {
  struct Entry {
    ContainerId id;
    [[no_unique_address]] Value value;
  };

 public:
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = ContainerId;
    using difference_type = std::ptrdiff_t;
    using pointer = const ContainerId*;
    using reference = const ContainerId&;
    const_iterator() = default;
    reference operator*() const { return set_->entries_[i_].id; }
    pointer operator->() const { return &set_->entries_[i_].id; }
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
    friend class BasicContainerIdSet;
    const_iterator(const BasicContainerIdSet* s, size_t i) : set_(s), i_(i) { skipDead(); }
    void skipDead() {
      while (i_ < set_->entries_.size() && isDead(set_->entries_[i_].id)) ++i_;
    }
    const BasicContainerIdSet* set_ = nullptr;
    size_t i_ = 0;
  };
  using iterator = const_iterator;
  using value_type = ContainerId;

  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, entries_.size()); }
  size_t size() const { return live_; }
  bool empty() const { return live_ == 0; }
  size_t count(const ContainerId& c) const { return at(c) != kNone ? 1 : 0; }
  bool contains(const ContainerId& c) const { return at(c) != kNone; }
  const_iterator find(const ContainerId& c) const {
    const size_t i = at(c);
    return i != kNone ? const_iterator(this, i) : end();
  }
  // The value stored with c; nullptr when c is absent.
  const Value* value(const ContainerId& c) const {
    const size_t i = at(c);
    return i != kNone ? &entries_[i].value : nullptr;
  }

  // Returns false (and changes nothing) when c is already present.
  bool insert(const ContainerId& c, const Value& v = Value()) {
    // Trailing tombstones are always popped, so the last entry is live.
    if (entries_.empty() || entries_.back().id < c) {
      entries_.push_back(Entry{c, v});
      ++live_;
      return true;
    }
    const size_t i = position(c);
    if (i < entries_.size() && sameId(entries_[i].id, c)) {
      if (!isDead(entries_[i].id)) return false;
      entries_[i] = Entry{c, v};
      --deadCount_;
      ++live_;
      return true;
    }
    entries_.insert(entries_.begin() + static_cast<std::ptrdiff_t>(i), Entry{c, v});
    ++live_;
    return true;
  }

  // Returns the number of ids removed (0 or 1), as std::set::erase.
  size_t erase(const ContainerId& c) {
    const size_t i = at(c);
    if (i == kNone) return 0;
    entries_[i].id.seq |= kDeadBit;
    --live_;
    ++deadCount_;
    // Trailing tombstones go at once, so the append fast path keeps working.
    while (!entries_.empty() && isDead(entries_.back().id)) {
      entries_.pop_back();
      --deadCount_;
    }
    if (deadCount_ > kCompactFloor && deadCount_ > live_) compact();
    return 1;
  }

  void clear() {
    entries_.clear();
    live_ = 0;
    deadCount_ = 0;
  }

  bool operator==(const BasicContainerIdSet& o) const {
    return live_ == o.live_ && std::equal(begin(), end(), o.begin());
  }

 private:
  static constexpr size_t kCompactFloor = 16;
  static constexpr uint64_t kDeadBit = uint64_t{1} << 63;
  static constexpr size_t kNone = SIZE_MAX;

  static bool isDead(const ContainerId& c) { return (c.seq & kDeadBit) != 0; }
  // Equal ids, ignoring the tombstone bit.
  static bool sameId(const ContainerId& a, const ContainerId& b) {
    return a.attempt == b.attempt && (a.seq & ~kDeadBit) == b.seq;
  }
  // First entry not below c, comparing ids without the tombstone bit.
  size_t position(const ContainerId& c) const {
    auto below = [](const Entry& e, const ContainerId& key) {
      if (e.id.attempt != key.attempt) return e.id.attempt < key.attempt;
      return (e.id.seq & ~kDeadBit) < key.seq;
    };
    return static_cast<size_t>(std::lower_bound(entries_.begin(), entries_.end(), c, below) -
                               entries_.begin());
  }
  // Index of live id c, or kNone (a tombstone never equals a live id).
  size_t at(const ContainerId& c) const {
    const size_t i = position(c);
    return i < entries_.size() && entries_[i].id == c ? i : kNone;
  }
  void compact() {
    size_t out = 0;
    for (size_t i = 0; i < entries_.size(); ++i) {
      if (!isDead(entries_[i].id)) entries_[out++] = entries_[i];
    }
    entries_.resize(out);
    deadCount_ = 0;
  }

  std::vector<Entry> entries_;
  size_t live_ = 0;
  size_t deadCount_ = 0;
};

using ContainerIdSet = BasicContainerIdSet<NoValue>;
template <typename Value>
using ContainerIdMap = BasicContainerIdSet<Value>;

}  // namespace spindle

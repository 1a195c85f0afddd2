// FlatCountMap: an open-addressing hash map from an integer key to a positive count, the storage
// of the allocation tag store's per-node and per-rack counts.
//
//   FlatCountMap<uint64_t> counts;
//   counts.add(key, +1);       // {before 0, after 1}: inserted
//   counts.get(key);           // 1
//   counts.add(key, -1);       // {1, 0}: erased
//   counts.forEach([](uint64_t k, int32_t n) { ... });
//
// Why not std::unordered_map: in the tag store almost every allocation or completion moves some
// count between 0 and 1, i.e. inserts or erases an entry; a node-based map allocates or frees
// each time. Here entries live in one array:
//  1. linear probing from a multiplicative hash, capacity a power of two, grown at 3/4 load;
//  2. erase by backward shift (no tombstones), so probe chains stay short under churn;
//  3. a count that reaches 0 or below is erased: stored counts are always > 0 (the store's
//     invariant 1). The array does not shrink: a node keeps room for its busiest moment.
// Key `kEmpty` (all bits set) is reserved; the store never uses it (it is an invalid id).
// Not thread-safe.
#pragma once

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace spindle::placement {

template <typename Key>
class FlatCountMap {
 public:
  static constexpr Key kEmpty = std::numeric_limits<Key>::max();

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  int32_t get(Key key) const {
    if (size_ == 0) return 0;
    for (size_t i = slotOf(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return slots_[i].count;
      if (slots_[i].key == kEmpty) return 0;
    }
  }

  // Adds `delta` to the key's count (absent = 0) and returns the count before and after; an
  // entry whose count ends <= 0 is removed.
  std::pair<int32_t, int32_t> add(Key key, int32_t delta) {
    if (slots_.empty() || (size_ + 1) * 4 > slots_.size() * 3) grow();
    size_t i = slotOf(key);
    for (; slots_[i].key != kEmpty; i = (i + 1) & mask_) {
      if (slots_[i].key != key) continue;
      const int32_t before = slots_[i].count;
      const int32_t after = before + delta;
      if (after <= 0) {
        eraseAt(i);
      } else {
        slots_[i].count = after;
      }
      return {before, after};
    }
    if (delta > 0) {
      slots_[i] = {key, delta};
      ++size_;
    }
    return {0, delta};
  }

  template <typename Fn>
  void forEach(Fn&& fn) const {
    for (const Slot& s : slots_) {
      if (s.key != kEmpty) fn(s.key, s.count);
    }
  }

 private:
  struct Slot {
    Key key = kEmpty;
    int32_t count = 0;
  };

  size_t slotOf(Key key) const {
    const uint64_t h = static_cast<uint64_t>(key) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h >> shift_);
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const size_t capacity = old.empty() ? 8 : old.size() * 2;
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(capacity));
    for (const Slot& s : old) {
      if (s.key == kEmpty) continue;
      size_t i = slotOf(s.key);
      while (slots_[i].key != kEmpty) i = (i + 1) & mask_;
      slots_[i] = s;
    }
  }

  // Backward-shift deletion: move later members of the probe chain into the hole while their
  // home slot does not lie cyclically in (hole, current].
  void eraseAt(size_t hole) {
    --size_;
    size_t j = hole;
    for (;;) {
      j = (j + 1) & mask_;
      if (slots_[j].key == kEmpty) break;
      const size_t home = slotOf(slots_[j].key);
      const bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
      if (stays) continue;
      slots_[hole] = slots_[j];
      hole = j;
    }
    slots_[hole] = Slot{};
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t mask_ = 0;
  unsigned shift_ = 64;
};

}  // namespace spindle::placement

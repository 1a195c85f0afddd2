// The scheduler's live containers by id: YARN's AbstractYarnScheduler.liveContainers map, laid
// out for the allocation hot path (one allocation and one release per container).
//
//   ContainerTable t;
//   Container& c = t.add(id);          // a slot for the new record; fill every field
//   c.node = n; ...
//   const Container* found = t.find(id);
//   for (const auto& [id, c] : t) ...  // slot order: deterministic, not by id
//   ContainerTable::Unlinked u = t.unlink(id);   // find() no longer sees it ...
//   use(*u.container);                           // ... but the record stays readable
//   t.recycle(u);                                // until its slot is handed back
//
// Layout: records live in fixed-size chunks (`slots`), so a record never moves and references
// stay valid until it is recycled, as with std::unordered_map nodes; freed slots are reused last
// in, first out, so a release followed by an allocation writes to warm memory. The index from
// id to slot is an open-addressing table with linear probing (keys stored inline: a lookup is
// one probe run over contiguous memory, no node allocation per insert, deletion by backward
// shift so no tombstones accumulate).
// Invariants: every id in the index maps to a live slot whose record has that id; a slot is
// live iff it is in the index; the index is at most half full.
// Replaces std::unordered_map<ContainerId, Container>, whose insert allocated a node and whose
// erase rehashed the next node in the bucket chain (a cache miss on an unrelated record).
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

#include "app/container.h"
#include "base/ids.h"

namespace spindle {

class ContainerTable {
 public:
  // A record removed from the index but not yet recycled.
  struct Unlinked {
    Container* container = nullptr;
    uint32_t slot = 0;
    explicit operator bool() const { return container != nullptr; }
  };

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<const ContainerId&, const Container&>;
    using difference_type = std::ptrdiff_t;
    using reference = value_type;
    const_iterator() = default;
    // A pair of references, so `for (const auto& [id, c] : table)` reads as over a map.
    value_type operator*() const {
      const Container& c = table_->slot(slot_);
      return {c.id, c};
    }
    const_iterator& operator++() {
      ++slot_;
      skipFree();
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const const_iterator& o) const { return slot_ == o.slot_; }

   private:
    friend class ContainerTable;
    const_iterator(const ContainerTable* t, uint32_t s) : table_(t), slot_(s) { skipFree(); }
    void skipFree() {
      while (slot_ < table_->live_.size() && !table_->live_[slot_]) ++slot_;
    }
    const ContainerTable* table_ = nullptr;
    uint32_t slot_ = 0;
  };

  ContainerTable() = default;
  ContainerTable(const ContainerTable&) = delete;
  ContainerTable& operator=(const ContainerTable&) = delete;

  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, static_cast<uint32_t>(live_.size())); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  const Container* find(const ContainerId& id) const {
    if (index_.empty()) return nullptr;
    for (size_t i = home(id);; i = (i + 1) & mask_) {
      const Entry& e = index_[i];
      if (e.slot == kEmpty) return nullptr;
      if (e.id == id) return &slot(e.slot);
    }
  }
  Container* find(const ContainerId& id) {
    return const_cast<Container*>(std::as_const(*this).find(id));
  }
  // Starts loading id's index entry (a hint; no effect on contents).
  void prefetch(const ContainerId& id) const {
    if (!index_.empty()) __builtin_prefetch(&index_[home(id)]);
  }
  size_t count(const ContainerId& id) const { return find(id) != nullptr ? 1 : 0; }
  bool contains(const ContainerId& id) const { return find(id) != nullptr; }

  // A slot for a new record with `id`, which must not be in the table. The slot may hold a
  // recycled record: the caller sets every field (id is set here).
  Container& add(const ContainerId& id) {
    if ((size_ + 1) * 2 > index_.size()) grow();
    uint32_t s;
    if (!free_.empty()) {
      s = free_.back();
      free_.pop_back();
    } else {
      s = static_cast<uint32_t>(live_.size());
      if ((s & (kChunk - 1)) == 0) chunks_.push_back(std::make_unique<Container[]>(kChunk));
      live_.push_back(0);
    }
    live_[s] = 1;
    insertIndex(id, s);
    ++size_;
    Container& c = slot(s);
    c.id = id;
    return c;
  }

  // Removes `id` from the index (find and iteration no longer see it); the record stays valid
  // until recycle(). Empty result when `id` is not in the table.
  Unlinked unlink(const ContainerId& id) {
    if (index_.empty()) return {};
    for (size_t i = home(id);; i = (i + 1) & mask_) {
      Entry& e = index_[i];
      if (e.slot == kEmpty) return {};
      if (e.id == id) {
        const uint32_t s = e.slot;
        eraseAt(i);
        live_[s] = 0;
        --size_;
        return {&slot(s), s};
      }
    }
  }
  // Hands an unlinked slot back for reuse.
  void recycle(const Unlinked& u) { free_.push_back(u.slot); }

 private:
  static constexpr uint32_t kEmpty = UINT32_MAX;
  static constexpr uint32_t kChunk = 256;  // records per chunk (a power of two)
  struct Entry {
    ContainerId id;
    uint32_t slot = kEmpty;
  };

  const Container& slot(uint32_t s) const { return chunks_[s / kChunk][s % kChunk]; }
  Container& slot(uint32_t s) { return chunks_[s / kChunk][s % kChunk]; }

  // splitmix64's finaliser over the three id fields: sequence numbers are consecutive, so the
  // low bits alone would cluster.
  size_t home(const ContainerId& id) const {
    uint64_t h = (uint64_t{id.attempt.app.value()} << 32 | id.attempt.attempt) ^
                 (id.seq * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 31;
    return static_cast<size_t>(h) & mask_;
  }
  void insertIndex(const ContainerId& id, uint32_t s) {
    size_t i = home(id);
    while (index_[i].slot != kEmpty) i = (i + 1) & mask_;
    index_[i] = Entry{id, s};
  }
  // Backward-shift deletion: pulls later entries of the probe run into the hole so that every
  // entry stays reachable from its home without tombstones.
  void eraseAt(size_t hole) {
    for (size_t j = (hole + 1) & mask_;; j = (j + 1) & mask_) {
      Entry& e = index_[j];
      if (e.slot == kEmpty) break;
      const size_t h = home(e.id);
      // e may move to the hole iff its home is not cyclically within (hole, j].
      const bool homeInRange = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j);
      if (homeInRange) continue;
      index_[hole] = e;
      hole = j;
    }
    index_[hole] = Entry{};
  }
  void grow() {
    std::vector<Entry> old = std::move(index_);
    const size_t n = old.empty() ? 64 : old.size() * 2;
    index_.assign(n, Entry{});
    mask_ = n - 1;
    for (const Entry& e : old) {
      if (e.slot != kEmpty) insertIndex(e.id, e.slot);
    }
  }

  std::vector<std::unique_ptr<Container[]>> chunks_;
  std::vector<uint8_t> live_;    // per slot: in the index
  std::vector<uint32_t> free_;   // recycled slots, reused last first
  std::vector<Entry> index_;     // size a power of two (or empty)
  size_t mask_ = 0;
  size_t size_ = 0;
};

}  // namespace spindle

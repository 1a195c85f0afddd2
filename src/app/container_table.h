// The scheduler's live container records: YARN's AbstractYarnScheduler.liveContainers, laid out
// for the allocation hot path (one allocation and one release per container). The table holds
// the records; the id -> record index is each application's live-container map
// (Application::containerSlot), which every allocation and release touches anyway, so finding
// a record costs no lookup of its own.
//
//   ContainerTable t;
//   uint32_t slot = t.acquire();       // a slot for a new record
//   Container& c = t.at(slot);         // fill every field (the slot may hold an old record)
//   app.addContainer(c.id, c.resource, c.isAm, slot);
//   for (const auto& [id, c] : t) ...  // live records in slot order: deterministic, not by id
//   t.unlink(slot);                    // iteration no longer sees it, the record stays readable
//   t.recycle(slot);                   // until its slot is handed back
//
// Layout: records live in fixed-size chunks, so a record never moves and references stay valid
// until it is recycled, as with std::unordered_map nodes; freed slots are reused last in, first
// out, so a release followed by an allocation writes to warm memory.
// Invariants: size() == number of live slots; a recycled slot is not live.
// Replaces std::unordered_map<ContainerId, Container>, whose insert allocated a node, whose
// lookups were a cache miss each, and whose erase rehashed the next node in the bucket chain.
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
  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = std::pair<const ContainerId&, const Container&>;
    using difference_type = std::ptrdiff_t;
    using reference = value_type;
    const_iterator() = default;
    // A pair of references, so `for (const auto& [id, c] : table)` reads as over a map.
    value_type operator*() const {
      const Container& c = table_->at(slot_);
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

  const Container& at(uint32_t slot) const { return chunks_[slot / kChunk][slot % kChunk]; }
  Container& at(uint32_t slot) { return chunks_[slot / kChunk][slot % kChunk]; }

  // A live slot for a new record; it may hold a recycled record, whose fields the caller sets.
  uint32_t acquire() {
    uint32_t s;
    if (!free_.empty()) {
      s = free_.back();
      free_.pop_back();
    } else {
      s = static_cast<uint32_t>(live_.size());
      if (s % kChunk == 0) chunks_.push_back(std::make_unique<Container[]>(kChunk));
      live_.push_back(0);
    }
    live_[s] = 1;
    ++size_;
    return s;
  }
  // Iteration no longer sees the slot; its record stays valid until recycle(slot).
  void unlink(uint32_t slot) {
    live_[slot] = 0;
    --size_;
  }
  // Hands an unlinked slot back for reuse.
  void recycle(uint32_t slot) { free_.push_back(slot); }

 private:
  static constexpr uint32_t kChunk = 256;  // records per chunk

  std::vector<std::unique_ptr<Container[]>> chunks_;
  std::vector<uint8_t> live_;   // per slot
  std::vector<uint32_t> free_;  // recycled slots, reused last first
  size_t size_ = 0;
};

}  // namespace spindle

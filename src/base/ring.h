// A ring of at most `capacity` T, oldest first. push() hands back the slot to fill: a new one
// until the ring is full, then the oldest, so that a T's buffers (strings, vectors) are reused
// instead of freed and allocated again. For the logs the RM keeps on its scheduling path (recent
// decisions, activities), where a deque's push_back and pop_front cost an allocation and a free
// per record.
//
//   Ring<Entry> ring(1000);
//   Entry& e = ring.push();       // holds an old entry's values once the ring is full
//   e.text.assign(...);           // reuses the old entry's buffer
//   for (const Entry& x : ring) ...                       // oldest first
//   for (auto it = ring.rbegin(); it != ring.rend(); ++it) // newest first
// Thread-compatible.
#pragma once

#include <cstddef>
#include <iterator>
#include <vector>

namespace spindle {

template <class T>
class Ring {
 public:
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T*;
    using reference = const T&;

    const_iterator() = default;
    const_iterator(const Ring* ring, size_t i) : ring_(ring), i_(static_cast<difference_type>(i)) {}
    reference operator*() const { return (*ring_)[static_cast<size_t>(i_)]; }
    pointer operator->() const { return &**this; }
    reference operator[](difference_type n) const { return *(*this + n); }
    const_iterator& operator++() { return *this += 1; }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++*this;
      return old;
    }
    const_iterator& operator--() { return *this -= 1; }
    const_iterator operator--(int) {
      const_iterator old = *this;
      --*this;
      return old;
    }
    const_iterator& operator+=(difference_type n) {
      i_ += n;
      return *this;
    }
    const_iterator& operator-=(difference_type n) {
      i_ -= n;
      return *this;
    }
    friend const_iterator operator+(const_iterator a, difference_type n) { return a += n; }
    friend const_iterator operator+(difference_type n, const_iterator a) { return a += n; }
    friend const_iterator operator-(const_iterator a, difference_type n) { return a -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return a.i_ - b.i_;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
      return a.i_ == b.i_;
    }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) {
      return a.i_ <=> b.i_;
    }

   private:
    const Ring* ring_ = nullptr;
    difference_type i_ = 0;
  };
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  // A capacity of 0 is taken as 1.
  explicit Ring(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  // The slot of the newest element: a default-constructed T while the ring fills, then the
  // oldest element as it was (the caller overwrites every field it keeps).
  T& push() {
    if (items_.size() < capacity_) return items_.emplace_back();
    T& slot = items_[oldest_];
    oldest_ = oldest_ + 1 == capacity_ ? 0 : oldest_ + 1;
    return slot;
  }

  size_t size() const { return items_.size(); }
  size_t capacity() const { return capacity_; }
  bool empty() const { return items_.empty(); }
  // i = 0 is the oldest, size() - 1 the newest.
  const T& operator[](size_t i) const {
    const size_t at = oldest_ + i;
    return items_[at >= items_.size() ? at - items_.size() : at];
  }
  const T& back() const { return (*this)[items_.size() - 1]; }

  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, items_.size()}; }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

 private:
  size_t capacity_;
  size_t oldest_ = 0;  // index in items_ of the oldest element once the ring is full
  std::vector<T> items_;
};

}  // namespace spindle

// MemoryStore: the state store in process memory (YARN's MemoryRMStateStore), for tests. Its
// data lives in a MemoryStoreData that several MemoryStore objects may share, so a test can
// "restart" an RmCore on what the previous one wrote, and make writes fail or be fenced.
//
//   auto data = std::make_shared<MemoryStoreData>();
//   MemoryStore store(data);
//   data->failWrites = true;     // the next apply() answers kFailed, nothing changes
//   data->fenced = true;         // every write answers kFenced
#pragma once

#include <memory>

#include "store/state_store.h"

namespace spindle::store {

struct MemoryStoreData {
  StoreSnapshot snapshot;
  bool failWrites = false;
  bool fenced = false;
  int64_t batchesApplied = 0;
};

class MemoryStore : public StateStore {
 public:
  explicit MemoryStore(std::shared_ptr<MemoryStoreData> data = std::make_shared<MemoryStoreData>())
      : data_(std::move(data)) {}
  std::string name() const override { return "memory"; }
  StoreStatus open() override;
  StoreStatus load(StoreSnapshot& out) override;
  StoreStatus bumpEpoch(uint64_t& epoch) override;
  StoreStatus apply(const StoreBatch& batch) override;
  const std::shared_ptr<MemoryStoreData>& data() const { return data_; }

 private:
  StoreStatus writable() const;
  std::shared_ptr<MemoryStoreData> data_;
};

}  // namespace spindle::store

#include "store/memory_store.h"

#include <fmt/format.h>

namespace spindle::store {

StoreStatus MemoryStore::open() {
  if (data_->snapshot.schemaVersion != kSchemaVersion) {
    return {StoreCode::kIncompatible,
            fmt::format("memory store holds schema version {}, this build reads version {}",
                        data_->snapshot.schemaVersion, kSchemaVersion)};
  }
  return StoreStatus::ok();
}

StoreStatus MemoryStore::load(StoreSnapshot& out) {
  out = data_->snapshot;
  return StoreStatus::ok();
}

StoreStatus MemoryStore::writable() const {
  if (data_->fenced) return {StoreCode::kFenced, "memory store: fenced (another RM is active)"};
  if (data_->failWrites) return {StoreCode::kFailed, "memory store: write failed (injected)"};
  return StoreStatus::ok();
}

StoreStatus MemoryStore::bumpEpoch(uint64_t& epoch) {
  if (StoreStatus s = writable(); !s.isOk()) return s;
  epoch = ++data_->snapshot.epoch;
  return StoreStatus::ok();
}

StoreStatus MemoryStore::apply(const StoreBatch& batch) {
  if (StoreStatus s = writable(); !s.isOk()) return s;
  // Atomic by construction: nothing below can fail half-way.
  for (const StoreOp& op : batch.ops()) {
    auto& table = data_->snapshot.records[op.kind];
    if (op.type == StoreOp::Type::kPut) {
      table[op.key] = op.value;
    } else {
      table.erase(op.key);
    }
  }
  ++data_->batchesApplied;
  return StoreStatus::ok();
}

}  // namespace spindle::store

#include "report/track.h"

#include <fstream>
#include <optional>
#include <unordered_map>

#include <nlohmann/json.hpp>

namespace spindle::report {

const std::vector<std::string> kKnownQueueMetrics = {
    "allocated.memory",
    "allocated.vcores",
    "pending.memory",
    "pending.vcores",
    // The capacity-preemption monitor's figures of its last round (simulator, YARN-569).
    "guaranteed.memory",
    "guaranteed.vcores",
    "ideal.assigned.memory",
    "ideal.assigned.vcores",
    "ideal.preemption.memory",
    "ideal.preemption.vcores",
    "actual.preemption.memory",
    "actual.preemption.vcores",
    "preemption.selected.memory",
    "preemption.selected.vcores",
    // The queue's configuration (Capacity: capacity, maximum capacity; Fair: min, max share)
    // and the Fair Scheduler's fair share.
    "guarantee.memory",
    "guarantee.vcores",
    "maximum.memory",
    "maximum.vcores",
    "fairshare.memory",
    // Containers marked for preemption and killed as preempted, totals (either scheduler).
    "containers.marked",
    "containers.preempted",
};

namespace {

using json = nlohmann::json;

// Streaming handler for nlohmann::json::sax_parse: accepts exactly an array of flat objects of
// numbers and builds one column of points per key. Returning false stops the parse; `error`
// then says why.
class TrackSax {
 public:
  explicit TrackSax(std::string fileName) : fileName_(std::move(fileName)) {}

  bool null() {
    if (!inSample()) return fail("expected an object for sample [{}], got null", sampleIndex_);
    return true;  // null member: absent in this sample
  }
  bool boolean(bool) { return badValue("a boolean"); }
  bool number_integer(json::number_integer_t v) { return value(static_cast<double>(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return value(static_cast<double>(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return value(v); }
  bool string(json::string_t& s) { return badValue(fmt::format("the string \"{}\"", s)); }
  bool binary(json::binary_t&) { return badValue("binary data"); }
  bool start_object(std::size_t) {
    if (depth_ == 1) {
      depth_ = 2;
      time_.reset();
      row_.clear();
      return true;
    }
    if (depth_ == 0) return fail("expected a JSON array of samples, got an object");
    return badValue("an object");
  }
  bool key(json::string_t& k) {
    key_ = k;
    return true;
  }
  bool end_object() {
    depth_ = 1;
    return finishSample();
  }
  bool start_array(std::size_t) {
    if (depth_ == 0) {
      depth_ = 1;
      return true;
    }
    if (depth_ == 1) return fail("expected an object for sample [{}], got an array", sampleIndex_);
    return badValue("an array");
  }
  bool end_array() {
    depth_ = 0;
    done_ = true;
    return true;
  }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    syntaxErrorAt_ = position;
    // "[json.exception.parse_error.101] parse error at line 3, column 13: syntax error ..."
    // keeps only the part after the location, which the caller states itself.
    syntaxMessage_ = e.what();
    size_t at = syntaxMessage_.find("parse error");
    size_t colon = at == std::string::npos ? at : syntaxMessage_.find(": ", at);
    if (colon != std::string::npos) syntaxMessage_.erase(0, colon + 2);
    return false;
  }

  std::optional<size_t> syntaxErrorAt() const { return syntaxErrorAt_; }
  const std::string& syntaxMessage() const { return syntaxMessage_; }
  const std::optional<Status>& error() const { return error_; }
  bool done() const { return done_; }

  MetricsTrack build() {
    std::map<std::string, std::vector<Point>> columns;
    for (const auto& [name, index] : keyIndex_) columns.emplace(name, std::move(columns_[index]));
    return MetricsTrack::fromColumns(std::move(columns), sampleIndex_, firstTime_, lastTime_);
  }

 private:
  bool inSample() const { return depth_ == 2; }

  template <typename... Args>
  bool fail(fmt::format_string<Args...> f, Args&&... args) {
    error_ = invalidArgument("{}: {}", fileName_, fmt::format(f, std::forward<Args>(args)...));
    return false;
  }

  bool badValue(const std::string& what) {
    if (depth_ == 0) return fail("expected a JSON array of samples, got {}", what);
    if (!inSample()) return fail("expected an object for sample [{}], got {}", sampleIndex_, what);
    return fail("sample [{}]: key \"{}\": expected a number, got {}", sampleIndex_, key_, what);
  }

  bool value(double v) {
    if (!inSample()) {
      if (depth_ == 0) return fail("expected a JSON array of samples, got a number");
      return fail("expected an object for sample [{}], got a number", sampleIndex_);
    }
    if (key_ == "time") {
      time_ = v;
      return true;
    }
    auto [it, inserted] = keyIndex_.try_emplace(key_, columns_.size());
    if (inserted) columns_.emplace_back();
    row_.emplace_back(it->second, v);
    return true;
  }

  bool finishSample() {
    if (!time_) return fail("sample [{}]: missing the number \"time\"", sampleIndex_);
    if (sampleIndex_ > 0 && *time_ < lastTime_) {
      return fail("sample [{}]: time {} is before the previous sample's time {}", sampleIndex_,
                  *time_, lastTime_);
    }
    if (sampleIndex_ == 0) firstTime_ = *time_;
    lastTime_ = *time_;
    for (const auto& [index, v] : row_) columns_[index].push_back(Point{*time_, v});
    ++sampleIndex_;
    return true;
  }

  std::string fileName_;
  int depth_ = 0;  // 0 outside, 1 in the array, 2 in a sample object
  bool done_ = false;
  size_t sampleIndex_ = 0;
  std::string key_;
  std::optional<double> time_;
  std::vector<std::pair<size_t, double>> row_;
  double firstTime_ = 0;
  double lastTime_ = 0;
  std::unordered_map<std::string, size_t> keyIndex_;
  std::vector<std::vector<Point>> columns_;
  std::optional<size_t> syntaxErrorAt_;
  std::string syntaxMessage_;
  std::optional<Status> error_;
};

// 1-based line and column of byte offset `position` (nlohmann counts characters read, so the
// offending character is at position - 1).
std::pair<size_t, size_t> lineColumn(std::string_view text, size_t position) {
  size_t end = std::min(position == 0 ? 0 : position - 1, text.size());
  size_t line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < end; ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return {line, end - lineStart + 1};
}

// Turns the handler's outcome into a result. `readPrefix(n)` returns the input's first n bytes
// (re-read only on a syntax error, to turn nlohmann's offset into a line and column).
template <typename ReadPrefix>
Result<MetricsTrack> finish(TrackSax& sax, bool ok, const std::string& fileName,
                            ReadPrefix readPrefix) {
  if (sax.error()) return *sax.error();
  if (sax.syntaxErrorAt()) {
    size_t pos = *sax.syntaxErrorAt();
    std::string prefix = readPrefix(pos);
    auto [line, col] = lineColumn(prefix, pos);
    return invalidArgument("{}: line {}, column {}: malformed JSON: {}", fileName, line, col,
                           sax.syntaxMessage());
  }
  if (!ok || !sax.done()) return invalidArgument("{}: expected a JSON array of samples", fileName);
  return sax.build();
}

}  // namespace

const std::vector<Point>* MetricsTrack::global(std::string_view key) const {
  auto it = global_.find(key);
  return it == global_.end() ? nullptr : &it->second;
}

const MetricsTrack::QueueSeries& MetricsTrack::queueMetric(std::string_view metric) const {
  static const QueueSeries kEmpty;
  auto it = perQueue_.find(metric);
  return it == perQueue_.end() ? kEmpty : it->second;
}

MetricsTrack MetricsTrack::fromColumns(std::map<std::string, std::vector<Point>> columns,
                                       size_t sampleCount, double firstTime, double lastTime) {
  MetricsTrack t;
  t.sampleCount_ = sampleCount;
  t.firstTime_ = firstTime;
  t.lastTime_ = lastTime;
  constexpr std::string_view kPrefix = "queue.";
  std::vector<std::string> unresolved;
  // Pass 1: known metric suffixes define the queues.
  for (auto& [key, points] : columns) {
    if (!key.starts_with(kPrefix)) {
      t.global_.emplace(key, std::move(points));
      continue;
    }
    const std::string* best = nullptr;
    for (const std::string& m : kKnownQueueMetrics) {
      bool fits = key.size() > kPrefix.size() + m.size() + 1 && key.ends_with(m) &&
                  key[key.size() - m.size() - 1] == '.';
      if (fits && (!best || m.size() > best->size())) best = &m;
    }
    if (!best) {
      unresolved.push_back(key);
      continue;
    }
    std::string queue = key.substr(kPrefix.size(), key.size() - kPrefix.size() - best->size() - 1);
    t.queues_.insert(queue);
    t.perQueue_[*best][queue] = std::move(points);
  }
  // Pass 2: other queue keys split at the longest known queue name.
  for (const std::string& key : unresolved) {
    std::string_view rest = std::string_view(key).substr(kPrefix.size());
    const std::string* queue = nullptr;
    for (const std::string& q : t.queues_) {
      bool fits = rest.size() > q.size() + 1 && rest.starts_with(q) && rest[q.size()] == '.';
      if (fits && (!queue || q.size() > queue->size())) queue = &q;
    }
    if (!queue) {
      t.global_.emplace(key, std::move(columns[key]));
      continue;
    }
    std::string metric(rest.substr(queue->size() + 1));
    t.perQueue_[metric][*queue] = std::move(columns[key]);
  }
  return t;
}

Result<MetricsTrack> parseTrack(std::string_view text, const std::string& fileName) {
  TrackSax sax(fileName);
  bool ok = json::sax_parse(text, &sax);
  return finish(sax, ok, fileName, [&](size_t n) { return std::string(text.substr(0, n)); });
}

Result<MetricsTrack> readTrackFile(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return notFound("{}: no such file", path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidArgument("{}: cannot open for reading", path.string());
  TrackSax sax(path.string());
  bool ok = json::sax_parse(in, &sax);
  return finish(sax, ok, path.string(), [&](size_t pos) {
    std::ifstream again(path, std::ios::binary);
    std::string prefix(pos, '\0');
    again.read(prefix.data(), static_cast<std::streamsize>(pos));
    prefix.resize(static_cast<size_t>(again.gcount()));
    return prefix;
  });
}

}  // namespace spindle::report

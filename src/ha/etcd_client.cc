#include "ha/etcd_client.h"

#include <charconv>

#include "base/strings.h"

namespace spindle::ha {

using nlohmann::json;

namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// int64 fields come back as JSON strings ("123"); absent means 0 (proto3 omits defaults).
int64_t int64Field(const json& j, const char* name) {
  auto it = j.find(name);
  if (it == j.end()) return 0;
  if (it->is_number_integer()) return it->get<int64_t>();
  if (!it->is_string()) return 0;
  const std::string& s = it->get_ref<const std::string&>();
  int64_t v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  return v;
}

Result<std::vector<EtcdKeyValue>> keyValues(const json& j) {
  std::vector<EtcdKeyValue> out;
  auto it = j.find("kvs");
  if (it == j.end() || !it->is_array()) return out;
  for (const json& e : *it) {
    EtcdKeyValue kv;
    auto key = base64Decode(e.value("key", ""));
    if (!key) return key.status();
    auto value = base64Decode(e.value("value", ""));
    if (!value) return value.status();
    kv.key = std::move(*key);
    kv.value = std::move(*value);
    kv.createRevision = int64Field(e, "create_revision");
    kv.modRevision = int64Field(e, "mod_revision");
    kv.version = int64Field(e, "version");
    kv.lease = int64Field(e, "lease");
    out.push_back(std::move(kv));
  }
  return out;
}

int64_t headerRevision(const json& j) {
  auto it = j.find("header");
  return it == j.end() ? 0 : int64Field(*it, "revision");
}

json rangeBody(const std::string& key, const std::string& rangeEnd, int64_t limit) {
  json b = {{"key", base64Encode(key)}};
  if (!rangeEnd.empty()) b["range_end"] = base64Encode(rangeEnd);
  if (limit > 0) b["limit"] = std::to_string(limit);
  return b;
}

json opBody(const EtcdOp& op) {
  switch (op.type) {
    case EtcdOp::Type::kPut: {
      json p = {{"key", base64Encode(op.key)}, {"value", base64Encode(op.value)}};
      if (op.lease != 0) p["lease"] = std::to_string(op.lease);
      return {{"request_put", p}};
    }
    case EtcdOp::Type::kDelete: {
      json d = {{"key", base64Encode(op.key)}};
      if (!op.rangeEnd.empty()) d["range_end"] = base64Encode(op.rangeEnd);
      return {{"request_delete_range", d}};
    }
    case EtcdOp::Type::kRange: return {{"request_range", rangeBody(op.key, op.rangeEnd, 0)}};
  }
  return {};
}

json compareBody(const EtcdCompare& c) {
  static const char* kTargets[] = {"CREATE", "MOD", "VERSION", "VALUE"};
  static const char* kOps[] = {"EQUAL", "NOT_EQUAL", "GREATER", "LESS"};
  json b = {{"key", base64Encode(c.key)},
            {"target", kTargets[static_cast<int>(c.target)]},
            {"result", kOps[static_cast<int>(c.op)]}};
  switch (c.target) {
    case EtcdCompare::Target::kCreate: b["create_revision"] = std::to_string(c.number); break;
    case EtcdCompare::Target::kMod: b["mod_revision"] = std::to_string(c.number); break;
    case EtcdCompare::Target::kVersion: b["version"] = std::to_string(c.number); break;
    case EtcdCompare::Target::kValue: b["value"] = base64Encode(c.value); break;
  }
  return b;
}

}  // namespace

std::string base64Encode(std::string_view in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(in[i]) << 16) |
                       (static_cast<uint8_t>(in[i + 1]) << 8) | static_cast<uint8_t>(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out.push_back(kAlphabet[(v >> s) & 63]);
  }
  if (const size_t rest = in.size() - i; rest > 0) {
    uint32_t v = static_cast<uint8_t>(in[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(in[i + 1]) << 8;
    out.push_back(kAlphabet[(v >> 18) & 63]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

Result<std::string> base64Decode(std::string_view in) {
  std::string out;
  uint32_t v = 0;
  int bits = 0;
  size_t pad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '=') {
      ++pad;
      continue;
    }
    const size_t d = kAlphabet.find(c);
    if (d == std::string_view::npos || pad > 0) {
      return invalidArgument("base64: unexpected character '{}' at offset {}", c, i);
    }
    v = (v << 6) | static_cast<uint32_t>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((v >> bits) & 0xff));
    }
  }
  if ((in.size() % 4) != 0 || pad > 2) {
    return invalidArgument("base64: length {} is not a multiple of 4", in.size());
  }
  return out;
}

Result<std::vector<EtcdEndpoint>> parseEtcdEndpoints(const std::string& list) {
  std::vector<EtcdEndpoint> out;
  for (const std::string& item : splitTrimmed(list, ",")) {
    std::string_view e = item;
    if (e.starts_with("https://")) {
      return invalidArgument("etcd endpoint '{}': https is not supported, use http://", e);
    }
    if (e.starts_with("http://")) e.remove_prefix(7);
    while (e.ends_with('/')) e.remove_suffix(1);
    const size_t colon = e.rfind(':');
    int port = 0;
    if (colon == std::string_view::npos || colon == 0 ||
        std::from_chars(e.data() + colon + 1, e.data() + e.size(), port).ptr !=
            e.data() + e.size() ||
        port <= 0 || port > 65535) {
      return invalidArgument("etcd endpoint '{}': expected host:port (e.g. 127.0.0.1:2379)", e);
    }
    out.push_back({std::string(e.substr(0, colon)), static_cast<uint16_t>(port)});
  }
  if (out.empty()) return invalidArgument("etcd endpoints: the list '{}' names none", list);
  return out;
}

EtcdClient::EtcdClient(std::vector<EtcdEndpoint> endpoints, int64_t timeoutMs)
    : endpoints_(std::move(endpoints)), timeoutMs_(timeoutMs) {}

EtcdClient::~EtcdClient() = default;

std::string EtcdClient::endpointsString() const {
  std::string s;
  for (const EtcdEndpoint& e : endpoints_) {
    if (!s.empty()) s += ',';
    s += e.toString();
  }
  return s;
}

std::string EtcdClient::prefixEnd(const std::string& prefix) {
  std::string end = prefix;
  while (!end.empty()) {
    if (static_cast<uint8_t>(end.back()) < 0xff) {
      end.back() = static_cast<char>(static_cast<uint8_t>(end.back()) + 1);
      return end;
    }
    end.pop_back();
  }
  return std::string(1, '\0');  // every key
}

Result<json> EtcdClient::call(const std::string& path, const json& body) {
  const std::string text = body.dump();
  std::string failures;
  for (size_t tried = 0; tried < endpoints_.size(); ++tried) {
    if (!http_) {
      const EtcdEndpoint& e = endpoints_[current_];
      http_ = std::make_unique<protocol::HttpClient>(e.host, e.port, timeoutMs_);
    }
    auto r = http_->post(path, text);
    if (!r) {
      // Unreachable (or timed out): try the next member.
      if (!failures.empty()) failures += "; ";
      failures += r.status().message();
      http_.reset();
      current_ = (current_ + 1) % endpoints_.size();
      continue;
    }
    json parsed = json::parse(r->body, nullptr, false);
    if (r->status != 200) {
      std::string message = r->body;
      if (!parsed.is_discarded() && parsed.is_object()) {
        message = parsed.value("message", parsed.value("error", r->body));
      }
      return failedPrecondition("etcd at {} refused {}: HTTP {}: {}", http_->peer(), path,
                                r->status, message);
    }
    if (parsed.is_discarded() || !parsed.is_object()) {
      return failedPrecondition("etcd at {}: {} answered a body that is not a JSON object: {}",
                                http_->peer(), path, r->body.substr(0, 200));
    }
    return parsed;
  }
  return failedPrecondition("etcd at {} is unreachable: {}", endpointsString(), failures);
}

Result<int64_t> EtcdClient::put(const std::string& key, const std::string& value, int64_t lease) {
  json b = {{"key", base64Encode(key)}, {"value", base64Encode(value)}};
  if (lease != 0) b["lease"] = std::to_string(lease);
  auto r = call("/v3/kv/put", b);
  if (!r) return r.status();
  return headerRevision(*r);
}

Result<EtcdRange> EtcdClient::range(const std::string& key, const std::string& rangeEnd,
                                    int64_t limit) {
  auto r = call("/v3/kv/range", rangeBody(key, rangeEnd, limit));
  if (!r) return r.status();
  auto kvs = keyValues(*r);
  if (!kvs) return kvs.status().withContext("etcd range " + key + ": ");
  EtcdRange out;
  out.kvs = std::move(*kvs);
  out.more = r->value("more", false);
  out.revision = headerRevision(*r);
  return out;
}

Result<int64_t> EtcdClient::deleteRange(const std::string& key, const std::string& rangeEnd) {
  json b = {{"key", base64Encode(key)}};
  if (!rangeEnd.empty()) b["range_end"] = base64Encode(rangeEnd);
  auto r = call("/v3/kv/deleterange", b);
  if (!r) return r.status();
  return int64Field(*r, "deleted");
}

Result<EtcdTxnResult> EtcdClient::txn(const EtcdTxn& t) {
  json b = {{"compare", json::array()}, {"success", json::array()}, {"failure", json::array()}};
  for (const EtcdCompare& c : t.compares) b["compare"].push_back(compareBody(c));
  for (const EtcdOp& op : t.success) b["success"].push_back(opBody(op));
  for (const EtcdOp& op : t.failure) b["failure"].push_back(opBody(op));
  auto r = call("/v3/kv/txn", b);
  if (!r) return r.status();
  EtcdTxnResult out;
  out.succeeded = r->value("succeeded", false);
  out.revision = headerRevision(*r);
  if (auto it = r->find("responses"); it != r->end() && it->is_array()) {
    for (const json& resp : *it) {
      std::vector<EtcdKeyValue> kvs;
      if (auto rr = resp.find("response_range"); rr != resp.end()) {
        auto parsed = keyValues(*rr);
        if (!parsed) return parsed.status();
        kvs = std::move(*parsed);
      }
      out.ranges.push_back(std::move(kvs));
    }
  }
  return out;
}

Result<EtcdLease> EtcdClient::leaseGrant(int64_t ttlSeconds) {
  auto r = call("/v3/lease/grant", {{"TTL", std::to_string(ttlSeconds)}});
  if (!r) return r.status();
  if (r->contains("error") && !r->value("error", "").empty()) {
    return failedPrecondition("etcd lease grant: {}", r->value("error", ""));
  }
  return EtcdLease{int64Field(*r, "ID"), int64Field(*r, "TTL")};
}

Result<int64_t> EtcdClient::leaseKeepAlive(int64_t leaseId) {
  // A streaming call: the gateway answers {"result": {...}} per request object.
  auto r = call("/v3/lease/keepalive", {{"ID", std::to_string(leaseId)}});
  if (!r) return r.status();
  auto it = r->find("result");
  if (it == r->end()) {
    return failedPrecondition("etcd lease keepalive of {}: unexpected answer {}", leaseId,
                              r->dump());
  }
  return int64Field(*it, "TTL");
}

Status EtcdClient::leaseRevoke(int64_t leaseId) {
  auto r = call("/v3/lease/revoke", {{"ID", std::to_string(leaseId)}});
  return r ? Status::ok() : r.status();
}

}  // namespace spindle::ha

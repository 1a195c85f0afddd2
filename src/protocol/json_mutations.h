// Test helper: a JSON text with a few random byte-level edits, for the differential tests of
// the direct readers against the document path (heartbeat_decode_test, response_decode_test).
//
//   std::mt19937 rng(42);
//   std::string body = mutated(jsonText(hb), rng);   // 1 to 3 edits
#pragma once

#include <algorithm>
#include <cstddef>
#include <random>
#include <string>

namespace spindle::protocol {

// 1 to 3 edits, each one of: delete up to 8 bytes; copy a span of up to 40 bytes elsewhere (a
// member or a record twice, a stray bracket, text after the root); replace a byte with a JSON
// token character, a control character or a UTF-8 byte; flip one bit of a byte.
inline std::string mutated(std::string body, std::mt19937& rng) {
  static const std::string kAlphabet = "{}[],:\"\\ 0123456789.-eEtrufalsn\x01\xc3\xa9";
  auto below = [&rng](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const size_t edits = 1 + below(3);
  for (size_t e = 0; e < edits && !body.empty(); ++e) {
    const size_t at = below(body.size());
    switch (below(4)) {
      case 0: body.erase(at, 1 + below(std::min<size_t>(8, body.size() - at))); break;
      case 1: {
        const std::string span = body.substr(at, 1 + below(40));
        body.insert(below(body.size() + 1), span);
        break;
      }
      case 2: body[at] = kAlphabet[below(kAlphabet.size())]; break;
      default: body[at] = static_cast<char>(body[at] ^ (1 << below(8))); break;
    }
  }
  return body;
}

}  // namespace spindle::protocol

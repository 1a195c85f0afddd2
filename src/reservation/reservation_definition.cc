#include "reservation/reservation_definition.h"

#include <charconv>

namespace spindle::reservation {

namespace {

bool parseLong(std::string_view s, int64_t& out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

}  // namespace

std::string ReservationId::toString() const {
  return fmt::format("reservation_{}_{:04d}", clusterTimestamp, sequence);
}

Result<ReservationId> ReservationId::parse(std::string_view text) {
  constexpr std::string_view kPrefix = "reservation_";
  if (!text.starts_with(kPrefix)) {
    return invalidArgument("Invalid ReservationId: {} (expected reservation_<timestamp>_<seq>)",
                           text);
  }
  std::string_view rest = text.substr(kPrefix.size());
  size_t sep = rest.find('_');
  ReservationId id;
  if (sep == std::string_view::npos || !parseLong(rest.substr(0, sep), id.clusterTimestamp) ||
      !parseLong(rest.substr(sep + 1), id.sequence) || id.sequence < 0) {
    return invalidArgument("Invalid ReservationId: {} (expected reservation_<timestamp>_<seq>)",
                           text);
  }
  return id;
}

const char* interpreterName(Interpreter i) {
  switch (i) {
    case Interpreter::kAny: return "R_ANY";
    case Interpreter::kAll: return "R_ALL";
    case Interpreter::kOrder: return "R_ORDER";
    case Interpreter::kOrderNoGap: return "R_ORDER_NO_GAP";
  }
  return "?";
}

Result<Interpreter> interpreterFromInt(int64_t value) {
  if (value < 0 || value > 3) {
    return invalidArgument(
        "Invalid reservation-request-interpreter {}: expected 0 (R_ANY), 1 (R_ALL), 2 (R_ORDER) "
        "or 3 (R_ORDER_NO_GAP)",
        value);
  }
  return static_cast<Interpreter>(value);
}

Result<Interpreter> parseInterpreter(std::string_view text) {
  for (Interpreter i :
       {Interpreter::kAny, Interpreter::kAll, Interpreter::kOrder, Interpreter::kOrderNoGap}) {
    if (text == interpreterName(i)) return i;
  }
  int64_t n = 0;
  if (parseLong(text, n)) return interpreterFromInt(n);
  return invalidArgument(
      "Unknown reservation interpreter '{}': expected R_ANY, R_ALL, R_ORDER or R_ORDER_NO_GAP",
      text);
}

Result<int64_t> ReservationDefinition::period() const {
  if (recurrenceExpression.empty()) return int64_t{0};
  int64_t p = 0;
  if (!parseLong(recurrenceExpression, p)) {
    return invalidArgument("Invalid period {}. Please try again with a valid period.",
                           recurrenceExpression);
  }
  if (p < 0) {
    return invalidArgument("Negative Period : {}. Please try again with a non-negative period.",
                           recurrenceExpression);
  }
  return p;
}

}  // namespace spindle::reservation

// The scenario's reservation elements (docs/scenario-format.md): parsing the
// submitReservation / updateReservation / deleteReservation bodies, and the `plan:` and
// `reservation:` state paths.
//
//   Result<StepBody> b = parseReservationStep("submitReservation", reader);
//   Result<json> v = reservationStatePath("plan", parts, path, ctx);
#pragma once

#include <string>
#include <vector>

#include "scenario/expectations.h"
#include "scenario/json_reader.h"
#include "scenario/scenario.h"

namespace spindle {

// `op` is one of the three step names.
Result<StepBody> parseReservationStep(const std::string& op, const JsonReader& r);

// `plan:<queue>.reservationCount | .capacity.<type> | .at.<ms>.<type> |
// .user.<user>.at.<ms>.<type>` and `reservation:<handle>[.<field>... | .at.<ms>.<type>]`.
Result<nlohmann::json> reservationStatePath(const std::string& view,
                                            const std::vector<std::string>& parts,
                                            const std::string& path, const ExpectContext& ctx);

}  // namespace spindle

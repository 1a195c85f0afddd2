// The report's Placement section, for a run whose trace had placement keys: the spread of each
// tagged job's containers (placement.csv) and the rejected SchedulingRequest allocations per job
// and reason (jobs.csv's rejected / rejection_reasons columns).
//
//   SPINDLE_ASSIGN_OR_RETURN(std::optional<std::string> html, placementSection(outputDir));
//   if (html) page += *html;   // nullopt: the run wrote no placement.csv
//
// Errors name the file, line and column of a malformed row.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "base/status.h"

namespace spindle::report {

Result<std::optional<std::string>> placementSection(const std::filesystem::path& dir);

}  // namespace spindle::report

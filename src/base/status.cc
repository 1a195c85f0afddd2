#include "base/status.h"

namespace spindle {

const char* statusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalidArgument: return "InvalidArgument";
    case StatusCode::kNotFound: return "NotFound";
    case StatusCode::kFailedPrecondition: return "FailedPrecondition";
    case StatusCode::kAlreadyExists: return "AlreadyExists";
    case StatusCode::kResourceExhausted: return "ResourceExhausted";
    case StatusCode::kInternal: return "Internal";
  }
  return "Unknown";
}

std::string Status::toString() const {
  if (isOk()) return "OK";
  return fmt::format("{}: {}", statusCodeName(code_), message_);
}

Status Status::withContext(std::string_view context) const {
  if (isOk()) return *this;
  return Status(code_, fmt::format("{}: {}", context, message_));
}

}  // namespace spindle

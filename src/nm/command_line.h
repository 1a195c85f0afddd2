#pragma once

// How the NM turns a container's command into a program and its arguments. YARN always runs a
// container through a shell (ContainerLaunch writes launch_container.sh and runs it with bash);
// Spindle runs `/bin/sh -c <command>` too, except when the command has no shell syntax at all,
// where the shell would only look the program up on PATH and exec it: then the NM does that
// itself and saves the container one exec (docs/compatibility.md).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spindle::nm {

// The words of `command` when it needs no shell: words of letters, digits and `_./=:,@%+-`
// separated by spaces, the first not a shell builtin or keyword (after one leading `exec`,
// which the shell would do anyway) and without `=` (an assignment). nullopt otherwise.
std::optional<std::vector<std::string>> plainWords(std::string_view command);

// The executable `program` names: itself when it is an absolute path, else the first
// executable regular file of that name in the `:`-separated `path` (the shell's lookup).
// nullopt when there is none, or when the answer would depend on the container's working
// directory (a relative path, an empty or relative PATH entry before the match).
std::optional<std::string> findOnPath(const std::string& program, std::string_view path);

}  // namespace spindle::nm

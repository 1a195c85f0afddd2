#include "nm/command_line.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>

namespace spindle::nm {

namespace {

bool plainChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("_./=:,@%+-").find(c) != std::string_view::npos;
}

// dash's builtins and the shell's reserved words: run as the first word they mean something
// else than a program of that name on PATH (`cd`, `exit 3`, `pwd`'s logical path ...).
constexpr std::array<std::string_view, 53> kShellWords = {
    ".",       ":",        "[",      "alias",  "bg",    "break",   "case",  "cd",     "chdir",
    "command", "continue", "do",     "done",   "echo",  "elif",    "else",  "esac",   "eval",
    "exec",    "exit",     "export", "false",  "fc",    "fg",      "fi",    "for",    "function",
    "getopts", "hash",     "if",     "in",     "jobs",  "kill",    "local", "printf", "pwd",
    "read",    "readonly", "return", "select", "set",   "shift",   "test",  "then",   "times",
    "trap",    "true",     "type",   "ulimit", "umask", "unalias", "unset", "wait"};

bool shellWord(std::string_view w) {
  return std::find(kShellWords.begin(), kShellWords.end(), w) != kShellWords.end() ||
         w == "until" || w == "while" || w == "source";
}

bool executableFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::vector<std::string>> plainWords(std::string_view command) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < command.size()) {
    if (command[i] == ' ') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < command.size() && command[end] != ' ') {
      if (!plainChar(command[end])) return std::nullopt;
      ++end;
    }
    words.emplace_back(command.substr(i, end - i));
    i = end;
  }
  if (!words.empty() && words.front() == "exec") words.erase(words.begin());
  if (words.empty() || shellWord(words.front())) return std::nullopt;
  if (words.front().find('=') != std::string::npos) return std::nullopt;
  return words;
}

std::optional<std::string> findOnPath(const std::string& program, std::string_view path) {
  if (program.find('/') != std::string::npos) {
    // A relative path names a file in the container's working directory: left to the shell.
    if (program.front() == '/' && executableFile(program)) return program;
    return std::nullopt;
  }
  size_t start = 0;
  while (start <= path.size()) {
    size_t colon = path.find(':', start);
    if (colon == std::string_view::npos) colon = path.size();
    const std::string_view dir = path.substr(start, colon - start);
    // An empty or relative entry is relative to the container's working directory: left to
    // the shell.
    if (dir.empty() || dir.front() != '/') return std::nullopt;
    std::string candidate(dir);
    candidate += '/';
    candidate += program;
    if (executableFile(candidate)) return candidate;
    start = colon + 1;
  }
  return std::nullopt;
}

}  // namespace spindle::nm

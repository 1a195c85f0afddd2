#include "nm/command_line.h"

#include <gtest/gtest.h>

namespace spindle::nm {
namespace {

using Words = std::vector<std::string>;

TEST(PlainWords, WordsWithoutShellSyntax) {
  EXPECT_EQ(plainWords("sleep 30"), (Words{"sleep", "30"}));
  EXPECT_EQ(plainWords("  exec /opt/am/bin/am --rm=127.0.0.1:8088  -x a,b@c%d+e "),
            (Words{"/opt/am/bin/am", "--rm=127.0.0.1:8088", "-x", "a,b@c%d+e"}));
}

TEST(PlainWords, AnythingTheShellWouldInterpretNeedsTheShell) {
  for (const char* c :
       {"echo hi",   "true",        "exit 3",      "cd /tmp",          "pwd",
        "exec",      "exec exec x", "X=1 sleep 1", "sleep 1; sleep 2", "sleep 1 >out",
        "sleep $T",  "ls *",        "ls ~",        "a && b",           "a | b",
        "sleep 1 &", "ls 'x'",      "ls \"x\"",    "ls a\\ b",         "(sleep 1)",
        "ls # c",    "sleep\t1",    "if",          "source x",         "",
        "   "}) {
    EXPECT_FALSE(plainWords(c).has_value()) << c;
  }
}

TEST(FindOnPath, LooksUpLikeTheShell) {
  EXPECT_EQ(findOnPath("sh", "/nonexistent:/bin:/usr/bin"), "/bin/sh");
  EXPECT_EQ(findOnPath("/bin/sh", ""), "/bin/sh");
  EXPECT_FALSE(findOnPath("no-such-program-x", "/bin:/usr/bin").has_value());
  EXPECT_FALSE(findOnPath("/etc/passwd", "/bin").has_value());  // not executable
  EXPECT_FALSE(findOnPath("bin", "/").has_value());             // a folder
  // Relative to the container's working directory: left to the shell.
  EXPECT_FALSE(findOnPath("./am", "/bin").has_value());
  EXPECT_FALSE(findOnPath("sh", ":/bin").has_value());
  EXPECT_FALSE(findOnPath("sh", "bin:/bin").has_value());
  EXPECT_EQ(findOnPath("sh", "/bin:bin"), "/bin/sh");
}

}  // namespace
}  // namespace spindle::nm

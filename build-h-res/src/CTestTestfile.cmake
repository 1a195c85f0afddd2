# CMake generated Testfile for 
# Source directory: /work/main/src
# Build directory: /work/main/build-h-res/src
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("base")
subdirs("resource")
subdirs("config")
subdirs("cluster")
subdirs("app")
subdirs("scheduler")
subdirs("dao")
subdirs("sim")
subdirs("cli")

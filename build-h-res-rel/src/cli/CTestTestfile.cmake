# CMake generated Testfile for 
# Source directory: /work/main/src/cli
# Build directory: /work/main/build-h-res-rel/src/cli
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.

# CMake generated Testfile for 
# Source directory: /work/main/src/dao
# Build directory: /work/main/build-h-res-rel/src/dao
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.

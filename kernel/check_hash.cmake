# SPDX-License-Identifier: GPL-2.0-only
# cmake -DFILE=<main.c> -DEXPECTED=<sha256> -DWHEN=<before|after> -P check_hash.cmake
# Fails the build when a kernel tree's main.c is not the file configured:
# dpmfuzz compiles it where it lies and must never change it.
file(SHA256 "${FILE}" _now)
if(NOT _now STREQUAL EXPECTED)
  message(FATAL_ERROR "dpmfuzz: ${FILE} changed ${WHEN} the build "
                      "(sha256 ${_now}, configured with ${EXPECTED}); "
                      "reconfigure if the change is yours")
endif()

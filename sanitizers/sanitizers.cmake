# SPDX-License-Identifier: GPL-2.0-only
# DPMFUZZ_SANITIZE: a list of address, undefined, thread, coverage.
# DPMFUZZ_FUZZER: ON builds the fuzz targets with libFuzzer (clang only).
# LIB_FUZZING_ENGINE (environment or cache): an external engine, as
# OSS-Fuzz passes it; it wins over DPMFUZZ_FUZZER.
set(DPMFUZZ_SANITIZE "" CACHE STRING "Sanitizers: address;undefined;thread;coverage")
option(DPMFUZZ_FUZZER "Link fuzz targets with libFuzzer" OFF)
# OFF: libFuzzer's comparison and indirect-call hooks left out of the
# model (docs/fuzzing.md, "Builds": they take a third of an execution).
option(DPMFUZZ_TRACE_CMP "libFuzzer's trace-cmp and indirect-call hooks" ON)
if(DEFINED ENV{LIB_FUZZING_ENGINE} AND NOT LIB_FUZZING_ENGINE)
  set(LIB_FUZZING_ENGINE "$ENV{LIB_FUZZING_ENGINE}")
endif()

set(_san "")
foreach(s IN LISTS DPMFUZZ_SANITIZE)
  if(s STREQUAL "address")
    list(APPEND _san address)
  elseif(s STREQUAL "undefined")
    list(APPEND _san undefined)
  elseif(s STREQUAL "thread")
    list(APPEND _san thread)
  elseif(s STREQUAL "coverage")
    add_compile_options(-fprofile-instr-generate -fcoverage-mapping)
    add_link_options(-fprofile-instr-generate -fcoverage-mapping)
  else()
    message(FATAL_ERROR "DPMFUZZ_SANITIZE: unknown sanitizer '${s}'")
  endif()
endforeach()
if(_san)
  list(JOIN _san "," _sanlist)
  add_compile_options(-fsanitize=${_sanlist} -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_sanlist} -fno-sanitize-recover=all)
endif()

if(DPMFUZZ_FUZZER AND NOT LIB_FUZZING_ENGINE)
  # Coverage instrumentation everywhere; libFuzzer's main links only into
  # the targets, its runtime without main into tests and tools.
  add_compile_options(-fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=fuzzer-no-link)
  if(NOT DPMFUZZ_TRACE_CMP)
    add_compile_options(-fno-sanitize-coverage=trace-cmp,indirect-calls)
  endif()
  set(DPMFUZZ_ENGINE_LINK -fsanitize=fuzzer)
elseif(LIB_FUZZING_ENGINE)
  set(DPMFUZZ_ENGINE_LINK ${LIB_FUZZING_ENGINE})
else()
  set(DPMFUZZ_ENGINE_LINK "")
endif()

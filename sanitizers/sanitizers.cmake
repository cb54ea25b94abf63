# SPDX-License-Identifier: GPL-2.0-only
# DPMFUZZ_SANITIZE: a list of address, undefined, thread, coverage.
# DPMFUZZ_FUZZER: ON builds the fuzz targets with libFuzzer (clang only).
# LIB_FUZZING_ENGINE (environment or cache): an external engine, as
# OSS-Fuzz passes it; it wins over DPMFUZZ_FUZZER.
set(DPMFUZZ_SANITIZE "" CACHE STRING "Sanitizers: address;undefined;thread;coverage")
option(DPMFUZZ_FUZZER "Link fuzz targets with libFuzzer" OFF)
# What libFuzzer's instrumentation covers (docs/fuzzing.md, "Builds"):
# "steered" (the default) gives coverage counters only to the code whose
# paths a scenario steers and comparison hooks only to the input's
# parsers; "all" instruments every source with libFuzzer's defaults.
set(DPMFUZZ_COVERAGE "steered" CACHE STRING "libFuzzer coverage: steered or all")
set_property(CACHE DPMFUZZ_COVERAGE PROPERTY STRINGS steered all)
if(NOT DPMFUZZ_COVERAGE MATCHES "^(steered|all)$")
  message(FATAL_ERROR "DPMFUZZ_COVERAGE: 'steered' or 'all', not '${DPMFUZZ_COVERAGE}'")
endif()
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
  set(DPMFUZZ_ENGINE_LINK -fsanitize=fuzzer)
elseif(LIB_FUZZING_ENGINE)
  set(DPMFUZZ_ENGINE_LINK ${LIB_FUZZING_ENGINE})
else()
  set(DPMFUZZ_ENGINE_LINK "")
endif()

# dpm_coverage_scope(PARSERS <src>... STEERED <src>... BOOKKEEPING <src>...):
# in a libFuzzer build with DPMFUZZ_COVERAGE=steered, the parsers keep
# every hook (their comparisons are against the input's bytes), the code
# a scenario steers keeps its coverage counters but no comparison or
# indirect-call hook (its comparisons are against the model's own
# state), and the rest, which runs much the same way in every execution,
# has no coverage at all.  Elsewhere it does nothing.
set(DPM_NO_CMP -fno-sanitize-coverage=trace-cmp,indirect-calls)
set(DPM_NO_COVERAGE_FLAGS -fno-sanitize-coverage=trace-cmp,indirect-calls,inline-8bit-counters,pc-table)
# The same as flags for targets (a kernel tree's objects: its main.c is
# steered, its runtime not): empty unless the scope applies.
set(DPM_STEERED_FLAGS "")
set(DPM_BOOKKEEPING_FLAGS "")
if(DPMFUZZ_FUZZER AND NOT LIB_FUZZING_ENGINE AND DPMFUZZ_COVERAGE STREQUAL "steered")
  set(DPM_STEERED_FLAGS ${DPM_NO_CMP})
  set(DPM_BOOKKEEPING_FLAGS ${DPM_NO_COVERAGE_FLAGS})
endif()
function(dpm_coverage_scope)
  cmake_parse_arguments(S "" "" "PARSERS;STEERED;BOOKKEEPING" ${ARGN})
  if(NOT DPM_STEERED_FLAGS)
    return()
  endif()
  set_source_files_properties(${S_STEERED} DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES COMPILE_OPTIONS "${DPM_STEERED_FLAGS}")
  set_source_files_properties(${S_BOOKKEEPING} DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES COMPILE_OPTIONS "${DPM_BOOKKEEPING_FLAGS}")
endfunction()

# shardlab_discover_suites(TARGET [ALONE suite ...] [PROPERTIES name value ...]): one CTest test per GoogleTest suite
# of TARGET (named as the suite, run as `TARGET --gtest_filter=Suite.*`), found after each build of
# TARGET by asking it for its tests (--gtest_list_tests), as gtest_discover_tests() does for single
# tests. Why suites: a test program's start and exit cost about 0.45 s under the sanitizers
# (AddressSanitizer's shadow memory, LeakSanitizer's scan at exit), more than most of our tests
# take; 753 tests in 143 suites make 610 fewer processes: the sanitizer ctest of CI took 207 s against 378 s
# (docs/benchmarks.md). A failing test is named in the suite's output (ctest --output-on-failure).
# A skipped test (GTEST_SKIP) does not mark its suite skipped: the GPU tests, which skip where no
# GPU is, keep gtest_discover_tests(). The suites named after ALONE need a process for each test
# (state a library keeps for the life of the process): each of their tests is a CTest test of its
# own, named Suite.Test.
set(_shardlab_suites_script "${CMAKE_CURRENT_LIST_DIR}/ShardLabTestSuitesList.cmake")

function(shardlab_discover_suites target)
  cmake_parse_arguments(arg "" "" "ALONE;PROPERTIES" ${ARGN})
  set(base "${CMAKE_CURRENT_BINARY_DIR}/${target}")
  # the properties, quoted as CMake reads them back
  set(props "")
  foreach(p IN LISTS arg_PROPERTIES)
    string(APPEND props " [==[${p}]==]")
  endforeach()
  file(WRITE "${base}_suite_properties.cmake" "set(suite_properties${props})\nset(alone_suites ${arg_ALONE})\n")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -D "EXE=$<TARGET_FILE:${target}>" -D "OUT=${base}_suites.cmake"
            -D "PROPERTIES_FILE=${base}_suite_properties.cmake" -P "${_shardlab_suites_script}"
    BYPRODUCTS "${base}_suites.cmake"
    VERBATIM)
  file(WRITE "${base}_suites_include.cmake"
    "if(EXISTS [==[${base}_suites.cmake]==])\n  include([==[${base}_suites.cmake]==])\n"
    "else()\n  add_test([==[${target}_NOT_BUILT]==] [==[${target}_NOT_BUILT]==])\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${base}_suites_include.cmake")
endfunction()

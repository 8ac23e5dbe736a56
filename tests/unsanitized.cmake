# The tests a sanitizer build cannot run: on GPUs and of the live library (which the sanitizer
# build leaves out: CUDA's runtime and AddressSanitizer do not share an address space well) and
# under mpirun. Included by tests/CMakeLists.txt; alone where SHARDLAB_TESTS is "unsanitized".

if(SHARDLAB_HAVE_LIVE)
  # On real GPUs (label gpu): each test skips with a message where live mode cannot run.
  add_executable(shardlab_gpu_tests gpu/test_live_gpu.cpp gpu/test_live_rank_gpu.cpp)
  target_link_libraries(shardlab_gpu_tests PRIVATE ShardLab::engine shardlab_cli_lib GTest::gtest_main shardlab_warnings)
  add_dependencies(shardlab_gpu_tests shardlab_live)
  gtest_discover_tests(shardlab_gpu_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "gpu" TIMEOUT 600)

  # The example programs (examples/) alone and under `shardlab profile`: exit status 77 (skipped,
  # saying why) where there is no GPU.
  foreach(_check allreduce_verify reduce_scatter_all_gather allreduce_buckets allreduce_sweep allreduce_straggler train_ddp)
    add_test(NAME gpu.example.${_check}
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/gpu/examples_gpu.sh $<TARGET_FILE:shardlab> $<TARGET_FILE_DIR:allreduce_verify>
              ${PROJECT_SOURCE_DIR}/examples/profile/train_ddp.py ${_check})
    set_tests_properties(gpu.example.${_check} PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77 TIMEOUT 600 RUN_SERIAL ON)
  endforeach()
  # `live --share-gpu N` on the one GPU (tests/gpu/share_gpu_gpu.sh says what each check holds).
  foreach(_check run straggler four hang stream report zh kill oversize)
    add_test(NAME gpu.share_gpu.${_check}
      COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/gpu/share_gpu_gpu.sh $<TARGET_FILE:shardlab> ${PROJECT_SOURCE_DIR}/resources/scenarios
              ${PROJECT_SOURCE_DIR}/bench ${_check})
    set_tests_properties(gpu.share_gpu.${_check} PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77 TIMEOUT 600 RUN_SERIAL ON)
  endforeach()
  # What that script decides (skip, one GPU, the straggler's waits, the sweep's busbw), against
  # stand-ins with known figures: no GPU needed.
  add_test(NAME examples_gpu_script_verdicts
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/gpu/examples_gpu_selftest.sh ${CMAKE_CURRENT_SOURCE_DIR}/gpu/examples_gpu.sh)
  set_tests_properties(examples_gpu_script_verdicts PROPERTIES LABELS "engine" PASS_REGULAR_EXPRESSION "all verdicts as expected")

  # The loader's messages when the library is missing, through the real command line (a fresh
  # process, since the loader remembers what it found).
  add_test(NAME live_loader_missing_library
    COMMAND sh -c "SHARDLAB_LIVE_LIBRARY=/nonexistent/libshardlab_live.so $<TARGET_FILE:shardlab> --version")
  set_tests_properties(live_loader_missing_library PROPERTIES LABELS "engine"
    PASS_REGULAR_EXPRESSION "loads here: no \\(SHARDLAB_LIVE_LIBRARY names /nonexistent/libshardlab_live.so, which does not exist\\)")
  add_test(NAME live_loader_missing_library_exit_2
    COMMAND sh -c "SHARDLAB_LIVE_LIBRARY=/nonexistent/x.so $<TARGET_FILE:shardlab> live ${PROJECT_SOURCE_DIR}/resources/scenarios/default.shardlab.json; test $? -eq 2")
  set_tests_properties(live_loader_missing_library_exit_2 PROPERTIES LABELS "engine")
  add_test(NAME live_loader_not_a_library
    COMMAND sh -c "SHARDLAB_LIVE_LIBRARY=${PROJECT_SOURCE_DIR}/README.md $<TARGET_FILE:shardlab> topo")
  set_tests_properties(live_loader_not_a_library PROPERTIES LABELS "engine"
    PASS_REGULAR_EXPRESSION "live mode is not available here: the live library .*README.md could not be loaded")
endif()

# Multi-process runs over real MPI (label `mpi`): the transport, a whole job and a dying rank
# under mpirun, and the CLI as processes of an mpirun job. Skipped (exit 77) without mpirun.
if(SHARDLAB_HAVE_MPI)
  add_executable(shardlab_mpi_selftest mpi/mpi_selftest.cpp)
  target_link_libraries(shardlab_mpi_selftest PRIVATE ShardLab::engine shardlab_warnings)
  target_compile_definitions(shardlab_mpi_selftest PRIVATE SHARDLAB_SCENARIO_DIR="${PROJECT_SOURCE_DIR}/resources/scenarios")
  if(MPIEXEC_EXECUTABLE)
    set(_mpirun ${MPIEXEC_EXECUTABLE} --allow-run-as-root --oversubscribe)
    add_test(NAME mpi.transport COMMAND ${_mpirun} -np 3 $<TARGET_FILE:shardlab_mpi_selftest> transport)
    add_test(NAME mpi.job COMMAND ${_mpirun} -np 4 $<TARGET_FILE:shardlab_mpi_selftest> job)
    add_test(NAME mpi.stream COMMAND ${_mpirun} -np 4 $<TARGET_FILE:shardlab_mpi_selftest> stream)
    add_test(NAME mpi.dying_rank COMMAND ${_mpirun} -np 3 $<TARGET_FILE:shardlab_mpi_selftest> die)
    # The job must end through the monitor, naming rank 1 and its last completed collective.
    set_tests_properties(mpi.dying_rank PROPERTIES
      PASS_REGULAR_EXPRESSION "rank 1 \\([^)]*\\) stopped responding[^\n]*its last completed collective was #3"
      FAIL_REGULAR_EXPRESSION "FAILED")
    set_tests_properties(mpi.transport mpi.job mpi.stream PROPERTIES FAIL_REGULAR_EXPRESSION "FAILED")
  else()
    foreach(_t transport job stream dying_rank)
      add_test(NAME mpi.${_t} COMMAND sh -c "echo 'mpirun not found: skipped'; exit 77")
    endforeach()
  endif()
  add_test(NAME mpi.cli COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/mpi/cli_under_mpirun.sh
    "${MPIEXEC_EXECUTABLE}" $<TARGET_FILE:shardlab> "${PROJECT_SOURCE_DIR}/resources/scenarios")
  set_tests_properties(mpi.transport mpi.job mpi.stream mpi.dying_rank mpi.cli PROPERTIES
    LABELS "mpi" SKIP_RETURN_CODE 77 TIMEOUT 120 PROCESSORS 2)
endif()

# Live runs through the GUI's path on real GPUs (label gpu; skipped with the reason without them):
# 100 start/cancel cycles and an oversized buffer leave memory and threads as they were.
if(SHARDLAB_HAVE_LIVE AND SHARDLAB_BUILD_GUI)
  find_package(Qt6 6.4 REQUIRED COMPONENTS Test Widgets)
  add_executable(test_live_stress gui/test_live_stress.cpp)
  # (where it always was, tests/gui/, for the device scripts of bench/)
  set_target_properties(test_live_stress PROPERTIES AUTOMOC ON RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/gui)
  target_link_libraries(test_live_stress PRIVATE shardlab_gui_run Qt6::Test shardlab_warnings)
  add_dependencies(test_live_stress shardlab_live)
  add_test(NAME gpu.live_stress COMMAND test_live_stress)
  set_tests_properties(gpu.live_stress PROPERTIES LABELS "gpu" ENVIRONMENT "QT_QPA_PLATFORM=offscreen" TIMEOUT 600
                       SKIP_REGULAR_EXPRESSION "SKIP   : ")
endif()

# Every kernel of kernels_cl/ and examples/ under the oclgrind simulator (docs/CHECKING.md, "Every
# kernel under oclgrind"). Oclgrind reports out-of-bounds reads and writes (always on), data
# races on __local and __global memory and work-group divergence (--data-races), and OpenCL API
# misuse (--check-api); its messages, not its exit status, decide the test. It simulates every
# work item on one host thread, so tests run their small cases (AMP_TEST_SMALL=1, tests/check.h)
# and examples small sizes: about two minutes in all on two cores.
#
# Not used: --uninitialized. Debian's oclgrind 21.10 aborts a work item at LLVM's `freeze`
# instruction, which clang emits for ordinary integer code, so kernels then return wrong results;
# and it forgets what the host wrote to a buffer below the offset of a later partial write, so
# every section copied to an offset reads as uninitialised. Both are oclgrind's, shown in
# docs/CHECKING.md. Not run: tests that launch from several threads at once (oclgrind runs one
# kernel at a time and asserts) and the staging tests (host threads only, no kernels).
find_program(AMP_OCLGRIND oclgrind)
if(NOT AMP_OCLGRIND OR AMP_SANITIZE)
  return()
endif()

# An API error with a CL_INVALID_* code is a call ampcl should have refused itself; others
# (CL_BUILD_PROGRAM_FAILURE from the tests' deliberately broken kernels) are expected.
set(AMP_OCLGRIND_FAIL "Invalid (read|write)|data race|divergence|OCLGRIND FATAL|Error: +CL_INVALID")

# amp_oclgrind(NAME name [RACES_OFF] [ENV var=value...] COMMAND exe args...)
function(amp_oclgrind)
  cmake_parse_arguments(G "RACES_OFF" "NAME" "COMMAND;ENV" ${ARGN})
  set(races --data-races)
  if(G_RACES_OFF)
    set(races)
  endif()
  add_test(NAME oclgrind.${G_NAME}
           COMMAND ${AMP_OCLGRIND} ${races} --check-api --max-errors 10 ${G_COMMAND})
  set_tests_properties(oclgrind.${G_NAME} PROPERTIES LABELS oclgrind TIMEOUT 300
                       SKIP_RETURN_CODE 77 ENVIRONMENT "${AMP_TEST_ENV};AMP_TEST_SMALL=1;${G_ENV}"
                       FAIL_REGULAR_EXPRESSION "${AMP_OCLGRIND_FAIL}")
endfunction()

# The kernels of kernels_cl/, each through the test that checks it against a host reference.
foreach(t tiles launch views kernel_index kernel_histogram kernels_matmul kernels_nbody
          kernels_add_exp algo_reduce algo_scan algo_sort algo_transpose algo_histogram
          algo_stencil)
  amp_oclgrind(NAME ${t} COMMAND $<TARGET_FILE:test_${t}>)
endforeach()
# amp_scan's three-pass path (the single pass is its default)
amp_oclgrind(NAME algo_scan.three_pass ENV AMP_SCAN_PASSES=3 COMMAND $<TARGET_FILE:test_algo_scan>)
# These two communicate between work-groups on purpose: a compare-exchange loop that starts from
# a plain read (the prelude's float atomic add does the same), and a last-tile sum that reads the
# other tiles' partial sums after a global fence and an atomic count. Both are correct (the
# exchange re-checks what it read; the fences order the writes before the count), but oclgrind's
# race detector sees only atomics as synchronisation and reports every such read. Bounds and API
# are still checked.
foreach(t kernel_atomics kernel_fences)
  amp_oclgrind(NAME ${t} RACES_OFF COMMAND $<TARGET_FILE:test_${t}>)
endforeach()

# The examples' kernels, as the examples run them (each verifies against the host).
if(TARGET vector_add_exp)
  amp_oclgrind(NAME example.vector_add_exp COMMAND $<TARGET_FILE:vector_add_exp> --size 1000)
  amp_oclgrind(NAME example.matmul COMMAND $<TARGET_FILE:matmul> --impl seq,naive,tiled
               --m 37 --w 53 --n 29)
  amp_oclgrind(NAME example.nbody.naive COMMAND $<TARGET_FILE:nbody> --size 300 --steps 2
               --impl naive)
  amp_oclgrind(NAME example.nbody.tiled COMMAND $<TARGET_FILE:nbody> --size 300 --steps 2
               --impl tiled)
  amp_oclgrind(NAME example.tiles COMMAND $<TARGET_FILE:tiles>)
  amp_oclgrind(NAME example.algorithms COMMAND $<TARGET_FILE:algorithms> --size 5000)
  amp_oclgrind(NAME example.overlap COMMAND $<TARGET_FILE:overlap> --size 5003 --pieces 3
               --repeats 1)
  amp_oclgrind(NAME example.overlap.pinned COMMAND $<TARGET_FILE:overlap> --size 4096 --pinned
               --repeats 1)
  # Step 3's naive kernel also runs in step 5, at a size oclgrind gets through in seconds.
  foreach(step step2_saxpy step4_tile_sums)
    amp_oclgrind(NAME tutorial.${step} COMMAND $<TARGET_FILE:${step}>)
  endforeach()
  amp_oclgrind(NAME tutorial.step5_matmul_tiled COMMAND $<TARGET_FILE:step5_matmul_tiled> 64)
endif()

# The runs above can fail: oclgrind must report a deliberate out-of-bounds write and a
# deliberate race on tile_static memory (tests/oclgrind_catches.c).
add_executable(oclgrind_catches oclgrind_catches.c)
target_link_libraries(oclgrind_catches PRIVATE ampcl ampcl_flags m)
foreach(what oob race)
  add_test(NAME oclgrind.catches.${what}
           COMMAND ${AMP_OCLGRIND} --data-races $<TARGET_FILE:oclgrind_catches> ${what})
  set_tests_properties(oclgrind.catches.${what} PROPERTIES LABELS oclgrind TIMEOUT 120
                       ENVIRONMENT "${AMP_TEST_ENV}")
endforeach()
set_tests_properties(oclgrind.catches.oob PROPERTIES PASS_REGULAR_EXPRESSION "Invalid write")
set_tests_properties(oclgrind.catches.race PROPERTIES
                     PASS_REGULAR_EXPRESSION "Write-write data race at local memory")

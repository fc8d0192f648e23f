# ctest embed.build_checks: ampcl_embed_cl as a user's project meets it (project/, a kernel and a C
# file calling its typed launcher), configured and built in a temporary folder, one folder for
# every case, each only rebuilt:
#   1. broken.cl: the build fails with the compiler's error at broken.cl:4:69, and says which
#      option set failed;
#   2. debug_only.cl: the build fails, saying that the failure is in debug mode;
#   3. broken.cl with -DAMPCL_CHECK_KERNELS=OFF: builds (nothing is checked);
#   4. saxpy.cl builds; with WRONG_COUNT or WRONG_KIND main.c does not, at the launcher's call;
#   5. the launcher script on launchers.cl: a kernel defined twice with other parameters (under
#      #if) gets a comment and no launcher; the kernels in a comment and a string get none; one
#      whose braces differ between an #if's branches gets its launcher. And
#      on examples/tutorial/step2_saxpy.cl: docs/KERNELS.md shows what it writes, verbatim.
#   cmake -DSRC=<tests/embed> -DAMPCL_SOURCE=<ampcl's source> -DCC=<C compiler> -P run.cmake
cmake_minimum_required(VERSION 3.20)
set(SCRATCH embed)
include(${CMAKE_CURRENT_LIST_DIR}/../scratch.cmake)
set(B ${OUT}/build)
set(failures 0)

# Configures (args) and builds; `want` is ok or fail; each of ARGN must be in the output.
function(expect what want)
  cmake_parse_arguments(E "" "" "CONFIGURE;FIND" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/project -B ${B} -DAMPCL_SOURCE=${AMPCL_SOURCE}
                          -DCMAKE_C_COMPILER=${CC} ${E_CONFIGURE}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    execute_process(COMMAND ${CMAKE_COMMAND} --build ${B} RESULT_VARIABLE rc OUTPUT_VARIABLE b
                    ERROR_VARIABLE b)
    string(APPEND out "${b}")
  endif()
  set(ok 1)
  set(built 0)
  if(rc EQUAL 0)
    set(built 1)
  endif()
  set(wanted 0)
  if(want STREQUAL "ok")
    set(wanted 1)
  endif()
  if(NOT built EQUAL wanted)
    set(ok 0)
    message(STATUS "FAIL ${what}: the build was to ${want}, its status is ${rc}")
  endif()
  foreach(text IN LISTS E_FIND)
    string(FIND "${out}" "${text}" at)
    if(at LESS 0)
      set(ok 0)
      message(STATUS "FAIL ${what}: the output lacks \"${text}\"")
    endif()
  endforeach()
  if(ok)
    message(STATUS "ok   ${what}")
  else()
    message(STATUS "---- the output:\n${out}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  endif()
endfunction()

expect("a kernel with a mistake stops the build at its file, line and column" fail
       CONFIGURE -DKERNEL=broken.cl -DCASE= -DAMPCL_CHECK_KERNELS=ON
       FIND "${SRC}/project/broken.cl:4:69: error: use of undeclared identifier 'z'"
            "ampcl: ${SRC}/project/broken.cl does not compile with ampcl's prelude and `-DSCALE=2`.")
expect("a kernel that fails only in debug mode says so" fail
       CONFIGURE -DKERNEL=debug_only.cl
       FIND "${SRC}/project/debug_only.cl:9:" "in debug mode (-DAMP_DEBUG=1)")
expect("AMPCL_CHECK_KERNELS=OFF checks nothing" ok
       CONFIGURE -DKERNEL=broken.cl -DAMPCL_CHECK_KERNELS=OFF)
expect("a good kernel builds, with its launcher" ok
       CONFIGURE -DKERNEL=saxpy.cl -DAMPCL_CHECK_KERNELS=ON)
expect("a launcher given too few arguments does not compile" fail
       CONFIGURE -DCASE=WRONG_COUNT FIND "main.c:11:" "saxpy_launch")
expect("a launcher given a view for a float does not compile" fail
       CONFIGURE -DCASE=WRONG_KIND FIND "main.c:13:")

# 5. the generator alone
execute_process(COMMAND ${CMAKE_COMMAND} -DIN=${SRC}/launchers.cl -DOUT=${OUT}/launchers_launch.h
                        -P ${AMPCL_SOURCE}/cmake/ampclLaunchers.cmake RESULT_VARIABLE rc)
file(READ ${OUT}/launchers_launch.h h)
foreach(want "/* no launcher: it is defined twice with different parameters"
             "static inline amp_status views_launch(" "static inline amp_status branchy_launch(")
  string(FIND "${h}" "${want}" at)
  if(rc OR at LESS 0)
    message(STATUS "FAIL the generated launchers_launch.h lacks \"${want}\"")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
foreach(unwanted "fake_in_comment" "fake_in_string" "fake_in_directive" "twice_launch")
  string(FIND "${h}" "${unwanted}" at)
  if(at GREATER -1)
    message(STATUS "FAIL the generated launchers_launch.h has \"${unwanted}\"")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -DIN=${AMPCL_SOURCE}/examples/tutorial/step2_saxpy.cl
                        -DOUT=${OUT}/step2_saxpy_launch.h -P ${AMPCL_SOURCE}/cmake/ampclLaunchers.cmake)
file(READ ${OUT}/step2_saxpy_launch.h h)
file(READ ${AMPCL_SOURCE}/docs/KERNELS.md doc)
string(FIND "${doc}" "```c\n${h}```" at)
if(at LESS 0)
  message(STATUS "FAIL docs/KERNELS.md does not show step2_saxpy_launch.h as it is written:\n${h}")
  math(EXPR failures "${failures} + 1")
endif()

file(REMOVE_RECURSE ${OUT})
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} case(s) failed")
endif()

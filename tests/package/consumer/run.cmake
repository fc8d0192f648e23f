# ctest package.consumer: installs the build into a temporary prefix outside the source and build
# trees, copies tests/package/consumer there too, and builds it against the prefix twice: with
# find_package(ampcl) and ampcl_embed_cl (which, where clang is, must check square.cl with the
# installed prelude), and with plain `pkg-config --cflags --libs ampcl` (no --static) and the
# installed scripts: the embed script (embedding, and the check where clang is) and the launchers
# script. Runs both programs, then removes the directory.
#   cmake -DBUILD=<ampcl build dir> -DSRC=<tests/package/consumer> -P run.cmake
cmake_minimum_required(VERSION 3.20)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
  set(run_out "${out}" PARENT_SCOPE)
endfunction()
find_program(clang NAMES clang)
set(SCRATCH consumer)
include(${CMAKE_CURRENT_LIST_DIR}/../../scratch.cmake)
file(MAKE_DIRECTORY ${OUT})
file(COPY ${SRC}/ DESTINATION ${OUT}/src)
run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${OUT}/prefix)

# 1. CMake: find_package(ampcl), ampcl_embed_cl.
run(${CMAKE_COMMAND} -S ${OUT}/src -B ${OUT}/build -DCMAKE_PREFIX_PATH=${OUT}/prefix)
run(${CMAKE_COMMAND} --build ${OUT}/build)
if(clang AND NOT run_out MATCHES "Checking square.cl with ampcl's prelude")
  message(FATAL_ERROR "clang is here (${clang}), but the build did not check square.cl")
endif()
run(${OUT}/build/consumer)

# 2. pkg-config, and the installed script for the kernel.
file(GLOB_RECURSE pc ${OUT}/prefix/ampcl.pc)
get_filename_component(pcdir "${pc}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pcdir}")
execute_process(COMMAND pkg-config --cflags --libs ampcl OUTPUT_VARIABLE flags
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
foreach(v embed_script launchers_script prelude_dir)
  execute_process(COMMAND pkg-config --variable=${v} ampcl OUTPUT_VARIABLE ${v}
                  RESULT_VARIABLE rc2 OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0 OR NOT EXISTS "${${v}}")
    message(FATAL_ERROR "pkg-config does not find the installed ampcl.pc (${pc}) or its ${v} "
                        "(${${v}})")
  endif()
endforeach()
run(${CMAKE_COMMAND} -DIN=${OUT}/src/square.cl -DOUT=${OUT}/pc/square_cl.h -DNAME=square_cl
    -P ${embed_script})
run(${CMAKE_COMMAND} -DIN=${OUT}/src/square.cl -DOUT=${OUT}/pc/square_launch.h
    -P ${launchers_script})
if(clang)
  run(${CMAKE_COMMAND} -DAMPCL_CHECK=${OUT}/src/square.cl -DCOMPILER=${clang}
      -DPRELUDE=${prelude_dir} -P ${embed_script})
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run(cc ${OUT}/src/main.c -I${OUT}/pc ${flags} -o ${OUT}/pc/consumer)
run(${OUT}/pc/consumer)
file(REMOVE_RECURSE ${OUT})

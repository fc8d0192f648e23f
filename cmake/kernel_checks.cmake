# The kernels of kernels_cl/ compiled with ampcl's prelude when ampcl is built (issue 55, item 1),
# for the option sets the runtime, the tests and amp-bench build each with. ampcl_check_cl
# (cmake/ampclEmbed.cmake) compiles every set as on a device that is not NVIDIA's
# (-DAMP_COMPUTE_CAPABILITY=0), again in debug mode (-DAMP_DEBUG=1), with fast_math_* as the
# precise functions where the file uses them, and as on an NVIDIA GPU of compute capability 9.0; a
# set that gives -DAMP_COMPUTE_CAPABILITY=N itself (the NVIDIA-only kernels and paths) is compiled
# for that device alone. The target ampcl_kernel_checks is part of `all`: a kernel that does not
# compile fails the build with the compiler's FILE:LINE:COLUMN errors and the option set.
#
# Where the runtime computes a number per device (threads per tile, elements per thread), the
# sets give the tuned value and the least it falls back to (32 threads, AMP__ALGO_LEAST_TILE), the
# two ends of what it builds; types, operators and path switches (warp paths, one pass or three,
# debug knobs the tests set) in the combinations the runtime makes. A new kernel file, or a new
# option the runtime passes, gets its sets here. GEMM's plans are read from
# runtime/blas/gemm_plans.c itself, so a new plan is checked without a line here.
set(K ${PROJECT_SOURCE_DIR}/kernels_cl)
set(amp_kc_dir ${PROJECT_BINARY_DIR}/kernel_checks)
set(amp_kc_files "")

# amp_kc(<file under kernels_cl/> <option set>...): more sets for a file; " " is a build without
# options (CMake drops an empty string from a list).
macro(amp_kc file)
  if(NOT "${file}" IN_LIST amp_kc_files)
    list(APPEND amp_kc_files "${file}")
  endif()
  list(APPEND amp_kc_sets_${file} ${ARGN})
endmacro()

# amp_kc_prefix(<name> <text>): a file of OpenCL C that the runtime puts in front of a kernel's
# text (an operator, a predicate), for `-include`.
function(amp_kc_prefix name text)
  _ampcl_write_if_changed(${amp_kc_dir}/${name}.h "${text}")
endfunction()

set(numbers int uint float double) # AMP__ALGO_NUMBERS

# ---- algorithms/ (runtime/algorithms/) --------------------------------------------------------
# reduce.cl and reduce_cpu.cl: reduce.c's builtin operators (builtin_op) in front, and an
# operator of the program's own (amp_reduce_custom, no vector form) as docs/ALGORITHMS.md writes
# one
foreach(op sum min_fp max_fp min_int min_uint max_int max_uint custom)
  if(op STREQUAL "sum")
    set(f "a + b")
    set(v "((a) + (b))")
    set(id 0)
  elseif(op MATCHES "^(min|max)_(fp|int|uint)$")
    set(f "${CMAKE_MATCH_1}(a, b)")
    if(CMAKE_MATCH_2 STREQUAL "fp")
      set(f "f${f}")
    endif()
    set(v "${f}")
    set(ids_min_fp INFINITY)
    set(ids_max_fp -INFINITY)
    set(ids_min_int INT_MAX)
    set(ids_max_int INT_MIN)
    set(ids_min_uint UINT_MAX)
    set(ids_max_uint 0u)
    set(id ${ids_${op}})
  else()
    set(f "a * b")
    set(v "")
    set(id 1)
  endif()
  set(text "inline T amp_reduce_op(T a, T b) { return ${f}; }\n#define AMP_REDUCE_IDENTITY (${id})\n")
  if(NOT v STREQUAL "")
    string(APPEND text "#define AMP_REDUCE_VOP(a, b) ${v}\n")
  endif()
  amp_kc_prefix(reduce_${op} "${text}")
endforeach()
foreach(t IN LISTS numbers)
  set(ops sum custom)
  if(t MATCHES "float|double")
    list(APPEND ops min_fp max_fp)
  else()
    list(APPEND ops min_${t} max_${t})
  endif()
  foreach(op IN LISTS ops)
    set(pre "-include ${amp_kc_dir}/reduce_${op}.h")
    amp_kc(algorithms/reduce.cl "-DT=${t} -DT4=${t}4 -DRED_TILE=256 ${pre}")
    amp_kc(algorithms/reduce_cpu.cl "-DT=${t} -DT16=${t}16 ${pre}")
  endforeach()
  amp_kc(algorithms/reduce.cl "-DT=${t} -DT4=${t}4 -DRED_TILE=32 -include ${amp_kc_dir}/reduce_sum.h")
  # scan.cl: three passes (every type), the single pass (32-bit types); scan_cpu.cl
  foreach(tile 256 32)
    amp_kc(algorithms/scan.cl "-DT=${t} -DT4=${t}4 -DSCAN_TILE=${tile}")
  endforeach()
  if(NOT t STREQUAL "double")
    foreach(tile 128 32)
      amp_kc(algorithms/scan.cl
             "-DT=${t} -DT4=${t}4 -DSCAN_ONEPASS=1 -DONE_PER=32 -DONE_TILE=${tile} -DSCAN_TILE=${tile}")
    endforeach()
  endif()
  amp_kc(algorithms/scan_cpu.cl "-DT=${t} -DT8=${t}8")
  # transpose.cl: 32 x 32 blocks by 8 rows of threads, and the least, 8 x 8 by one row
  amp_kc(algorithms/transpose.cl "-DT=${t} -DT4=${t}4 -DTR_DIM=32 -DTR_ROWS=8"
                                 "-DT=${t} -DT4=${t}4 -DTR_DIM=8 -DTR_ROWS=1")
  amp_kc(algorithms/transpose_cpu.cl "-DT=${t} -DT8=${t}8")
endforeach()
# histogram.cl: int and uint
foreach(t int uint)
  amp_kc(algorithms/histogram.cl "-DT=${t} -DT4=${t}4 -DHIST_TILE=256" "-DT=${t} -DT4=${t}4 -DHIST_TILE=32")
endforeach()
# histogram_weighted.cl: int and uint values, every weight type, the tuned tile and the least;
# reduce_by_key.cl: int and uint keys, every value type and operator (float with RBK_FLOAT)
foreach(t int uint)
  foreach(w int uint float)
    amp_kc(algorithms/histogram_weighted.cl "-DT=${t} -DW=${w} -DWH_TILE=256"
                                            "-DT=${t} -DW=${w} -DWH_TILE=32")
    foreach(op 0 1 2)
      set(f "")
      if(w STREQUAL "float")
        set(f " -DRBK_FLOAT=1")
      endif()
      amp_kc(algorithms/reduce_by_key.cl "-DK=${t} -DT=${w} -DRBK_OP=${op} -DRBK_PER=16${f}")
    endforeach()
  endforeach()
endforeach()
# stencil.cl: amp_stencil_tiles at radii 1 to 8 (AMP_STENCIL_MAX_RADIUS), 8 outputs per thread in
# 8 rows of threads and the least, 1 and 1; the column kernels at radii 1 and 3
# (SC_MAX_R_GENERAL), each knob both ways
foreach(r 1 4 8)
  amp_kc(algorithms/stencil.cl "-DR=${r} -DST_OY=8 -DST_TY=8" "-DR=${r} -DST_OY=1 -DST_TY=1")
endforeach()
foreach(r 1 3)
  foreach(aligned 0 1)
    foreach(ring 0 1)
      foreach(pf 0 1)
        amp_kc(algorithms/stencil.cl
               "-DR=${r} -DSC_OY=32 -DSC_ALIGNED=${aligned} -DSC_RING=${ring} -DSC_PF=${pf}")
      endforeach()
    endforeach()
  endforeach()
endforeach()
# sort.cl and onesweep.cl: sort.c's keys (KEY_KIND) and values, sorting keys alone (HAS_VALUES=0,
# V=uint) or with values of every type; onesweep only for 32-bit keys and values, its portable
# pass (16 or 12 keys a thread), its warp pass emulated (AMP_WARP_EMULATE=1) and in PTX (NVIDIA
# only), 20 or 16 keys a thread
set(kinds uint int float ulong long double)
set(values none uint int float ulong long double)
set(kk 0)
foreach(k IN LISTS kinds)
  foreach(v IN LISTS values)
    set(hv 1)
    set(vt ${v})
    if(v STREQUAL "none")
      set(hv 0)
      set(vt uint)
    endif()
    set(wide 0)
    if(kk GREATER 2 AND vt MATCHES "long|double" AND hv)
      set(wide 1)
    endif()
    set(o "-DK=${k} -DK4=${k}4 -DKEY_KIND=${kk} -DHAS_VALUES=${hv} -DV=${vt} -DSORT_WIDE=${wide}")
    amp_kc(algorithms/sort.cl "${o} -DSORT_TILE=256")
    if(kk LESS 3 AND NOT vt MATCHES "long|double")
      set(per 16)
      set(wper 20)
      if(hv)
        set(per 12)
        set(wper 16)
      endif()
      amp_kc(algorithms/onesweep.cl "${o} -DOS_PER=${per} -DOS_TILE=256 -DAMPCL_WARP_OFF"
             "${o} -DOS_PER=${wper} -DOS_TILE=256 -DAMPCL_WARP_EMULATE=1"
             "${o} -DOS_PER=${wper} -DOS_TILE=256 -DAMP_COMPUTE_CAPABILITY=90")
    endif()
  endforeach()
  math(EXPR kk "${kk} + 1")
endforeach()
amp_kc(algorithms/sort.cl
       "-DK=uint -DK4=uint4 -DKEY_KIND=0 -DHAS_VALUES=0 -DV=uint -DSORT_WIDE=0 -DSORT_TILE=32"
       "-DK=double -DK4=double4 -DKEY_KIND=5 -DHAS_VALUES=1 -DV=double -DSORT_WIDE=1 -DSORT_TILE=32")
set(o "-DK=uint -DK4=uint4 -DKEY_KIND=0 -DHAS_VALUES=1 -DV=uint -DSORT_WIDE=0")
amp_kc(algorithms/onesweep.cl "${o} -DOS_PER=12 -DOS_TILE=32 -DAMPCL_WARP_OFF"
       "${o} -DOS_PER=16 -DOS_TILE=512 -DAMP_COMPUTE_CAPABILITY=90"
       " ") # compact.c builds onesweep.cl's amp_onesweep_init with no options
# compact.cl: copy_if (the program's predicate in front) and unique, every type (double: CI_WIDE,
# half the elements a thread), the portable path (16 a thread in tiles of 256), the warp path
# emulated and in PTX (24 a thread, copy_if's tiles of 128); the tests' knobs (AMP_COMPACT_AGG_ONLY,
# AMP_COMPACT_RELAXED) and the least tile for float
amp_kc_prefix(compact_pred "bool amp_predicate(T x) { return x > (T)0; }\n")
foreach(t IN LISTS numbers)
  foreach(mode USER UNIQUE)
    foreach(path OFF EMULATE PTX)
      set(per 16)
      set(tile 256)
      if(path STREQUAL "OFF")
        set(w "-DAMPCL_WARP_OFF")
      else()
        set(per 24)
        if(mode STREQUAL "USER")
          set(tile 128)
        endif()
        set(w "-DAMPCL_WARP_EMULATE=1")
        if(path STREQUAL "PTX")
          set(w "-DAMP_COMPUTE_CAPABILITY=90")
        endif()
      endif()
      set(wide 0)
      if(t STREQUAL "double")
        set(wide 1)
        math(EXPR per "${per} / 2")
      endif()
      set(pre "")
      if(mode STREQUAL "USER")
        set(pre " -include ${amp_kc_dir}/compact_pred.h")
      endif()
      set(o "-DT=${t} -DCI_WIDE=${wide} -DCI_PER=${per} -DCI_TILE=${tile} -DCI_WINDOW=32")
      amp_kc(algorithms/compact.cl "${o} -DCI_AGG_ONLY=0 -DCI_RELAXED=1 -DCOMPACT_${mode} ${w}${pre}")
    endforeach()
  endforeach()
endforeach()
set(o "-DT=float -DCI_WIDE=0 -DCI_PER=16 -DCI_WINDOW=32 -DCOMPACT_USER -DAMPCL_WARP_OFF")
string(APPEND o " -include ${amp_kc_dir}/compact_pred.h")
amp_kc(algorithms/compact.cl "${o} -DCI_TILE=256 -DCI_AGG_ONLY=1 -DCI_RELAXED=0"
                             "${o} -DCI_TILE=32 -DCI_AGG_ONLY=0 -DCI_RELAXED=1")

# ---- examples/ (the article's workloads: tests/kernels/, amp-bench) ------------------------------
amp_kc(examples/add_exp.cl " " "-DAE_STREAM_MIN=1" "-DAE_STREAM=0")
set(fast "-cl-fast-relaxed-math -cl-denorms-are-zero")
amp_kc(examples/nbody.cl " " "-DTILE=64" "-DTILE=64 -DBPT=3 -DUNROLL=4" "-DTILE=32 -DBPT=1" "-DVW=4"
       "-DTILE=256 -DBPT=4 -DSOFTENING2=0.00250000004f ${fast}")
amp_kc(examples/nbody_pairs.cl " " "-DTILE=32 -DBPT=1 -DCHUNK=3" "-DTILE=24 -DBPT=3 -DCHUNK=5"
       "-DTILE=16 -DBPT=2 -DCHUNK=2" "-DBPT=4 -DCHUNK=1 ${fast}"
       "-DTILE=32 -DBPT=8 -DCHUNK=4 -DSOFTENING2=0.00250000004f ${fast}")

# ---- gemm/ (runtime/blas/) ---------------------------------------------------------------------
# gemm_plans.c's table: {"file", "options", ...} entries
file(READ ${PROJECT_SOURCE_DIR}/runtime/blas/gemm_plans.c plans)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/runtime/blas/gemm_plans.c)
string(REGEX MATCHALL "{\"(matmul_[a-z0-9_]+)\",[ \n]*\"([^\"]*)\"" entries "${plans}")
list(LENGTH entries n)
if(n LESS 10)
  message(FATAL_ERROR "cmake/kernel_checks.cmake: found ${n} plans in runtime/blas/gemm_plans.c; "
                      "its table's entries are read as {\"file\", \"options\", ...}")
endif()
foreach(e IN LISTS entries)
  string(REGEX MATCH "{\"(matmul_[a-z0-9_]+)\",[ \n]*\"([^\"]*)\"" e "${e}")
  set(file ${CMAKE_MATCH_1})
  set(o "${CMAKE_MATCH_2}")
  # the tensor-core kernels and step 13's cp.async ring are built on NVIDIA 9.x alone
  if(file MATCHES "dmma|tf32" OR o MATCHES "ASYNC_STAGES")
    set(o "${o} -DAMP_COMPUTE_CAPABILITY=90")
  endif()
  amp_kc(gemm/${file}.cl "${o}")
endforeach()
foreach(t float double)
  foreach(gr 8 4 2 1) # gemm_general.c: the transpose's thread rows
    amp_kc(gemm/gemm_epilogue.cl "-DT=${t} -DGR=${gr}")
  endforeach()
endforeach()
# tests/kernels/matmul.c's configurations, with each element type it runs them with (BW=2: double)
foreach(o " " "-DDOUBLE_BUFFER=0" "-DINNER_FAST=0" "-DGROUP_M=1" "-DTS_K=32" "-DFMA_ORDER=0"
          "-DFMA_ORDER=2" "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=4"
          "-DTS_M=32 -DTS_N=64 -DTS_K=8 -DWPT_M=4 -DWPT_N=8"
          "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8"
          "-DTS_M=32 -DTS_N=64 -DTS_K=8 -DWPT_M=4 -DWPT_N=8 -DGROUP_M=3"
          "-DTS_M=64 -DTS_N=64 -DWPT_M=4 -DWPT_N=4 -DPADV=0")
  amp_kc(gemm/matmul_fast.cl "-DT=int ${o}" "-DT=float ${o}")
endforeach()
foreach(o "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=8 -DBW=2"
          "-DTS_M=64 -DTS_N=128 -DWPT_M=8 -DWPT_N=8 -DTS_K=16 -DDOUBLE_BUFFER=0 -DBW=2"
          "-DTS_M=32 -DTS_N=32 -DWPT_M=4 -DWPT_N=2 -DTS_K=16 -DBW=2")
  amp_kc(gemm/matmul_fast.cl "-DT=double ${o}")
endforeach()
amp_kc(gemm/matmul_fast.cl "-DT=float -DTS_K=32 -DASYNC_STAGES=4 -DAMP_COMPUTE_CAPABILITY=90"
       "-DT=float -DASYNC_STAGES=2 -DAMP_COMPUTE_CAPABILITY=80")
foreach(t int float double)
  amp_kc(gemm/matmul_cpu.cl "-DT=${t}" "-DT=${t} -DVW=4" "-DT=${t} -DRB=4 -DCB=1 -DVW=8 -DNR=3 -DKC=8")
endforeach()
# tests/kernels/tensor.c's shapes, each on the compute capability it needs
foreach(o " " "-DBM=128 -DBN=128 -DWM=64 -DWN=32 -DSTAGES=2" "-DBM=64 -DBN=128 -DWM=32 -DWN=64"
          "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DSTAGES=2" "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DSTAGES=4")
  amp_kc(gemm/matmul_dmma.cl "${o} -DAMP_COMPUTE_CAPABILITY=90")
endforeach()
foreach(o " " "-DBK=32 -DSTAGES=2 -DAPAD=2 -DBPAD=2" "-DBK=16 -DSTAGES=3 -DPRODUCERS=2"
          "-DBK=16 -DSTAGES=4 -DPRODUCERS=1"
          "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DBK=8 -DSTAGES=2 -DPRODUCERS=4" "-DSPLIT_K"
          "-DBM=64 -DWM=32 -DSPLIT_K" "-DEDGE_SKIP" "-DEDGE_SKIP -DSPLIT_K")
  amp_kc(gemm/matmul_dmma_bulk.cl "${o} -DAMP_COMPUTE_CAPABILITY=90")
endforeach()
amp_kc(gemm/matmul_tf32.cl "-DAMP_COMPUTE_CAPABILITY=80" "-DBN=64 -DAMP_COMPUTE_CAPABILITY=80"
       "-DBM=64 -DBN=64 -DWM=32 -DWN=32 -DSTAGES=2 -DTF_ROUND=0 -DAMP_COMPUTE_CAPABILITY=80")

# fixed_order.cl (AMP_ALGO_FIXED_ORDER, runtime/algorithms/fixed_order.c): each number type with its
# word type, the CPU shape (one thread a row of chunks) and the GPU tile at its tuned size and at 32,
# reduce's built-in sum and a caller's operator in front
foreach(t IN LISTS numbers)
  if(t STREQUAL "double")
    set(u ulong)
  else()
    set(u uint)
  endif()
  foreach(w 1 32 256)
    amp_kc(algorithms/fixed_order.cl "-DT=${t} -DFIX_U=${u} -DFIX_W=${w}"
           "-DT=${t} -DFIX_U=${u} -DFIX_W=${w} -include ${amp_kc_dir}/reduce_sum.h"
           "-DT=${t} -DFIX_U=${u} -DFIX_W=${w} -include ${amp_kc_dir}/reduce_custom.h")
  endforeach()
endforeach()

# ---- lessons/ (tests/lessons/lessons.c, tests/kernels/matmul.c, amp-bench) ---------------------
foreach(t float double int)
  amp_kc(lessons/matmul_naive.cl "-DT=${t}")
  amp_kc(lessons/matmul_tiled.cl "-DT=${t}" "-DT=${t} -DTILE=8")
  amp_kc(lessons/matmul_lesson3_column.cl "-DT=${t}" "-DT=${t} -DTILE=16 -DWPT=4")
  amp_kc(lessons/matmul_lesson4_regtile.cl "-DT=${t}" "-DT=${t} -DTILE=16 -DWPT_M=2 -DWPT_N=8")
  amp_kc(lessons/matmul_lesson5_vectors.cl "-DT=${t}" "-DT=${t} -DTILE=16 -DWPT_N=8 -DPADV=0")
  amp_kc(lessons/matmul_lesson6_double_buffer.cl "-DT=${t}" "-DT=${t} -DTILE=16 -DWPT_M=8 -DPADV=2")
endforeach()
# the lessons beside the course (tests/lessons/prelude_lessons.c)
amp_kc(lessons/random_walks.cl " ")
amp_kc(lessons/tile_compact.cl " " "-DTILE=96" "-DTILE=7")

# ---- samples/ (tests/samples/, amp-bench's samples rows) ---------------------------------------
# the classic C++ AMP samples: reductions and scans in each type the tests and amp-bench build them
# with, at the tile they use and at the least (32); matmul in float and int; the blur as it is
foreach(t int uint float)
  foreach(tile 256 32)
    amp_kc(samples/sample_reduction.cl "-DT=${t} -DTILE=${tile}")
    amp_kc(samples/sample_scan.cl "-DT=${t} -DTILE=${tile}")
  endforeach()
endforeach()
amp_kc(samples/sample_matmul.cl " " "-DTILE=8" "-DTILE=4" "-DT=int -DTILE=8" "-DT=double")
amp_kc(samples/sample_blur.cl " ")

# Every .cl file of kernels_cl/ has its sets: a new one without them stops the configure.
file(GLOB_RECURSE amp_kc_all CONFIGURE_DEPENDS RELATIVE ${K} ${K}/*.cl)
foreach(f IN LISTS amp_kc_all)
  if(NOT f IN_LIST amp_kc_files)
    message(FATAL_ERROR "cmake/kernel_checks.cmake: kernels_cl/${f} has no option sets; add the "
                        "sets it is built with (amp_kc)")
  endif()
endforeach()
add_custom_target(ampcl_kernel_checks ALL)
foreach(f IN LISTS amp_kc_files)
  list(REMOVE_DUPLICATES amp_kc_sets_${f})
  ampcl_check_cl(ampcl_kernel_checks ${K}/${f} OPTIONS ${amp_kc_sets_${f}})
endforeach()

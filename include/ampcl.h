/* ampcl.h: the C++ AMP programming model in C, over OpenCL.
 *
 * Include this one header. Each concept has its own header, which is its reference:
 *   ampcl/status.h       status codes, amp_strerror(), amp_last_error()
 *   ampcl/accelerator.h  accelerators, accelerator views, completion futures  (AMP §3)
 *   ampcl/extent.h       extent, index, tiled extent                          (AMP §4)
 *   ampcl/array_view.h   array_view over host memory                          (AMP §5)
 *   ampcl/array.h        device arrays, copies, pinned host memory            (AMP §5.1, §5.3)
 *   ampcl/kernel.h       OpenCL C kernels and parallel_for_each               (AMP §7)
 *   ampcl/kernel_limits.h a kernel's tile limits on an accelerator
 *   ampcl/algorithms.h   reduce, scan, transpose, histogram, sort, 2-D stencil on views
 *   ampcl/blas.h         GEMM on array views (CLBlast, ampcl's kernels or OpenBLAS)
 *   ampcl/texture.h      textures, samplers, texture copies (AMP's graphics namespace)
 *   ampcl/random.h       the kernels' random numbers (Philox-4x32-10) on the host, bit for bit
 *   ampcl/stats.h        transfer counters
 *   ampcl/trace.h        a timeline of every command, for Perfetto (AMP_TRACE=file.json)
 */
#ifndef AMPCL_H
#define AMPCL_H

#include "ampcl/accelerator.h"
#include "ampcl/algorithms.h"
#include "ampcl/array.h"
#include "ampcl/array_view.h"
#include "ampcl/blas.h"
#include "ampcl/export.h"
#include "ampcl/extent.h"
#include "ampcl/kernel.h"
#include "ampcl/kernel_limits.h"
#include "ampcl/random.h"
#include "ampcl/stats.h"
#include "ampcl/status.h"
#include "ampcl/texture.h"
#include "ampcl/trace.h"

#define AMPCL_VERSION_MAJOR 0
#define AMPCL_VERSION_MINOR 1
#define AMPCL_VERSION_PATCH 0

#endif /* AMPCL_H */

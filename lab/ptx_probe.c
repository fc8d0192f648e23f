/* lab/ptx_probe.c: what NVIDIA's OpenCL compiler makes of inline PTX, measured with plain
 * OpenCL. The tensor-core kernel (kernels_cl/gemm/matmul_dmma.cl) rests on three facts this checks
 * on the first NVIDIA GPU it finds:
 *   1. `asm volatile` with PTX builds and runs (%laneid, shfl.sync, cp.async into __local memory
 *      through the __local pointer's own address);
 *   2. which thread holds which element of the f64 mma operands (m8n8k4, m16n8k4, m16n8k8),
 *      compared with a host product;
 *   3. how fast each f64 mma shape runs with its operands in registers, beside plain FP64 fma:
 *      the ceiling a DGEMM kernel can aim at; also at the occupancy matmul_dmma runs with
 *      (8 warps per SM), and m16n8k16 (sm_90, built on its own); at the occupancy of
 *      matmul_fast's double shape (two tiles of 128 threads per SM), plain FP64 fma with 64
 *      accumulators (pfma64), that shape's 64 multiply-adds per k from registers (pouter,
 *      pouter_a), and its inner loop from tile_static memory (pinner*: four placements of
 *      threads, four orders of the multiply-adds, with a barrier per K tile), beside 4 x 8
 *      doubles per thread at twice the warps (pouter48, pinner48): the ceilings of that kernel
 *      (lab/NOTEBOOK.md, "The double shape's own ceiling");
 *   4. the TF32 m16n8k8 layout and rate (kernels_cl/gemm/matmul_tf32.cl).
 * Prints the compute capability (cl_nv_device_attribute_query) and every result; exits 77 when
 * there is no NVIDIA GPU, 1 when a check fails. Not installed.
 *
 *   ptx-probe */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <stdio.h>
#include <string.h>

#define LANE_G "(lane >> 2)" /* the PTX ISA's groupID */
#define LANE_T "(lane & 3)"  /* and threadID_in_group */

static const char *source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define G " LANE_G "\n#define TG " LANE_T "\n"
    "__kernel void laneid(__global uint *out) {\n"
    "  uint r; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r));\n"
    "  out[get_global_id(0)] = r; }\n"
    "__kernel void shfl_up(__global uint *out) {\n"
    "  uint x = get_global_id(0) * 3u, y;\n"
    "  asm volatile(\"shfl.sync.up.b32 %0, %1, 1, 0, 0xffffffff;\" : \"=r\"(y) : \"r\"(x));\n"
    "  out[get_global_id(0)] = y; }\n"
    /* 64 threads copy 16 bytes each into __local memory, then read another thread's */
    "__kernel void cp_async(__global const float4 *in, __global float4 *out) {\n"
    "  __local float4 buf[64]; uint l = get_local_id(0);\n"
    "  uint sa = (uint)(size_t)&buf[l];\n"
    "  asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(sa),\n"
    "               \"l\"(&in[get_global_id(0)]) : \"memory\");\n"
    "  asm volatile(\"cp.async.wait_all;\" ::: \"memory\");\n"
    "  barrier(CLK_LOCAL_MEM_FENCE); out[get_global_id(0)] = buf[63 - l]; }\n"
    /* layouts: A is M x K, B is K x N, C is M x N, all row-major; one warp */
    "__kernel void l884(__global const double *a, __global const double *b, __global double *c) "
    "{\n"
    "  uint lane = get_local_id(0); double fa = a[G * 4 + TG], fb = b[TG * 8 + G], d0, d1, z = 0;\n"
    "  asm volatile(\"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, "
    "{%4,%4};\"\n"
    "    : \"=d\"(d0), \"=d\"(d1) : \"d\"(fa), \"d\"(fb), \"d\"(z));\n"
    "  c[G * 8 + TG * 2] = d0; c[G * 8 + TG * 2 + 1] = d1; }\n"
    "__kernel void l1684(__global const double *a, __global const double *b, __global double *c) "
    "{\n"
    "  uint lane = get_local_id(0); double a0 = a[G * 4 + TG], a1 = a[(G + 8) * 4 + TG];\n"
    "  double fb = b[TG * 8 + G], d0, d1, d2, d3, z = 0;\n"
    "  asm volatile(\"mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, "
    "{%6}, {%7,%7,%7,%7};\"\n"
    "    : \"=d\"(d0), \"=d\"(d1), \"=d\"(d2), \"=d\"(d3) : \"d\"(a0), \"d\"(a1), \"d\"(fb), "
    "\"d\"(z));\n"
    "  c[G * 8 + TG * 2] = d0; c[G * 8 + TG * 2 + 1] = d1;\n"
    "  c[(G + 8) * 8 + TG * 2] = d2; c[(G + 8) * 8 + TG * 2 + 1] = d3; }\n"
    "__kernel void l1688(__global const double *a, __global const double *b, __global double *c) "
    "{\n"
    "  uint lane = get_local_id(0);\n"
    "  double a0 = a[G * 8 + TG], a1 = a[(G + 8) * 8 + TG], a2 = a[G * 8 + TG + 4],\n"
    "         a3 = a[(G + 8) * 8 + TG + 4], b0 = b[TG * 8 + G], b1 = b[(TG + 4) * 8 + G];\n"
    "  double d0, d1, d2, d3, z = 0;\n"
    "  asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
    "{%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};\"\n"
    "    : \"=d\"(d0), \"=d\"(d1), \"=d\"(d2), \"=d\"(d3)\n"
    "    : \"d\"(a0), \"d\"(a1), \"d\"(a2), \"d\"(a3), \"d\"(b0), \"d\"(b1), \"d\"(z));\n"
    "  c[G * 8 + TG * 2] = d0; c[G * 8 + TG * 2 + 1] = d1;\n"
    "  c[(G + 8) * 8 + TG * 2] = d2; c[(G + 8) * 8 + TG * 2 + 1] = d3; }\n"
    /* rates: NCH independent accumulators per thread, operands in registers */
    "#define PEAKN(name, NCH, NC, MMA) __kernel void name(__global double *out, int iters) {\\\n"
    "  uint lane = get_local_id(0) & 31; double a = lane * 1e-3, b = 1.0 - a, c[NCH][NC];\\\n"
    "  for (int i = 0; i < NCH; i++) for (int j = 0; j < NC; j++) c[i][j] = i;\\\n"
    "  for (int it = 0; it < iters; it++) {\\\n"
    "    _Pragma(\"unroll\") for (int i = 0; i < NCH; i++) MMA; }\\\n"
    "  double s = 0; for (int i = 0; i < NCH; i++) for (int j = 0; j < NC; j++) s += c[i][j];\\\n"
    "  out[get_global_id(0)] = s; }\n"
    "#define PEAK(name, NC, MMA) PEAKN(name, 8, NC, MMA)\n"
    "#define MMA1688 asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 "
    "{%0,%1,%2,%3}, {%4,%5,%4,%5}, {%6,%6}, {%0,%1,%2,%3};\" : \"+d\"(c[i][0]), "
    "\"+d\"(c[i][1]), \"+d\"(c[i][2]), \"+d\"(c[i][3]) : \"d\"(a), \"d\"(b), \"d\"(b))\n"
    "PEAK(p884, 2, asm volatile(\"mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, "
    "{%2}, {%3}, {%0,%1};\" : \"+d\"(c[i][0]), \"+d\"(c[i][1]) : \"d\"(a), \"d\"(b)))\n"
    "PEAK(p1684, 4, asm volatile(\"mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 "
    "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\" : \"+d\"(c[i][0]), \"+d\"(c[i][1]), "
    "\"+d\"(c[i][2]), \"+d\"(c[i][3]) : \"d\"(a), \"d\"(b), \"d\"(b)))\n"
    "PEAK(p1688, 4, MMA1688)\n"
    "PEAKN(p1688x16, 16, 4, MMA1688)\n"
    "PEAK(pfma, 2, (c[i][0] = fma(a, c[i][0], b), c[i][1] = fma(a, c[i][1], b)))\n";

/* Plain FP64 fma at a DGEMM kernel's occupancy, and matmul_fast's inner loop for double (64 x 128
 * tile, 8 x 16 threads with 8 x 8 of C each, K tiles of 16, rows padded by one vector) on
 * tile_static data that never changes: its multiply-adds and tile_static reads alone, no copies,
 * no barriers. The rows start one row further every other iteration, so the compiler cannot keep
 * the reads out of the loop. TY and TX place thread t (lane, warp w) in the 8 x 16 grid: a
 * 16-byte tile_static read takes one wavefront per distinct quarter-warp pattern, and the
 * placement decides how many quarters of a warp read alike. Built with `source` (PEAKN) as
 * further strings of the same program. */
static const char *source_fma =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "PEAKN(pfma64, 32, 2, (c[i][0] = fma(a, c[i][0], b), c[i][1] = fma(a, c[i][1], b)))\n"
    /* the inner loop's multiply-adds with its operands in registers: M values of A and N of B
     * per thread, each of the M x N products into its own accumulator, B's value kept for M in
     * a row (pouter, pouter48) or A's for N (pouter_a) */
    "#define POUTER(name, M, N, AOUT) __kernel void name(__global double *out, int iters) {\\\n"
    "  uint lane = get_local_id(0) & 31; double a[M], b[N], c[M][N];\\\n"
    "  for (int i = 0; i < M; i++) a[i] = lane * 1e-3 + i;\\\n"
    "  for (int j = 0; j < N; j++) b[j] = 1.0 - lane * 1e-4 * j;\\\n"
    "  for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) c[i][j] = i - j;\\\n"
    "  for (int it = 0; it < iters; it++) {\\\n"
    "    if (AOUT) { _Pragma(\"unroll\") for (int i = 0; i < M; i++)\\\n"
    "      _Pragma(\"unroll\") for (int j = 0; j < N; j++) c[i][j] = fma(a[i], b[j], c[i][j]); "
    "}\\\n"
    "    else { _Pragma(\"unroll\") for (int j = 0; j < N; j++)\\\n"
    "      _Pragma(\"unroll\") for (int i = 0; i < M; i++) c[i][j] = fma(a[i], b[j], c[i][j]); } "
    "}\\\n"
    "  double s = 0; for (int i = 0; i < M; i++) for (int j = 0; j < N; j++) s += c[i][j];\\\n"
    "  out[get_global_id(0)] = s; }\n"
    "POUTER(pouter, 8, 8, 0)\n"
    "POUTER(pouter_a, 8, 8, 1)\n"
    "POUTER(pouter48, 4, 8, 0)\n"
    /* what every pinner kernel shares: its tile_static tiles (A transposed and B, rows padded by
     * one vector), filled by NTH threads, and the rows of the current iteration */
    "#define PIN_LOCAL __local double4 la[17][17]; __local double2 lb[17][65]\n"
    "#define PIN_FILL(NTH)\\\n"
    "  for (uint i = t; i < 17 * 17; i += NTH) la[i / 17][i % 17] = (double4)(i * 1e-3, 1, 0.5, "
    "0.25);\\\n"
    "  for (uint i = t; i < 17 * 65; i += NTH) lb[i / 65][i % 65] = (double2)(i * 1e-3, 1);\\\n"
    "  barrier(CLK_LOCAL_MEM_FENCE)\n"
    "#define PIN_ROWS __local double4 (*pa)[17] = la + (it & 1); __local double2 (*pb)[65] = lb + "
    "(it & 1)\n"
    "#define PINNER(name, TY, TX) __kernel void name(__global double *out, int iters) {\\\n"
    "  PIN_LOCAL;\\\n"
    "  uint t = get_local_id(0), lane = t & 31, w = t >> 5, ty = TY, tx = TX;\\\n"
    "  PIN_FILL(128);\\\n"
    "  double2 acc[8][4];\\\n"
    "  for (int i = 0; i < 8; i++) for (int j = 0; j < 4; j++) acc[i][j] = (double2)(0);\\\n"
    "  for (int it = 0; it < iters; it++) {\\\n"
    "    PIN_ROWS;\\\n"
    "    _Pragma(\"unroll\") for (int k = 0; k < 16; k++) {\\\n"
    "      double4 a0 = pa[k][ty], a1 = pa[k][ty + 8];\\\n"
    "      double a[8] = {a0.s0, a0.s1, a0.s2, a0.s3, a1.s0, a1.s1, a1.s2, a1.s3};\\\n"
    "      double2 b[4] = {pb[k][tx], pb[k][tx + 16], pb[k][tx + 32], pb[k][tx + 48]};\\\n"
    "      _Pragma(\"unroll\") for (int j = 0; j < 4; j++)\\\n"
    "        _Pragma(\"unroll\") for (int i = 0; i < 8; i++)\\\n"
    "          acc[i][j] = fma((double2)(a[i]), b[j], acc[i][j]); } }\\\n"
    "  double s = 0;\\\n"
    "  for (int i = 0; i < 8; i++) for (int j = 0; j < 4; j++) s += acc[i][j].s0 + "
    "acc[i][j].s1;\\\n"
    "  out[get_global_id(0)] = s; }\n";
/* A smaller register tile with twice the warps: 4 x 8 doubles per thread, 16 x 16 threads over
 * the same 64 x 128 tile (two tiles of 256 threads per SM). */
static const char *source_inner48 =
    "__kernel void pinner48(__global double *out, int iters) {\n"
    "  PIN_LOCAL;\n"
    "  uint t = get_local_id(0), ty = t / 16, tx = t % 16;\n"
    "  PIN_FILL(256);\n"
    "  double2 acc[4][4];\n"
    "  for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) acc[i][j] = (double2)(0);\n"
    "  for (int it = 0; it < iters; it++) {\n"
    "    PIN_ROWS;\n"
    "    _Pragma(\"unroll\") for (int k = 0; k < 16; k++) {\n"
    "      double4 a0 = pa[k][ty]; double a[4] = {a0.s0, a0.s1, a0.s2, a0.s3};\n"
    "      double2 b[4] = {pb[k][tx], pb[k][tx + 16], pb[k][tx + 32], pb[k][tx + 48]};\n"
    "      _Pragma(\"unroll\") for (int j = 0; j < 4; j++) _Pragma(\"unroll\") for (int i = 0; i < "
    "4; i++)\n"
    "        acc[i][j] = fma((double2)(a[i]), b[j], acc[i][j]); } }\n"
    "  double s = 0; for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) s += acc[i][j].s0 + "
    "acc[i][j].s1;\n"
    "  out[get_global_id(0)] = s; }\n";
/* pinner's loop with scalar accumulators in four orders of the 64 multiply-adds per k: B's value
 * kept over 8 (ORDER 0) or A's (1), and each with every other row or column reversed (2, 3; 2
 * is matmul_fast's FMA_ORDER=2 for double); BAR 1: a barrier after each K tile of 16, as the
 * kernel has. */
static const char *source_order =
    "#define PINNERO(name, ORDER, BAR) __kernel void name(__global double *out, int iters) {\\\n"
    "  PIN_LOCAL;\\\n"
    "  uint t = get_local_id(0), ty = t / 16, tx = t % 16;\\\n"
    "  PIN_FILL(128);\\\n"
    "  double acc[8][8];\\\n"
    "  for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) acc[i][j] = 0;\\\n"
    "  for (int it = 0; it < iters; it++) {\\\n"
    "    PIN_ROWS;\\\n"
    "    _Pragma(\"unroll\") for (int k = 0; k < 16; k++) {\\\n"
    "      double4 a0 = pa[k][ty], a1 = pa[k][ty + 8];\\\n"
    "      double2 b0 = pb[k][tx], b1 = pb[k][tx + 16], b2 = pb[k][tx + 32], b3 = pb[k][tx + "
    "48];\\\n"
    "      double a[8] = {a0.s0, a0.s1, a0.s2, a0.s3, a1.s0, a1.s1, a1.s2, a1.s3};\\\n"
    "      double b[8] = {b0.s0, b0.s1, b1.s0, b1.s1, b2.s0, b2.s1, b3.s0, b3.s1};\\\n"
    "      _Pragma(\"unroll\") for (int x = 0; x < 8; x++) _Pragma(\"unroll\") for (int y = 0; y < "
    "8; y++) {\\\n"
    "        int yy = (ORDER >= 2 && (x & 1)) ? 7 - y : y;\\\n"
    "        int i = (ORDER & 1) ? x : yy, j = (ORDER & 1) ? yy : x;\\\n"
    "        acc[i][j] = fma(a[i], b[j], acc[i][j]); } }\\\n"
    "    if (BAR) barrier(CLK_LOCAL_MEM_FENCE); }\\\n"
    "  double s = 0; for (int i = 0; i < 8; i++) for (int j = 0; j < 8; j++) s += acc[i][j];\\\n"
    "  out[get_global_id(0)] = s; }\n"
    "PINNERO(pinner_o0, 0, 0)\nPINNERO(pinner_o1, 1, 0)\nPINNERO(pinner_o2, 2, 0)\n"
    "PINNERO(pinner_o3, 3, 0)\nPINNERO(pinner_o2bar, 2, 1)\n";
static const char *source_inner =
    /* matmul_fast's placement: half a warp per row of threads */
    "PINNER(pinner, t / 16, t % 16)\n"
    /* a warp as 4 x 8 threads, a quarter-warp per row of 8 */
    "PINNER(pinner_w48, 4 * (w >> 1) + (lane >> 3), 8 * (w & 1) + (lane & 7))\n"
    /* a quarter-warp as 2 x 4 threads; quarters 0 and 1 read the same A, 0 and 2 the same B */
    "PINNER(pinner_q24, 4 * (w >> 1) + 2 * (lane >> 4) + ((lane >> 2) & 1),\n"
    "       8 * (w & 1) + 4 * ((lane >> 3) & 1) + (lane & 3))\n"
    /* the same with quarters 0 and 1 reading the same B, 0 and 2 the same A */
    "PINNER(pinner_q24b, 4 * (w >> 1) + 2 * ((lane >> 3) & 1) + ((lane >> 2) & 1),\n"
    "       8 * (w & 1) + 4 * (lane >> 4) + (lane & 3))\n";

/* TF32 (kernels_cl/gemm/matmul_tf32.cl): the same places as f64 m16n8k8, float data. Built with
 * `source` as a second string of the same program. */
static const char *source_tf32 =
    "__kernel void l1688tf32(__global const float *a, __global const float *b, __global float *c) "
    "{\n"
    "  uint lane = get_local_id(0), fa[4], fb[2]; float d0, d1, d2, d3, z = 0;\n"
    "  fa[0] = as_uint(a[G * 8 + TG]); fa[1] = as_uint(a[(G + 8) * 8 + TG]);\n"
    "  fa[2] = as_uint(a[G * 8 + TG + 4]); fa[3] = as_uint(a[(G + 8) * 8 + TG + 4]);\n"
    "  fb[0] = as_uint(b[TG * 8 + G]); fb[1] = as_uint(b[(TG + 4) * 8 + G]);\n"
    "  asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
    "{%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};\"\n"
    "    : \"=f\"(d0), \"=f\"(d1), \"=f\"(d2), \"=f\"(d3) : \"r\"(fa[0]), \"r\"(fa[1]),\n"
    "      \"r\"(fa[2]), \"r\"(fa[3]), \"r\"(fb[0]), \"r\"(fb[1]), \"f\"(z));\n"
    "  c[G * 8 + TG * 2] = d0; c[G * 8 + TG * 2 + 1] = d1;\n"
    "  c[(G + 8) * 8 + TG * 2] = d2; c[(G + 8) * 8 + TG * 2 + 1] = d3; }\n"
    "__kernel void ptf32(__global double *out, int iters) {\n"
    "  uint lane = get_local_id(0) & 31, a = as_uint(lane * 1e-3f), b = as_uint(1.0f - lane);\n"
    "  float c[8][4];\n"
    "  for (int i = 0; i < 8; i++) for (int j = 0; j < 4; j++) c[i][j] = i;\n"
    "  for (int it = 0; it < iters; it++) {\n"
    "    _Pragma(\"unroll\") for (int i = 0; i < 8; i++)\n"
    "      asm volatile(\"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, "
    "{%4,%5,%4,%5}, {%6,%6}, {%0,%1,%2,%3};\" : \"+f\"(c[i][0]), \"+f\"(c[i][1]), "
    "\"+f\"(c[i][2]), \"+f\"(c[i][3]) : \"r\"(a), \"r\"(b), \"r\"(b)); }\n"
    "  float s = 0; for (int i = 0; i < 8; i++) for (int j = 0; j < 4; j++) s += c[i][j];\n"
    "  out[get_global_id(0)] = s; }\n";

/* m16n8k16 f64 is newer (PTX ISA 7.8, sm_90): built on its own, so a driver whose compiler
 * emits an older PTX version loses only these two. The layout tried is the m16n8k8 one extended
 * along k: a_i at row G + 8 * (i & 1), column TG + 4 * (i >> 1); b_i at row TG + 4 * i. */
static const char *source16 =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "#define G " LANE_G "\n#define TG " LANE_T "\n"
    "__kernel void l16816(__global const double *a, __global const double *b, __global double *c) "
    "{\n"
    "  uint lane = get_local_id(0); double fa[8], fb[4], d0, d1, d2, d3, z = 0;\n"
    "  for (int i = 0; i < 8; i++) fa[i] = a[(G + 8 * (i & 1)) * 16 + TG + 4 * (i >> 1)];\n"
    "  for (int i = 0; i < 4; i++) fb[i] = b[(TG + 4 * i) * 8 + G];\n"
    "  asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
    "{%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%16,%16,%16,%16};\"\n"
    "    : \"=d\"(d0), \"=d\"(d1), \"=d\"(d2), \"=d\"(d3)\n"
    "    : \"d\"(fa[0]), \"d\"(fa[1]), \"d\"(fa[2]), \"d\"(fa[3]), \"d\"(fa[4]), \"d\"(fa[5]),\n"
    "      \"d\"(fa[6]), \"d\"(fa[7]), \"d\"(fb[0]), \"d\"(fb[1]), \"d\"(fb[2]), \"d\"(fb[3]),\n"
    "      \"d\"(z));\n"
    "  c[G * 8 + TG * 2] = d0; c[G * 8 + TG * 2 + 1] = d1;\n"
    "  c[(G + 8) * 8 + TG * 2] = d2; c[(G + 8) * 8 + TG * 2 + 1] = d3; }\n"
    "__kernel void p16816(__global double *out, int iters) {\n"
    "  uint lane = get_local_id(0) & 31; double a = lane * 1e-3, b = 1.0 - a, c[8][4];\n"
    "  for (int i = 0; i < 8; i++) for (int j = 0; j < 4; j++) c[i][j] = i;\n"
    "  for (int it = 0; it < iters; it++) {\n"
    "    _Pragma(\"unroll\") for (int i = 0; i < 8; i++)\n"
    "      asm volatile(\"mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, "
    "{%4,%5,%4,%5,%4,%5,%4,%5}, {%6,%6,%6,%6}, {%0,%1,%2,%3};\" : \"+d\"(c[i][0]), "
    "\"+d\"(c[i][1]), \"+d\"(c[i][2]), \"+d\"(c[i][3]) : \"d\"(a), \"d\"(b), \"d\"(b)); }\n"
    "  double s = 0; for (int i = 0; i < 8; i++) for (int j = 0; j < 4; j++) s += c[i][j];\n"
    "  out[get_global_id(0)] = s; }\n";

static cl_context ctx;
static cl_command_queue queue;
static cl_program prog, prog16; /* prog16: the m16n8k16 kernels, NULL if they did not build */
static int failures;

static void verdict(const char *what, int ok) {
  printf("%-28s %s\n", what, ok ? "ok" : "WRONG");
  failures += !ok;
}

/* Runs kernel `name` of program p with its buffer arguments, `threads` threads in one
 * work-group. */
static int run_in(cl_program p, const char *name, size_t threads, cl_mem *args, int nargs) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  if (err != CL_SUCCESS)
    return err;
  for (int i = 0; i < nargs; i++)
    clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]);
  err = clEnqueueNDRangeKernel(queue, k, 1, NULL, &threads, &threads, 0, NULL, NULL);
  if (err == CL_SUCCESS)
    err = clFinish(queue);
  clReleaseKernel(k);
  return err;
}

static int run(const char *name, size_t threads, cl_mem *args, int nargs) {
  return run_in(prog, name, threads, args, nargs);
}

static void check_lanes(void) {
  unsigned u[64];
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof u, NULL, NULL);
  int ok = run("laneid", 64, &out, 1) == CL_SUCCESS &&
           clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof u, u, 0, NULL, NULL) == CL_SUCCESS;
  for (int i = 0; ok && i < 64; i++)
    ok = u[i] == (unsigned)(i % 32);
  verdict("mov %laneid", ok);
  ok = run("shfl_up", 64, &out, 1) == CL_SUCCESS &&
       clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof u, u, 0, NULL, NULL) == CL_SUCCESS;
  for (int i = 0; ok && i < 64; i++) /* lane 0 keeps its own value */
    ok = u[i] == (unsigned)((i % 32 == 0 ? i : i - 1) * 3);
  verdict("shfl.sync.up", ok);
  clReleaseMemObject(out);

  float in[256], got[256];
  for (int i = 0; i < 256; i++)
    in[i] = (float)i;
  cl_mem bufs[2] = {clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, NULL),
                    clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof got, NULL, NULL)};
  ok =
      run("cp_async", 64, bufs, 2) == CL_SUCCESS &&
      clEnqueueReadBuffer(queue, bufs[1], CL_TRUE, 0, sizeof got, got, 0, NULL, NULL) == CL_SUCCESS;
  for (int i = 0; ok && i < 64; i++)
    for (int j = 0; j < 4; j++)
      ok = ok && got[i * 4 + j] == in[(63 - i) * 4 + j];
  verdict("cp.async to __local", ok);
  clReleaseMemObject(bufs[0]);
  clReleaseMemObject(bufs[1]);
}

/* One warp computes an M x N x K product with kernel `name`; compared exactly with the host (the
 * inputs are small multiples of 1/4, so every sum is exact in double). */
static void check_layout(cl_program p, const char *name, int m, int n, int k) {
  double a[256], b[128], c[128], ref[128];
  for (int i = 0; i < m * k; i++)
    a[i] = (i * 13 % 17) - 8.5;
  for (int i = 0; i < k * n; i++)
    b[i] = (i * 7 % 11) - 4.25;
  for (int r = 0; r < m; r++)
    for (int col = 0; col < n; col++) {
      double s = 0;
      for (int q = 0; q < k; q++)
        s += a[r * k + q] * b[q * n + col];
      ref[r * n + col] = s;
    }
  cl_mem bufs[3] = {clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, NULL),
                    clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof b, b, NULL),
                    clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof c, NULL, NULL)};
  int ok = run_in(p, name, 32, bufs, 3) == CL_SUCCESS &&
           clEnqueueReadBuffer(queue, bufs[2], CL_TRUE, 0, sizeof(double) * (size_t)(m * n), c, 0,
                               NULL, NULL) == CL_SUCCESS;
  for (int i = 0; ok && i < m * n; i++)
    ok = c[i] == ref[i];
  char what[64];
  snprintf(what, sizeof what, "layout m%dn%dk%d f64", m, n, k);
  verdict(what, ok);
  for (int i = 0; i < 3; i++)
    clReleaseMemObject(bufs[i]);
}

/* TFLOP/s of kernel `name` of program p: `blocks` work-groups of `local` threads per compute
 * unit, 4096 iterations, best of 3 after one warm-up. flop_per_iter counts one iteration of one
 * warp. With 8 blocks of 256 threads the SM holds 64 warps, as many as it can: the instruction's
 * own rate. Fewer warps show what a kernel with that occupancy can get at best. */
static void rate_at(cl_program p, const char *name, double flop_per_iter, cl_uint units,
                    size_t blocks, size_t local) {
  const int iters = 4096;
  size_t global = (size_t)units * blocks * local;
  cl_int err;
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, global * sizeof(double), NULL, &err);
  cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, name, &err) : NULL;
  if (err != CL_SUCCESS) {
    verdict(name, 0);
    if (out)
      clReleaseMemObject(out);
    return;
  }
  clSetKernelArg(k, 0, sizeof out, &out);
  clSetKernelArg(k, 1, sizeof iters, &iters);
  double best = 0;
  for (int r = 0; r < 4; r++) {
    cl_event ev;
    cl_ulong t0 = 0, t1 = 0;
    if (clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, &ev) != CL_SUCCESS ||
        clWaitForEvents(1, &ev) != CL_SUCCESS) {
      verdict(name, 0);
      break;
    }
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
    clReleaseEvent(ev);
    double tf = (double)global / 32 * iters * flop_per_iter / ((double)(t1 - t0) * 1e-9) / 1e12;
    if (r > 0 && tf > best)
      best = tf;
  }
  char what[64];
  snprintf(what, sizeof what, "%s, %zu x %zu per unit", name, blocks, local);
  printf("%-36s %.1f TFLOP/s\n", what, best);
  clReleaseKernel(k);
  clReleaseMemObject(out);
}

/* The TF32 m16n8k8 layout: as check_layout with float data (every value and sum exact in TF32
 * and float). */
static void check_layout_tf32(void) {
  float a[128], b[64], c[128];
  double ref[128];
  for (int i = 0; i < 128; i++)
    a[i] = (float)((i * 13 % 17) - 8.5);
  for (int i = 0; i < 64; i++)
    b[i] = (float)((i * 7 % 11) - 4.25);
  for (int r = 0; r < 16; r++)
    for (int col = 0; col < 8; col++) {
      double s = 0;
      for (int q = 0; q < 8; q++)
        s += (double)a[r * 8 + q] * b[q * 8 + col];
      ref[r * 8 + col] = s;
    }
  cl_mem bufs[3] = {clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, NULL),
                    clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof b, b, NULL),
                    clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof c, NULL, NULL)};
  int ok =
      run("l1688tf32", 32, bufs, 3) == CL_SUCCESS &&
      clEnqueueReadBuffer(queue, bufs[2], CL_TRUE, 0, sizeof c, c, 0, NULL, NULL) == CL_SUCCESS;
  for (int i = 0; ok && i < 128; i++)
    ok = c[i] == ref[i];
  verdict("layout m16n8k8 tf32", ok);
  for (int i = 0; i < 3; i++)
    clReleaseMemObject(bufs[i]);
}

static void rate(const char *name, double flop_per_iter, cl_uint units) {
  rate_at(prog, name, flop_per_iter, units, 8, 256);
}

int main(void) {
  cl_platform_id platforms[16];
  cl_uint np = 0;
  cl_device_id dev = NULL;
  if (clGetPlatformIDs(16, platforms, &np) != CL_SUCCESS)
    np = 0;
  for (cl_uint i = 0; i < np && !dev; i++) {
    char vendor[256] = "";
    clGetPlatformInfo(platforms[i], CL_PLATFORM_VENDOR, sizeof vendor, vendor, NULL);
    if (!strstr(vendor, "NVIDIA") ||
        clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS)
      dev = NULL;
  }
  if (!dev) {
    printf("ptx-probe: no NVIDIA GPU\n");
    return 77;
  }
  char name[256] = "";
  cl_uint major = 0, minor = 0, units = 0;
  clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, NULL);
  clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
  printf("%s, compute capability %u.%u, %u compute units\n", name, major, minor, units);
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, NULL);
  queue = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, NULL);
  const char *sources[] = {source,       source_tf32,    source_fma,
                           source_inner, source_inner48, source_order};
  prog = clCreateProgramWithSource(ctx, 6, sources, NULL, NULL);
  if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
    static char log[65536];
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("build failed (the f64 m16n8k* shapes need compute capability 9.0):\n%s\n", log);
    return 1;
  }
  check_lanes();
  check_layout(prog, "l884", 8, 8, 4);
  check_layout(prog, "l1684", 16, 8, 4);
  check_layout(prog, "l1688", 16, 8, 8);
  check_layout_tf32();
  rate("p884", 8 * 2.0 * 8 * 8 * 4, units);   /* 8 mma of 8 x 8 x 4 per iteration per warp */
  rate("p1684", 8 * 2.0 * 16 * 8 * 4, units); /* 16 x 8 x 4 */
  rate("p1688", 8 * 2.0 * 16 * 8 * 8, units); /* 16 x 8 x 8 */
  rate("pfma", 32 * 16 * 2.0, units);         /* 16 fma per thread per iteration, 32 threads */
  rate("ptf32", 8 * 2.0 * 16 * 8 * 8, units); /* TF32 m16n8k8 */
  /* The FP64 fma at the occupancy of matmul_fast's double shape (8 warps per SM, 64
   * accumulators per thread), then its inner loop from tile_static memory at that occupancy;
   * the 4 x 8 tile at 16 warps per SM (pouter48, pinner48). Flops per warp and iteration. */
  static const struct {
    const char *name;
    double flop;
    size_t blocks, local;
  } dgemm_rates[] = {
      {"pfma", 32 * 16 * 2.0, 2, 128},
      {"pfma64", 32 * 64 * 2.0, 2, 128},
      {"pouter", 32 * 64 * 2.0, 2, 128},
      {"pouter_a", 32 * 64 * 2.0, 2, 128},
      {"pouter48", 32 * 32 * 2.0, 4, 128},
      {"pinner", 32 * 16 * 64 * 2.0, 2, 128},
      {"pinner_w48", 32 * 16 * 64 * 2.0, 2, 128},
      {"pinner_q24", 32 * 16 * 64 * 2.0, 2, 128},
      {"pinner_q24b", 32 * 16 * 64 * 2.0, 2, 128},
      {"pinner48", 32 * 16 * 32 * 2.0, 2, 256},
      {"pinner_o0", 32 * 16 * 64 * 2.0, 2, 128},
      {"pinner_o1", 32 * 16 * 64 * 2.0, 2, 128},
      {"pinner_o2", 32 * 16 * 64 * 2.0, 2, 128},
      {"pinner_o3", 32 * 16 * 64 * 2.0, 2, 128},
      {"pinner_o2bar", 32 * 16 * 64 * 2.0, 2, 128},
  };
  for (size_t i = 0; i < sizeof dgemm_rates / sizeof dgemm_rates[0]; i++)
    rate_at(prog, dgemm_rates[i].name, dgemm_rates[i].flop, units, dgemm_rates[i].blocks,
            dgemm_rates[i].local);
  /* At the occupancy of matmul_dmma (two tiles of 4 warps, or one of 8, per SM: 8 warps), with
   * 8 and with 16 accumulators per warp (its 64 x 32 warp tile holds 16). */
  rate_at(prog, "p1688", 8 * 2.0 * 16 * 8 * 8, units, 2, 128);
  rate_at(prog, "p1688", 8 * 2.0 * 16 * 8 * 8, units, 1, 256);
  rate_at(prog, "p1688x16", 16 * 2.0 * 16 * 8 * 8, units, 2, 128);
  rate_at(prog, "p1688x16", 16 * 2.0 * 16 * 8 * 8, units, 1, 256);

  prog16 = clCreateProgramWithSource(ctx, 1, &source16, NULL, NULL);
  if (prog16 && clBuildProgram(prog16, 1, &dev, "", NULL, NULL) == CL_SUCCESS) {
    check_layout(prog16, "l16816", 16, 8, 16);
    rate_at(prog16, "p16816", 8 * 2.0 * 16 * 8 * 16, units, 8, 256);
    rate_at(prog16, "p16816", 8 * 2.0 * 16 * 8 * 16, units, 2, 128);
  } else {
    static char log[16384];
    if (prog16)
      clGetProgramBuildInfo(prog16, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    printf("m16n8k16 f64: not built here (not counted as a failure):\n%.2000s\n", log);
  }
  if (prog16)
    clReleaseProgram(prog16);
  clReleaseProgram(prog);
  clReleaseCommandQueue(queue);
  clReleaseContext(ctx);
  return failures ? 1 : 0;
}

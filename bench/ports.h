/* bench/ports.h: classic OpenCL kernels run unchanged by raw OpenCL host code (ports_raw.c) and by
 * ampcl (ports_amp.c), end to end from host memory (bench_ports.c, amp-bench --ports).
 *
 * Each port is one kernel file (bench/ports/, and examples/opencl_port/opencl_port.cl for the 2-D
 * convolution), embedded at build time; both sides build it beforehand and time, per run: the
 * data to the device, every launch, the result back, and the buffers' release. */
#ifndef AMP_BENCH_PORTS_H
#define AMP_BENCH_PORTS_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "bench.h"

/* One run's host data; which arrays a port uses, and how, is said at each port. */
typedef struct port_io {
  int n;     /* matrices are n x n, vectors n */
  int steps; /* Jacobi's time steps */
  float *a, *b, *c;
} port_io;

enum { PORT_GEMM, PORT_CONV2D, PORT_JACOBI, PORT_MV, PORT_CORR, PORTS };
enum { PORT_MAX_KERNELS = 4 };

/* The kernel functions of each port's file, in the order the host code uses them. */
extern const char *const port_kernel_names[PORTS][PORT_MAX_KERNELS];

/* Raw OpenCL's side: its own context and queue on the accelerator's device, a program per port
 * built from the file's text, and its kernel objects. */
typedef struct raw_env {
  cl_context ctx;
  cl_command_queue q;
  cl_device_id dev;
  cl_program prog[PORTS];
  cl_kernel k[PORTS][PORT_MAX_KERNELS];
} raw_env;

/* ampcl's side: a program per port, built beforehand (amp_program_build), and its kernels. */
typedef struct amp_env {
  amp_accelerator_view *av;
  amp_program *prog[PORTS];
  amp_kernel *k[PORTS][PORT_MAX_KERNELS];
} amp_env;

/* One end-to-end run of port p; 0, or 1 with the reason printed. */
int port_raw_run(raw_env *e, int p, port_io *io);
int port_amp_run(amp_env *e, int p, port_io *io);
/* The host lines of each side's run of port p (its function's body, helpers not counted). */
int port_raw_lines(int p);
int port_amp_lines(int p);

/* bench_ports_ref.c: port p's result computed on the host, in io's result array (scratch: room
 * for n * n + 2 * n doubles); the worst error of got against want, in units of the tolerance
 * (1e-3 relative, plus 1e-3 absolute): above 1 fails. */
void port_reference(int p, port_io *io, void *scratch);
double port_max_error(const float *got, const float *want, size_t n);

#endif /* AMP_BENCH_PORTS_H */

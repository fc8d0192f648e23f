/* opencl_port.cl: a 2-D convolution with a 3x3 filter as classic OpenCL benchmark suites write
 * it: a typedef'd element type, plain __global pointers, one work-item per output pixel with
 * get_global_id(0) the column, and the image's border left as it was. Nothing in it is ampcl's:
 * examples/opencl_port runs it unchanged through ampcl, and amp-bench --ports runs it under raw
 * OpenCL and through ampcl side by side. */
typedef float DATA_TYPE;

/* the filter's weights, row by row (a sharpening filter whose weights sum to 1) */
#define W00 (-0.10f)
#define W01 (-0.15f)
#define W02 (-0.10f)
#define W10 (-0.15f)
#define W11 (2.00f)
#define W12 (-0.15f)
#define W20 (-0.10f)
#define W21 (-0.15f)
#define W22 (-0.10f)

__kernel void conv2d(__global const DATA_TYPE *in, __global DATA_TYPE *out, int ni, int nj) {
  int j = get_global_id(0);
  int i = get_global_id(1);
  if (i < 1 || i >= ni - 1 || j < 1 || j >= nj - 1)
    return; /* the border keeps its values */
  __global const DATA_TYPE *up = in + (i - 1) * nj, *mid = in + i * nj, *down = in + (i + 1) * nj;
  out[i * nj + j] = W00 * up[j - 1] + W01 * up[j] + W02 * up[j + 1] + W10 * mid[j - 1] +
                    W11 * mid[j] + W12 * mid[j + 1] + W20 * down[j - 1] + W21 * down[j] +
                    W22 * down[j + 1];
}

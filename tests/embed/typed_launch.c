/* typed_launch: the typed launchers ampcl_embed_cl writes from launchers.cl (launchers_launch.h).
 *
 * At compile time: each launcher has the C type it should have, one parameter per kernel parameter
 * of the kind the parameter is (a pointer to a function of another type would not compile here,
 * warnings being errors). At run time: every scalar type arrives, parameters named like the
 * launcher's own are renamed and still land, tiled kernels take a tiled extent (by __local
 * parameter and by AMP_TILE_SHAPE alone), amp_arg parameters pass structs and macro-typed scalars,
 * a kernel without parameters runs, NULL is the default view, _ex gives a future; and the errors:
 * a NULL view named by its parameter, a NULL kernel, a kernel of another name, a tile of another
 * rank, and the run-time element type check that stays. */
#include "check.h"
#include "launchers_cl.h"
#include "launchers_launch.h"

#include <stdint.h>

/* The launchers' types, as the kernels' parameters make them. */
static int signatures(void) {
  amp_status (*scalars)(amp_accelerator_view *, amp_extent, amp_kernel *, amp_array_view *, int32_t,
                        uint32_t, float, int64_t, uint64_t, int16_t, uint16_t, int8_t, uint8_t,
                        int32_t, uint32_t, float) = scalars_launch;
  amp_status (*with_double)(amp_accelerator_view *, amp_extent, amp_kernel *, amp_array_view *,
                            double) = with_double_launch;
  amp_status (*views)(amp_accelerator_view *, amp_extent, amp_kernel *, amp_array_view *,
                      amp_array_view *, int32_t, int32_t) = views_launch;
  amp_status (*views_ex)(amp_accelerator_view *, amp_extent, amp_kernel *, amp_array_view *,
                         amp_array_view *, int32_t, int32_t, amp_future **) = views_launch_ex;
  amp_status (*tiled_sum)(amp_accelerator_view *, amp_tiled_extent, amp_kernel *, amp_array_view *,
                          amp_array_view *, size_t) = tiled_sum_launch;
  amp_status (*shaped)(amp_accelerator_view *, amp_tiled_extent, amp_kernel *, amp_array_view *) =
      shaped_launch;
  amp_status (*by_value)(amp_accelerator_view *, amp_extent, amp_kernel *, amp_array_view *,
                         amp_arg, amp_arg) = by_value_launch;
  amp_status (*nothing)(amp_accelerator_view *, amp_extent, amp_kernel *) = nothing_launch;
  amp_status (*branchy)(amp_accelerator_view *, amp_extent, amp_kernel *, amp_array_view *,
                        int32_t) = branchy_launch;
  amp_status (*tex_copy)(amp_accelerator_view *, amp_extent, amp_kernel *, amp_texture *,
                         amp_sampler, amp_texture *) = tex_copy_launch;
  amp_status (*make)(amp_program *, amp_kernel **) = views_kernel;
  return scalars && with_double && views && views_ex && tiled_sum && shaped && by_value &&
         nothing && branchy && tex_copy && make;
}

int main(void) {
  REQUIRE_VIEW(av);
  amp_accelerator_properties props;
  REQUIRE_OK(test_props(av, &props));
  CHECK(signatures());
  amp_program *prog;
  amp_kernel *ks, *kd, *kv, *kt, *kshape, *kb, *kn;
  REQUIRE_OK(amp_program_create(launchers_cl, NULL, &prog));
  REQUIRE_OK(scalars_kernel(prog, &ks));
  REQUIRE_OK(with_double_kernel(prog, &kd));
  REQUIRE_OK(views_kernel(prog, &kv));
  REQUIRE_OK(tiled_sum_kernel(prog, &kt));
  REQUIRE_OK(shaped_kernel(prog, &kshape));
  REQUIRE_OK(by_value_kernel(prog, &kb));
  REQUIRE_OK(nothing_kernel(prog, &kn));

  /* every scalar type, on the default view (av NULL) */
  float out[12] = {0};
  amp_array_view *vout;
  REQUIRE_OK(amp_array_view_create(amp_extent1(12), AMP_FLOAT, out, &vout));
  CHECK_OK(scalars_launch(NULL, amp_extent1(1), ks, vout, -3, 4u, 2.5f, -5, 6u, -7, 8, -9, 10, 11,
                          12u, 13.0f));
  CHECK_OK(amp_array_view_synchronize(vout));
  const float want[12] = {-3, 4, 2.5f, -5, 6, -7, 8, -9, 10, 11, 12, 13};
  for (int i = 0; i < 12; i++)
    CHECK(out[i] == want[i]);

  /* parameters named `domain` and `av`, and _ex's future */
  int in[16], res[16];
  for (int i = 0; i < 16; i++)
    in[i] = i;
  amp_array_view *vin, *vres, *vfloat;
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(16), AMP_INT32, in, &vin));
  REQUIRE_OK(amp_array_view_create(amp_extent1(16), AMP_INT32, res, &vres));
  amp_future *done = NULL;
  CHECK_OK(views_launch_ex(av, amp_extent1(16), kv, vin, vres, 3, 100, &done));
  CHECK_OK(amp_future_wait(done));
  CHECK_OK(amp_future_release(done));
  CHECK_OK(amp_array_view_synchronize(vres));
  for (int i = 0; i < 16; i++)
    CHECK_EQ_INT(res[i], 3 * i + 100);

  /* a NULL view, named by its parameter; nothing is launched */
  CHECK_STATUS(views_launch(av, amp_extent1(16), kv, NULL, vres, 3, 100), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("views_launch: the view for parameter 'in' is NULL (the kernel's parameter 0");
  CHECK_STATUS(views_launch(av, amp_extent1(16), kv, vin, NULL, 3, 100), AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("the view for parameter 'out' is NULL");
  /* a NULL kernel, and a kernel of another name */
  CHECK_STATUS(views_launch(av, amp_extent1(16), NULL, vin, vres, 3, 100),
               AMP_ERROR_INVALID_HANDLE);
  CHECK_MSG("views_launch: the kernel is NULL; make it with views_kernel(program, &kernel)");
  CHECK_STATUS(views_launch(av, amp_extent1(16), ks, vin, vres, 3, 100),
               AMP_ERROR_INVALID_ARGUMENT);
  CHECK_MSG("views_launch: the kernel given is scalars, not views");
  /* the element types are still checked when the launch runs: a view of float for `in` */
  REQUIRE_OK(amp_array_view_create(amp_extent1(12), AMP_FLOAT, out, &vfloat));
  CHECK_STATUS(views_launch(av, amp_extent1(12), kv, vfloat, vres, 3, 100), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("views_launch: the view for parameter 'in' is a view of float, but the kernel declares "
            "it a view of int (the kernel's parameter 0, counting from 0)");
  /* by the kernel's text, not the driver's argument information: a macro and a typedef followed */
  amp_kernel *kne;
  REQUIRE_OK(named_elems_kernel(prog, &kne));
  CHECK_STATUS(named_elems_launch(av, amp_extent1(12), kne, vfloat, vfloat), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("the view for parameter 'counts' is a view of float, but the kernel declares it a view "
            "of ELEM, which is int");
  CHECK_STATUS(named_elems_launch(av, amp_extent1(12), kne, vres, vres), AMP_ERROR_KERNEL_ARGS);
  CHECK_MSG("the view for parameter 'weights' is a view of int, but the kernel declares it a view "
            "of real, which is float");
  CHECK_OK(named_elems_launch(av, amp_extent1(12), kne, vres, vfloat));
  CHECK_OK(amp_accelerator_view_wait(av));
  amp_kernel_release(kne);

  /* tiled: by a __local parameter (its bytes per tile), and by AMP_TILE_SHAPE alone */
  float ones[16], sums[4] = {0};
  for (int i = 0; i < 16; i++)
    ones[i] = (float)(i + 1);
  amp_array_view *vones, *vsums;
  REQUIRE_OK(amp_array_view_create_const(amp_extent1(16), AMP_FLOAT, ones, &vones));
  REQUIRE_OK(amp_array_view_create(amp_extent1(4), AMP_FLOAT, sums, &vsums));
  CHECK_OK(
      tiled_sum_launch(av, amp_tile1(amp_extent1(16), 4), kt, vones, vsums, 4 * sizeof(float)));
  CHECK_OK(amp_array_view_synchronize(vsums));
  for (int t = 0; t < 4; t++)
    CHECK(sums[t] == (float)(16 * t + 10)); /* (4t+1) + ... + (4t+4) */
  CHECK_STATUS(tiled_sum_launch(av, amp_tile2(amp_extent1(16), 4, 1), kt, vones, vsums, 16),
               AMP_ERROR_RANK_MISMATCH);
  CHECK_MSG("tiled_sum_launch: a rank-2 tile was given for a rank-1 extent");
  CHECK_OK(shaped_launch(av, amp_tile1(amp_extent1(16), 4), kshape, vres));
  CHECK_OK(amp_array_view_synchronize(vres));
  for (int i = 0; i < 16; i++)
    CHECK_EQ_INT(res[i], i);
  CHECK_STATUS(shaped_launch(av, amp_tile1(amp_extent1(16), 8), kshape, vres),
               AMP_ERROR_INVALID_ARGUMENT); /* not the shape it is written for */

  /* amp_arg parameters: a struct by value, a scalar of a macro type; a kernel with none */
  struct {
    int32_t a;
    float b;
  } pair = {20, 0.5f};
  CHECK_OK(by_value_launch(av, amp_extent1(1), kb, vout, amp_arg_bytes(&pair, sizeof pair),
                           amp_arg_int(3)));
  CHECK_OK(amp_array_view_synchronize(vout));
  CHECK(out[0] == 23.5f);
  CHECK_OK(nothing_launch(av, amp_extent1(1), kn));
  CHECK_OK(amp_accelerator_view_wait(av));

  if (props.supports_double_precision) {
    double d[2] = {0, 0};
    amp_array_view *vd;
    REQUIRE_OK(amp_array_view_create(amp_extent1(2), AMP_DOUBLE, d, &vd));
    CHECK_OK(with_double_launch(av, amp_extent1(2), kd, vd, 0.125));
    CHECK_OK(amp_array_view_synchronize(vd));
    CHECK(d[0] == 0.125 && d[1] == 0.125);
    amp_array_view_release(vd);
  }

  amp_array_view_release(vout);
  amp_array_view_release(vin);
  amp_array_view_release(vres);
  amp_array_view_release(vfloat);
  amp_array_view_release(vones);
  amp_array_view_release(vsums);
  amp_kernel_release(ks);
  amp_kernel_release(kd);
  amp_kernel_release(kv);
  amp_kernel_release(kt);
  amp_kernel_release(kshape);
  amp_kernel_release(kb);
  amp_kernel_release(kn);
  amp_program_release(prog);
  return check_done();
}

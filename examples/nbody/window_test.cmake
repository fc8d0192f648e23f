# ctest example.nbody.window: amp-nbody --window under xvfb-run for 50 frames, a screenshot, and
# nbody_screenshot_check on it (not blank; every body drawn). On a CPU device (POCL, as in CI) the
# frames read the bodies in place (amp_array_view_map_read), so the run's transfer line must show
# one copy back, the final state, not one per frame.
#   cmake -DXVFB_RUN=... -DNBODY=... -DCHECK=... -DOUT=<file.png> -DBODIES=N -P window_test.cmake
file(REMOVE ${OUT})
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 800x800x24" ${NBODY} --size ${BODIES}
                        --steps 50 --impl tiled --window --screenshot ${OUT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "amp-nbody --window failed (${rc})")
endif()
if(NOT out MATCHES "transfers: 1 to the accelerator \\([0-9]+ bytes\\), 1 back")
  message(FATAL_ERROR "50 frames on a CPU device should copy nothing back but the final state")
endif()
execute_process(COMMAND ${CHECK} ${OUT} ${BODIES} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the screenshot ${OUT} is wrong (${rc})")
endif()

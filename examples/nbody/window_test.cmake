# ctest example.nbody.window: amp-nbody --window under xvfb-run for 50 frames, a screenshot, and
# nbody_screenshot_check on it (not blank; every body drawn).
#   cmake -DXVFB_RUN=... -DNBODY=... -DCHECK=... -DOUT=<file.png> -DBODIES=N -P window_test.cmake
file(REMOVE ${OUT})
execute_process(COMMAND ${XVFB_RUN} -a -s "-screen 0 800x800x24" ${NBODY} --size ${BODIES}
                        --steps 50 --impl tiled --window --screenshot ${OUT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "amp-nbody --window failed (${rc})")
endif()
execute_process(COMMAND ${CHECK} ${OUT} ${BODIES} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the screenshot ${OUT} is wrong (${rc})")
endif()

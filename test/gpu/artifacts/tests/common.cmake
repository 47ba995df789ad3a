# What the artifacts ctests (build_test.cmake, check_test.cmake) share: run(what COMMAND...)
# keeps a command's exit status in `rc` and its output in `out`; expect(CONDITION...) stops
# the test, showing the last output, when the condition is false. TEST_NAME names the test
# in that message.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  message(STATUS "${what}: exit status ${rc}")
endfunction()
function(expect)
  if(NOT (${ARGN}))
    list(JOIN ARGN " " shown)
    message(FATAL_ERROR "${TEST_NAME}: expected ${shown}; output:\n${out}")
  endif()
endfunction()

# Runs a program for CTest and passes only when it exits with status 0 AND its output matches
# PASS (and not FAIL). CTest's own PASS_REGULAR_EXPRESSION ignores the exit status, so a demo
# that printed its success line and then crashed (or tripped a sanitizer at exit) would pass.
#
#   cmake -DPASS=<regex> [-DFAIL=<regex>] [-DREFERENCE=<cmd|arg|...>] [-DSAME=<regex>]
#         -P run_checked.cmake <program> [args...]
#
# With REFERENCE ('|' between the command's words) and SAME: REFERENCE is run too (same rules: status 0), and the first capture
# group of SAME must be found in both outputs and be equal (e.g. a compiled run must take as
# many iterations as the eager one, whatever that number is).

# the program and its arguments: everything after the script's path (a word may not contain
# ';', which CMake lists split on)
set(cmd "")
set(after_script FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(after_script)
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} MATCHES "run_checked\\.cmake$")
    set(after_script TRUE)
  endif()
endforeach()
if(NOT cmd OR NOT DEFINED PASS)
  message(FATAL_ERROR "usage: cmake -DPASS=<regex> [-DFAIL=<regex>] [-DREFERENCE=..] [-DSAME=..] -P run_checked.cmake <program> [args...]")
endif()

# run_one(<out-var> <list-var>): runs the command in the list, prints its output, fails on a
# non-zero status. Each word is passed quoted, so that empty words (`--svg ""`) survive.
function(run_one out_var list_var)
  set(code "execute_process(COMMAND")
  foreach(word IN LISTS ${list_var})
    string(APPEND code " [==[${word}]==]")
  endforeach()
  string(APPEND code " OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE status)")
  cmake_language(EVAL CODE "${code}")
  message("${out}")
  if(NOT status STREQUAL "0")
    list(JOIN ${list_var} " " shown)
    message(FATAL_ERROR "run_checked: `${shown}` ended with status '${status}' (0 required)")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

run_one(output cmd)
if(NOT output MATCHES "${PASS}")
  message(FATAL_ERROR "run_checked: the output does not match '${PASS}'")
endif()
if(DEFINED FAIL AND output MATCHES "${FAIL}")
  message(FATAL_ERROR "run_checked: the output matches the failure pattern '${FAIL}'")
endif()
if(DEFINED REFERENCE AND DEFINED SAME)
  if(NOT output MATCHES "${SAME}")
    message(FATAL_ERROR "run_checked: the output has no '${SAME}'")
  endif()
  set(mine "${CMAKE_MATCH_1}")
  string(REPLACE "|" ";" reference_cmd "${REFERENCE}")
  run_one(reference reference_cmd)
  if(NOT reference MATCHES "${SAME}")
    message(FATAL_ERROR "run_checked: the reference's output has no '${SAME}'")
  endif()
  if(NOT mine STREQUAL CMAKE_MATCH_1)
    message(FATAL_ERROR "run_checked: '${SAME}' gives '${mine}' here and '${CMAKE_MATCH_1}' in the reference")
  endif()
endif()

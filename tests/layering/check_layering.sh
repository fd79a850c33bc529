#!/usr/bin/env bash
# The rooms of src/ depend in one direction: cli -> run -> plan and backends
# -> report and render, all of them on core (the model), and everything on
# the ground, include/cumap: the contracts between rooms and the value types
# they carry, which include nothing but each other, the standard library and
# third-party headers. Fails naming every include that breaks the direction.
#   check_layering.sh REPO_ROOT
set -u
cd "$1" || exit 2
status=0
# forbid ROOM PATTERN WHY: no file of src/ROOM includes a header matching PATTERN.
forbid() {
  local hits
  hits=$(grep -rnE "#include \"($2)/" "src/$1" 2>/dev/null)
  if [[ -n $hits ]]; then
    printf 'src/%s must not include %s/ (%s):\n%s\n' "$1" "$2" "$3" "$hits"
    status=1
  fi
}
forbid core 'plan|run|report|render|cli|backends' 'the model depends on no room'
forbid plan 'run|report|render|cli|backends' 'plans are plain data'
forbid render 'plan|run|report|cli|backends' 'pictures know only the model'
forbid report 'run|cli|backends' 'reporters read only the result'
forbid run 'report|render|cli' 'a run returns its result; the CLI hands it to the reporters'
forbid cli 'backends' 'the CLI opens backends through the registry, never one directly'
# Reporters take the result, never the options the user typed.
if hits=$(grep -rnwE 'Options' src/report src/render); then
  printf 'reporters must read MapResult only, not Options:\n%s\n' "$hits"
  status=1
fi
# The ground includes only itself: an installed header cannot reach src/.
if hits=$(grep -rnE '#include "' include | grep -vE '#include "cumap/'); then
  printf 'include/ must include only cumap/ headers (and <...> ones), never a room of src/:\n%s\n' "$hits"
  status=1
fi
# No target exports src/: its headers are this project's, found through the
# top-level include_directories, never through a target's interface.
if hits=$(grep -rnE 'target_include_directories\([^)]*(PUBLIC|INTERFACE)[^)]*/src' --include=CMakeLists.txt src bench tests); then
  printf 'src/ must not be PUBLIC or INTERFACE in any target:\n%s\n' "$hits"
  status=1
fi
(( status == 0 )) && echo "layering: every room includes only what its direction allows"
exit $status

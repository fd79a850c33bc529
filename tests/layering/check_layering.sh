#!/usr/bin/env bash
# The rooms of src/ depend in one direction: cli -> run -> plan and backends
# -> report and render, all of them on core (the model); include/cumap holds
# only the contracts between rooms. Fails naming every include that breaks
# the direction.
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
count=$(find include/cumap -name '*.hpp' | wc -l)
if (( count > 10 )); then
  echo "include/cumap holds $count headers; it is for the contracts between rooms only (at most 10)"
  status=1
fi
(( status == 0 )) && echo "layering: every room includes only what its direction allows"
exit $status

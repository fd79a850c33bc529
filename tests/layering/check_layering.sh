#!/usr/bin/env bash
# The rooms of src/ depend in one direction: cli -> run -> plan and backends
# -> report and render, all of them on core (the model); report and cli put
# their files in place through publish, which knows only core; every file
# cumap reads is read through report/read (the library cumap_read), which
# knows only core, so that publish, render (the font) and place read through
# it too; everything on the ground, include/cumap: the contracts between
# rooms and the value types they carry, which include nothing but each
# other, the standard library and third-party headers. Fails naming every
# include that breaks the direction.
#   check_layering.sh REPO_ROOT
set -u
cd "$1" || exit 2
status=0
# forbid ROOM PATTERN WHY [ALLOWED]: no file of src/ROOM includes a header
# matching PATTERN, except those under ALLOWED.
forbid() {
  local hits
  hits=$(grep -rnE "#include \"($2)/" "src/$1" 2>/dev/null)
  [[ -n $hits && -n ${4:-} ]] && hits=$(grep -vE "#include \"($4)/" <<<"$hits")
  if [[ -n $hits ]]; then
    printf 'src/%s must not include %s/ (%s):\n%s\n' "$1" "$2" "$3" "$hits"
    status=1
  fi
}
forbid core 'publish|plan|run|report|render|cli|backends' 'the model depends on no room'
forbid report/read 'publish|plan|run|report|render|cli|backends|place' \
  'the readers of cumap'"'"'s files stand on the model alone' 'report/read'
forbid publish 'plan|run|report|render|cli|backends' 'putting files in place knows nothing of what they hold' \
  'report/read'
forbid plan 'publish|run|report|render|cli|backends' 'plans are plain data'
forbid render 'publish|plan|run|report|cli|backends' 'pictures know only the model (and read their font)' 'report/read'
forbid report 'run|cli|backends' 'reporters read only the result'
forbid run 'publish|report|render|cli' 'a run returns its result; the CLI hands it to the reporters'
forbid cli 'backends' 'the CLI opens backends through the registry, never one directly'
forbid place 'cli|report|render|publish' 'the placement library measures and classifies; it writes and draws nothing' \
  'report/read'
# Reporters take the result, never the options the user typed.
if hits=$(grep -rnwE 'Options' src/report src/render); then
  printf 'reporters must read MapResult only, not Options:\n%s\n' "$hits"
  status=1
fi
# A backend's name is compared in one place only: its own folder (the
# registry there) and BackendKind's table in src/core/options.{hpp,cpp}.
# Anywhere else a difference between backends is a fact the backend states
# (Capabilities, DeviceInfo, the kinds' facts in that table), never a test
# of which backend it is.
backend_name='"(cpu|cuda|hip)"'
if hits=$(grep -rnE "BackendKind::(Cpu|Cuda|Hip)\b|[=!]=[[:space:]]*$backend_name|$backend_name[[:space:]]*[=!]=|(compare|starts_with|ends_with)\($backend_name\)" \
            src include | grep -vE '^(src/backends/|src/core/options\.(hpp|cpp):)'); then
  printf 'a backend is named only in src/backends and BackendKind'"'"'s table (src/core/options.*); say what differs as a fact it states:\n%s\n' "$hits"
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

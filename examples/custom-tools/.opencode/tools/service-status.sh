#!/bin/sh
# Gets the arguments as JSON on stdin and as OPENCODE_ARG_<NAME> variables; prints the API's answer.
# STATUS_API comes from the tool file's env (built from MONITOR_URL).
set -eu
set -- --data-urlencode "service=$OPENCODE_ARG_SERVICE"
if [ "${OPENCODE_ARG_VERBOSE:-false}" = true ]; then set -- "$@" --data-urlencode "incidents=5"; fi
exec curl --silent --show-error --fail --get "$@" "$STATUS_API/status"

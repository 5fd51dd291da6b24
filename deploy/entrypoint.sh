#!/bin/sh
# The container's entry point (Dockerfile, compose.yaml): wait for the database, bring its
# schema up to this version (several processes at once are safe: one migrates, the others
# wait for it), then become `meadow serve` (exec, so that SIGTERM reaches the server itself
# and it drains: docs/operations.md). `migrate` alone only migrates; any other command runs
# as it is (`docker compose run --rm meadow1 meadow check-store`).
set -eu

wait_seconds="${MEADOW_DATABASE_WAIT:-60}"

case "${1:-serve}" in
serve)
    if [ "$#" -gt 0 ]; then shift; fi
    meadow migrate --wait "$wait_seconds"
    exec meadow serve "$@"
    ;;
migrate)
    shift
    exec meadow migrate --wait "$wait_seconds" "$@"
    ;;
*)
    exec "$@"
    ;;
esac

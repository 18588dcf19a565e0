#!/usr/bin/env bash
# A local cluster: N `chessarbiter serve` processes (default 2) on ports PORT, PORT+1, ...
# (CLUSTER_PORT, default 8080) serving the same games, with PostgreSQL and Redis on their
# standard local ports (started, as scripts/test.sh does, when they are not running; the
# database `chessarbiter` made once; CLUSTER_DATABASE names another, CLUSTER_REDIS_DB another
# Redis database number). Extra arguments go to every `serve`. Ctrl-C stops all.
#   scripts/cluster.sh 3
#   CLUSTER_DATABASE=chessarbiter_bench CLUSTER_REDIS_DB=1 scripts/cluster.sh 2
#   CHESSARBITER_DB=postgresql://... CHESSARBITER_BUS=redis://... scripts/cluster.sh 2
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
source "$root/scripts/services.sh"
count="${1:-2}"
shift $(($# > 0 ? 1 : 0))
if ! [[ "$count" =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: scripts/cluster.sh [N] [serve options...]" >&2
    exit 2
fi
port="${CLUSTER_PORT:-8080}"
name="${CLUSTER_DATABASE:-chessarbiter}"
db="${CHESSARBITER_DB:-postgresql://chessarbiter:chessarbiter@127.0.0.1:5432/$name}"
bus="${CHESSARBITER_BUS:-redis://127.0.0.1:6379/${CLUSTER_REDIS_DB:-0}}"
[ -n "${CHESSARBITER_DB:-}" ] || postgres_database "$name"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait' EXIT INT TERM
for ((i = 0; i < count; i++)); do
    chessarbiter serve --port $((port + i)) --db "$db" --bus "$bus" "$@" &
    pids+=($!)
done
wait -n "${pids[@]}"

#!/usr/bin/env bash
# Optional: compile the rules core with mypyc (same source, no rewrite). The compiled
# modules land beside the sources and are picked up by the editable install; `--clean`
# removes them again. Needs a C compiler.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$root/src"
if [ "${1:-}" = "--clean" ]; then
    find chessarbiter -name '*.so' -delete
    find . -maxdepth 1 -name '*__mypyc*.so' -delete
    rm -rf build .mypy_cache
    echo "compiled core removed"
    exit 0
fi
mypyc chessarbiter/core/squares.py chessarbiter/core/attacks.py chessarbiter/core/moves.py \
    chessarbiter/core/movegen.py chessarbiter/core/position.py chessarbiter/core/zobrist.py \
    chessarbiter/core/errors.py chessarbiter/core/perft.py chessarbiter/core/fen.py
echo "compiled core built; run bench/bench_core.py to compare"

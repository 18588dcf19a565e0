#!/usr/bin/env bash
# The main job on embedded defaults.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
if [ "$#" -eq 0 ]; then set -- perft "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 5; fi
exec chessarbiter "$@"

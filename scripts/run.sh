#!/usr/bin/env bash
# The main job on embedded defaults: a game at the terminal against the built-in engine
# (5+3, FIDE 2023 blitz rules). Arguments go to `chessarbiter` instead, e.g.
# `bash scripts/run.sh play --accessible` or `bash scripts/run.sh perft`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
if [ "$#" -eq 0 ]; then set -- play; fi
exec chessarbiter "$@"

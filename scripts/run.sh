#!/usr/bin/env bash
# The main job on embedded defaults: the game server on 127.0.0.1 (it prints its URL; games and
# accounts in games/games.sqlite). `bash scripts/run.sh play` is the game at the terminal
# against the built-in engine; other arguments go to `chessarbiter`, e.g.
# `bash scripts/run.sh play --accessible`, `bash scripts/run.sh serve --port 9000`.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
if [ "$#" -eq 0 ]; then set -- serve --host 127.0.0.1 --db games/games.sqlite; fi
exec chessarbiter "$@"

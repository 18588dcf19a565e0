#!/usr/bin/env bash
# The test command: lint, types, then the default test suite (long suites excluded).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
corpus="$root/../shared/corpus"
if [ ! -d "$corpus" ]; then
    echo "ERROR: the test corpus is missing: expected ../shared/corpus beside the checkout" >&2
    exit 3
fi
# Debian packages some tests need: tmux (games typed through a real terminal) and stockfish
# (the reference external UCI engine).
need=()
command -v tmux >/dev/null || need+=(tmux)
command -v stockfish >/dev/null || [ -x /usr/games/stockfish ] || need+=(stockfish)
if [ "${#need[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing Debian packages: ${need[*]}"
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
        echo "warning: missing ${need[*]} (not root, or no apt-get): those tests are skipped" >&2
    fi
fi
ruff check src tests bench
mypy
pytest "$@"

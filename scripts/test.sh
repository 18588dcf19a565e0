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
# (the reference external UCI engine). Without them only the tests that need them are skipped.
missing() {
    local out=()
    command -v tmux >/dev/null || out+=(tmux)
    command -v stockfish >/dev/null || [ -x /usr/games/stockfish ] || out+=(stockfish)
    command -v chromium >/dev/null || out+=(chromium)  # the browser board's Playwright tests
    echo "${out[*]}"
}
source "$(dirname "${BASH_SOURCE[0]}")/apt.sh"  # apt_get
need="$(missing)"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing Debian packages: $need"
        # shellcheck disable=SC2086
        apt_get update -qq && DEBIAN_FRONTEND=noninteractive apt_get install -y -qq $need || true
        need="$(missing)"
    fi
    if [ -n "$need" ]; then
        echo "warning: missing $need: the tests that need it are skipped (listed at the end)" >&2
    fi
fi
source "$(dirname "${BASH_SOURCE[0]}")/services.sh"  # PostgreSQL, Redis
ruff check src tests bench
# The type check runs beside the tests (its minute of one core overlaps their start); its
# verdict counts as much as theirs, and is printed after them.
types="$(mktemp)"
mypy >"$types" 2>&1 &
typing=$!
# one worker per core, a test file's tests kept on one worker (module fixtures, servers);
# the slowest tests listed at the end, to keep the run within its 10 minutes
status=0
pytest -n "${PYTEST_WORKERS:-auto}" --dist loadfile --durations=15 ${need:+-rs} "$@" || status=$?
typed=0
wait "$typing" || typed=$?
echo "mypy:"
cat "$types"
rm -f "$types"
if [ "$typed" != 0 ]; then
    echo "ERROR: the type check (mypy --strict) failed" >&2
    [ "$status" != 0 ] || status=$typed
fi
exit "$status"

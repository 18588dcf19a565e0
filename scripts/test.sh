#!/usr/bin/env bash
# The test command: lint, types, then the default test suite (long suites excluded).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
corpus="$root/../shared/corpus"
if [ ! -d "$corpus" ]; then
    echo "ERROR: the test corpus is missing: expected ../shared/corpus beside the checkout" >&2
    exit 3
fi
ruff check src tests bench
mypy
pytest "$@"

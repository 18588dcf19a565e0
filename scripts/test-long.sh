#!/usr/bin/env bash
# The long suites (every perft depth of the corpus, ...): hours, not minutes.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
pytest -m long "$@"

#!/usr/bin/env bash
# Every benchmark behind BENCHMARKS.md, one after the other in one run (about 40 minutes on
# the 2-core machine; run it on an otherwise idle machine). Output goes to the terminal and to
# bench-results.txt. Each benchmark times chessarbiter and its anchor (python-chess) side by
# side in the same process and prints the ratios.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
out="$root/bench-results.txt"
: > "$out"
run() {
    echo "== $*" | tee -a "$out"
    python "$@" 2>&1 | tee -a "$out"
    echo | tee -a "$out"
}
python -c "import sys; sys.path.insert(0, 'bench'); from rates import build; print('build:', build())" | tee -a "$out"
run bench/bench_core.py --repeats 5
run bench/bench_notation.py --repeats 3
run bench/bench_clock.py
run bench/bench_arbiter.py
run bench/bench_proof.py
run bench/bench_check.py
run bench/bench_deadpos.py --sample --seconds 5
run bench/bench_deadpos.py --sets games
run bench/bench_startup.py --repeats 15
run bench/bench_engine.py nps --depth 5
run bench/bench_pairing.py
run bench/load_server.py --games 1000 --seconds 30

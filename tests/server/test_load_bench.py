"""bench/load_server.py works end to end: a real server process, bots on loopback, games
played out and replaced, figures reported (a few games for a few seconds)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.bench_run import run_bench

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.long
def test_the_load_bench_plays_and_measures() -> None:
    result = json.loads(run_bench(
        "load_server.py", "--games", "4", "--rate", "8", "--plies", "6", "--seconds", "4",
        "--warmup", "1", "--json"))
    assert result["errors"] == {}
    assert result["in_play_at_start"] == 4  # measuring began once every game was in play
    assert result["moves"] >= 4 * 8 * 4 // 2  # at least half the moves asked for
    assert result["moves"] - 4 <= result["round_trip_ms"]["n"] <= result["moves"]  # one in
    # flight per game at the end of the window
    assert 0 < result["round_trip_ms"]["p50"] <= result["round_trip_ms"]["p99"]
    assert result["games_ended"] >= 4  # six plies each, then resigned and replaced
    assert result["games_started"] > result["games_ended"]
    assert result["server_cpu_us_per_move"] > 0
    assert 0 <= result["machine_steal"] <= result["machine_busy"] <= 1
    assert 0 <= result["machine_softirq"] <= result["machine_busy"]


def test_the_neighbours_players_play_the_servers_engine() -> None:
    result = json.loads(run_bench(
        "load_server.py", "--games", "2", "--rate", "4", "--seconds", "4", "--warmup", "1",
        "--json", "--neighbour", "--neighbour-players", "", "--neighbour-readers", "0",
        "--spammers", "0", "--engine-games", "2", "--engine-level", "1", timeout=300))
    assert result["errors"] == {} and result["neighbour"]["errors"] == {}
    assert result["neighbour"]["engine_moves"] >= 4  # the engines answered, again and again


@pytest.mark.long
def test_the_noisy_neighbour_runs_beside_the_games() -> None:
    result = json.loads(run_bench(
        "load_server.py", "--games", "4", "--rate", "4", "--plies", "12", "--seconds", "8",
        "--warmup", "1", "--json", "--neighbour", "--neighbour-players", "20",
        "--neighbour-readers", "2", "--spammers", "3", timeout=300))
    assert result["errors"] == {}
    neighbour = result["neighbour"]
    assert neighbour["errors"] == {} and neighbour["reads"] > 0
    rounds = [p["round"] for p in neighbour["pairings"]]
    assert rounds == list(range(1, len(rounds) + 1)) and rounds  # each once its results are in
    assert neighbour["challenges"]["200"] >= 3 * 30 and neighbour["challenges"]["429"] > 0
    assert result["overcharge_ms"]["n"] > 0  # the clocks' charges were measured


def test_the_bench_counts_postgresql_work() -> None:
    """The bench's count of the databases' CPU (``services_cpu``) grows by what a PostgreSQL
    backend computes."""
    psycopg = pytest.importorskip("psycopg")
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from load_server import services_cpu
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from tests.services import postgres_dsn

    with psycopg.connect(postgres_dsn()) as db:
        before = services_cpu()
        db.execute("SELECT sum(x::numeric * x) FROM generate_series(1, 3000000) AS x").fetchone()
        after = services_cpu()
    assert set(after) == {"PostgreSQL", "Redis"}
    assert after["PostgreSQL"] - before["PostgreSQL"] >= 0.1


def test_the_bench_reads_the_servers_warnings_in_its_window(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from load_server import told
    finally:
        sys.path.remove(str(ROOT / "bench"))
    commit = ("the store took up to {} ms to commit ({} commits over 20 ms, {} events): their "
              "acknowledgements waited as long\n")
    before = commit.format(90, 1, 7).encode()
    log = tmp_path / "server.log"
    log.write_bytes(before + b"chessarbiter serving on http://127.0.0.1:1/\n"
                    + commit.format(31, 1, 12).encode()
                    + b"the event loop ran up to 64 ms late (3 times in 1.0 s): a stall, or a "
                    b"machine short of CPU\n" + commit.format(24, 2, 3).encode()
                    + b"the event loop ran up to 52 ms late (1 times in 1.0 s): a stall, or a "
                    b"machine short of CPU\n")
    assert told(log, len(before)) == {"slow_commits": {"n": 3, "max_ms": 31, "events": 15},
                                      "late_loop": {"n": 4, "max_ms": 64}}
    assert told(log, log.stat().st_size) == {"slow_commits": {"n": 0, "max_ms": 0, "events": 0},
                                             "late_loop": {"n": 0, "max_ms": 0}}


@pytest.mark.long
def test_the_tournament_reads_bench_reads_while_the_director_enters_results() -> None:
    result = json.loads(run_bench(
        "tournament_reads.py", "--players", "12", "--readers", "2", "--seconds", "2",
        "--json"))
    assert result["boards"] == 6 and result["entered"] == 6  # every result, read meanwhile
    assert result["reads"] > 0 and 0 < result["read_ms"]["p50"] <= result["read_ms"]["p99"]
    assert result["server_cpu_share"] > 0

"""``chessarbiter uci`` as clients no one here wrote use it: python-chess's engine module
(analysis with several lines, the analysis iterator stopped early, play under every kind of
limit, pondering), and conversations checking that every limit is honoured, at every skill
level, with a ticking time source where time matters."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import chess
import chess.engine
import pytest

import chessarbiter
from chessarbiter.clock.controls import BonusMode
from chessarbiter.engines.builtin import LEVELS, MAX_LEVEL, MIN_LEVEL
from chessarbiter.engines.search import Limits, Searcher
from chessarbiter.engines.timeman import budget
from chessarbiter.engines.uci_server import UciServer
from tests.engines.helpers import TickingTime

WAIT_S = 30.0
MIDDLEGAME = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


@pytest.fixture(scope="module")
def engine() -> Iterator[chess.engine.SimpleEngine]:
    source = str(Path(chessarbiter.__file__).parents[1])
    env = os.environ | {"PYTHONPATH": source}
    eng = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, "-m", "chessarbiter.cli.main", "uci"], env=env, timeout=WAIT_S)
    try:
        yield eng
    finally:
        eng.quit()


@pytest.fixture(autouse=True)
def full_strength(request: pytest.FixtureRequest) -> None:
    if "engine" in request.fixturenames:
        eng: chess.engine.SimpleEngine = request.getfixturevalue("engine")
        eng.configure({"Skill Level": MAX_LEVEL})


# -- python-chess ------------------------------------------------------------------------------


def test_python_chess_sees_the_options(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == "chessarbiter"
    assert {"MultiPV", "Ponder", "Skill Level", "Hash"} <= set(engine.options)


def test_analyse_with_three_lines(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MIDDLEGAME)
    infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and all(m in board.legal_moves for m in firsts)
    scores = [info["score"].white().score(mate_score=100_000) for info in infos]
    assert scores == sorted(scores, reverse=True)
    assert all(info["depth"] == 4 for info in infos)
    for info in infos:  # every line is a legal sequence
        replay = board.copy()
        for move in info["pv"]:
            assert move in replay.legal_moves
            replay.push(move)


def test_more_lines_than_moves(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("7k/8/8/8/8/8/r7/K7 w - - 0 1")  # Ka1: only Kxa2 and Kb1
    infos = engine.analyse(board, chess.engine.Limit(depth=3), multipv=5)
    assert sorted(info["pv"][0].uci() for info in infos) == ["a1a2", "a1b1"]


@pytest.mark.parametrize("level", [MIN_LEVEL, 5, MAX_LEVEL])
def test_analysis_iterator_stopped_early(engine: chess.engine.SimpleEngine, level: int) -> None:
    engine.configure({"Skill Level": level})
    board = chess.Board(MIDDLEGAME)
    seen = []
    with engine.analysis(board) as analysis:  # go infinite
        for info in analysis:
            if "depth" in info:
                seen.append(info)
                break
    # leaving the block sent stop; the engine answered with bestmove, so it goes on
    assert {"depth", "score", "pv", "nodes", "time"} <= set(seen[0])
    assert seen[0]["pv"][0] in board.legal_moves
    again = engine.analyse(board, chess.engine.Limit(depth=1))
    assert again["depth"] == 1


def test_play_to_a_depth(engine: chess.engine.SimpleEngine) -> None:
    result = engine.play(chess.Board(MIDDLEGAME), chess.engine.Limit(depth=4),
                         info=chess.engine.INFO_ALL)
    assert result.info["depth"] == 4


def test_play_within_nodes(engine: chess.engine.SimpleEngine) -> None:
    result = engine.play(chess.Board(MIDDLEGAME), chess.engine.Limit(nodes=3000),
                         info=chess.engine.INFO_ALL)
    assert result.move is not None and result.info["nodes"] == 3000  # all spent, no more


def test_play_to_a_mate(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    result = engine.play(board, chess.engine.Limit(mate=1), info=chess.engine.INFO_ALL)
    assert result.move == chess.Move.from_uci("d1d8")
    assert result.info["score"].relative == chess.engine.Mate(1)


@pytest.mark.parametrize("limit", [
    chess.engine.Limit(time=0.2),
    chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.1, black_inc=0.1),
    chess.engine.Limit(white_clock=3, black_clock=3, remaining_moves=10),
])
def test_play_on_the_clock(engine: chess.engine.SimpleEngine, limit: chess.engine.Limit) -> None:
    board = chess.Board(MIDDLEGAME)
    started = time.monotonic()
    result = engine.play(board, limit)
    assert result.move is not None and result.move in board.legal_moves
    assert time.monotonic() - started < 1.5 + 2.0  # at most half the clock, and some slack


def test_play_with_pondering(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MIDDLEGAME)
    result = engine.play(board, chess.engine.Limit(depth=3), ponder=True)
    assert result.move is not None and result.ponder is not None
    board.push(result.move)
    assert result.ponder in board.legal_moves
    board.push(result.ponder)
    # python-chess sent `go ponder` for that position; the next request stops it
    following = engine.play(board, chess.engine.Limit(depth=2))
    assert following.move is not None and following.move in board.legal_moves


# -- conversations ------------------------------------------------------------------------


class Talk:
    """A server whose output lines can be awaited (no sleeping)."""

    def __init__(self, now: TickingTime | None = None) -> None:
        self.out: list[str] = []
        self._changed = threading.Condition()
        self.server = (UciServer(self._write) if now is None
                       else UciServer(self._write, now=now))

    def _write(self, line: str) -> None:
        with self._changed:
            self.out.append(line)
            self._changed.notify_all()

    def say(self, *lines: str) -> None:
        for line in lines:
            assert self.server.handle(line)

    def await_line(self, prefix: str, after: int = 0) -> str:
        with self._changed:
            assert self._changed.wait_for(
                lambda: any(line.startswith(prefix) for line in self.out[after:]), WAIT_S)
            return next(line for line in self.out[after:] if line.startswith(prefix))

    def bestmoves(self) -> list[str]:
        assert self.server.wait(WAIT_S)
        return [line for line in self.out if line.startswith("bestmove")]


def depths(lines: list[str]) -> list[int]:
    return [int(line.split()[2]) for line in lines if line.startswith("info depth")]


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_go_infinite_at_every_level_reports_and_stops(level: int) -> None:
    talk = Talk()
    talk.say(f"setoption name Skill Level value {level}", f"position fen {MIDDLEGAME}",
             "go infinite")
    info = talk.await_line("info depth")
    assert all(f" {word} " in info for word in ("score", "nodes", "time", "pv"))
    assert talk.server.searching  # infinite: no bestmove before stop
    talk.say("stop")
    assert len(talk.bestmoves()) == 1
    mark = len(talk.out)
    talk.say("go depth 1")
    talk.await_line("bestmove", mark)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_go_depth_at_every_level(level: int) -> None:
    talk = Talk()
    talk.say(f"setoption name Skill Level value {level}", f"position fen {MIDDLEGAME}",
             "go depth 3")
    assert len(talk.bestmoves()) == 1
    assert max(depths(talk.out)) == 3  # the GUI's depth, whatever the level's own cap


@pytest.mark.parametrize("level", [MIN_LEVEL, 7])
def test_a_game_clock_keeps_the_level_caps(level: int) -> None:
    talk = Talk()
    talk.say(f"setoption name Skill Level value {level}", "setoption name OwnBook value false",
             f"position fen {MIDDLEGAME}", "go wtime 600000 btime 600000")  # not a book move
    assert len(talk.bestmoves()) == 1
    cap = LEVELS[level].depth
    assert cap is not None and max(depths(talk.out)) <= cap


def test_go_depth_n_reaches_n() -> None:
    for n in (1, 4, 5):
        talk = Talk()
        talk.say(f"position fen {MIDDLEGAME}", f"go depth {n}")
        talk.bestmoves()
        assert depths(talk.out) == list(range(1, n + 1))


def test_go_nodes_spends_the_nodes_and_no_more() -> None:
    talk = Talk()
    talk.say(f"position fen {MIDDLEGAME}", "go nodes 4000")
    talk.bestmoves()
    reported = [int(line.split("nodes ")[1].split()[0]) for line in talk.out
                if line.startswith("info ") and "nodes " in line]
    assert reported and max(reported) <= 4000
    assert talk.server.engine.searcher.nodes == 4000  # stopped by the limit, exactly
    assert talk.out[-2].startswith("info nodes 4000 ")  # the total, before bestmove


def test_searcher_node_limit_exact() -> None:
    talk = Talk()
    talk.say(f"position fen {MIDDLEGAME}")
    searcher = Searcher()
    result = searcher.search(talk.server.position, Limits(nodes=2500))  # no depth limit
    assert result.move is not None and searcher.nodes == 2500


def test_go_movetime_with_a_ticking_clock() -> None:
    clock = TickingTime(step=10)
    talk = Talk(clock)
    talk.say("setoption name Move Overhead value 30", "setoption name OwnBook value false",
             f"position fen {MIDDLEGAME}", "go movetime 400")  # a search, not a book move
    assert len(talk.bestmoves()) == 1
    elapsed = talk.server.engine.searcher.elapsed_ms()
    assert 370 // 2 <= elapsed <= 370 + 2 * clock.step


@pytest.mark.parametrize(("command", "turn_moves", "remaining", "inc", "togo"), [
    ("go wtime 20000 btime 900000 winc 500 binc 0", "", 20000, 500, None),
    ("go wtime 900000 btime 12000 winc 0 binc 0 movestogo 8", " moves e2e4", 12000, 0, 8),
])
def test_go_clock_times_with_a_ticking_clock(
    command: str, turn_moves: str, remaining: int, inc: int, togo: int | None
) -> None:
    clock = TickingTime(step=100)
    talk = Talk(clock)
    talk.say("setoption name Move Overhead value 30", "setoption name OwnBook value false",
             f"position startpos{turn_moves}", command)  # a search, not a book move
    assert len(talk.bestmoves()) == 1
    mode = BonusMode.INCREMENT if inc else BonusMode.NONE
    expected = budget(remaining, mode, inc, togo, 30)
    elapsed = talk.server.engine.searcher.elapsed_ms()
    assert expected.target // 2 <= elapsed <= expected.maximum + 2 * clock.step


def test_go_ponder_then_ponderhit_searches_on_the_clock() -> None:
    talk = Talk()
    talk.say("setoption name OwnBook value false",  # a search, not a book move
             "position startpos moves e2e4 e7e5", "go ponder wtime 2000 btime 2000")
    talk.await_line("info depth")
    assert talk.server.searching and not any(
        line.startswith("bestmove") for line in talk.out)  # pondering waits for the GUI
    mark = len(talk.out)
    talk.say("ponderhit")
    talk.await_line("bestmove", mark)
    assert len(talk.bestmoves()) == 1
    assert not talk.server.searching


def test_go_ponder_then_stop_answers_at_once_and_go_works_after() -> None:
    talk = Talk()
    talk.say("setoption name OwnBook value false",  # a search, not a book move
             "position startpos", "go ponder wtime 60000 btime 60000")
    talk.await_line("info depth")
    talk.say("stop")
    assert len(talk.bestmoves()) == 1
    talk.say("ponderhit")  # too late: refused, nothing blocks
    assert talk.out[-1].startswith("info string error: ponderhit")
    mark = len(talk.out)
    talk.say("go depth 2")
    assert talk.await_line("bestmove", mark)


def test_multipv_lines_at_a_weak_level() -> None:
    talk = Talk()
    talk.say("setoption name Skill Level value 2", "setoption name MultiPV value 3",
             f"position fen {MIDDLEGAME}", "go depth 1")
    talk.bestmoves()
    infos = [line for line in talk.out if line.startswith("info depth")]
    assert [line.split()[4] for line in infos] == ["1", "2", "3"]
    assert len({line.split(" pv ")[1].split()[0] for line in infos}) == 3

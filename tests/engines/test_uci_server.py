"""UCI conversations with the server, fed line by line without a subprocess."""

from __future__ import annotations

import subprocess
import sys

import pytest

from chessarbiter.core.position import Position
from chessarbiter.engines.uci_server import UciServer


class Conversation:
    """A server with its output collected; ``say`` feeds lines, ``done`` waits for the
    search thread."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.server = UciServer(self.out.append)

    def say(self, *lines: str) -> list[str]:
        start = len(self.out)
        for line in lines:
            assert self.server.handle(line)
        return self.out[start:]

    def done(self) -> list[str]:
        assert self.server.wait(timeout=30)
        return self.out

    def bestmove(self) -> str:
        lines = [line for line in self.done() if line.startswith("bestmove")]
        assert len(lines) == 1
        return lines[0].split()[1]


@pytest.fixture
def talk() -> Conversation:
    return Conversation()


def test_handshake(talk: Conversation) -> None:
    out = talk.say("uci")
    assert out[0] == "id name chessarbiter"
    assert out[-1] == "uciok"
    assert "option name Skill Level type spin default 10 min 1 max 10" in out
    assert talk.say("isready") == ["readyok"]


def test_go_depth_gives_info_and_a_legal_bestmove(talk: Conversation) -> None:
    talk.say("ucinewgame", "position startpos moves e2e4 e7e5", "go depth 3")
    best = talk.bestmove()
    pos = Position()
    pos.push_uci("e2e4")
    pos.push_uci("e7e5")
    pos.parse_uci(best)
    infos = [line for line in talk.out if line.startswith("info depth")]
    assert [line.split()[2] for line in infos] == ["1", "2", "3"]
    assert all(" score cp " in line and " nodes " in line and " pv " in line for line in infos)


def test_a_mate_is_reported_as_such(talk: Conversation) -> None:
    talk.say("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go depth 2")
    assert talk.bestmove() == "d1d8"
    assert any(" score mate 1 " in line for line in talk.out)


def test_go_with_clock_times_and_nodes(talk: Conversation) -> None:
    talk.say("position startpos", "go wtime 3000 btime 3000 winc 100 binc 100 nodes 500")
    Position().parse_uci(talk.bestmove())


def test_go_infinite_waits_for_stop(talk: Conversation) -> None:
    talk.say("position startpos", "go infinite")
    assert talk.say("isready") == ["readyok"]
    assert talk.server.searching
    talk.say("stop")
    Position().parse_uci(talk.bestmove())


def test_quit_stops_the_search(talk: Conversation) -> None:
    talk.say("position startpos", "go infinite")
    assert not talk.server.handle("quit")
    assert not talk.server.searching
    assert sum(line.startswith("bestmove") for line in talk.out) == 1


def test_skill_level_option(talk: Conversation) -> None:
    assert talk.say("setoption name Skill Level value 2") == []
    assert talk.server.engine.level == 2
    talk.say("position startpos", "go depth 2")
    Position().parse_uci(talk.bestmove())


def test_chess960_castling_notation(talk: Conversation) -> None:
    talk.say("setoption name UCI_Chess960 value true",
             "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1h1 e8d8")
    assert talk.server.position.fen().startswith("3k4/8/8/8/8/8/8/5RK1 w")


def test_repetitions_in_the_game_are_known_to_the_search(talk: Conversation) -> None:
    talk.say("position startpos moves g1f3 g8f6 f3g1 f6g8")
    assert talk.server.history[0] == talk.server.position.key()


def test_no_legal_move_gives_a_null_bestmove(talk: Conversation) -> None:
    talk.say("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go depth 2")
    assert talk.bestmove() == "0000"


@pytest.mark.parametrize(("line", "complaint"), [
    ("hello", "unknown command 'hello'"),
    ("position", "expected 'startpos' or 'fen"),
    ("position fen rubbish", "position: "),
    ("position startpos moves e2e5", "move 'e2e5'"),
    ("position startpos moves zz", "move 'zz'"),
    ("position startpos e2e4", "unexpected 'e2e4'"),
    ("position fen 4k3/8/8/8/8/8/8/r3K3 b - - 0 1", "not to move is in check"),
    ("go depth", "depth needs a number"),
    ("go depth x", "expected an integer"),
    ("go depth 0", "expected at least 1"),
    ("go searchmoves e2e4", "unsupported parameter 'searchmoves'"),
    ("setoption name Skill Level value 11", "expected 1 to 10"),
    ("setoption name Skill Level value high", "expected an integer"),
    ("setoption name Colour value blue", "unknown option 'colour'"),
    ("setoption Skill Level 3", "expected 'setoption name"),
    ("setoption name UCI_Chess960 value maybe", "expected true or false"),
    ("debug sometimes", "expected 'on' or 'off'"),
    ("ponderhit", "no `go ponder`"),
])
def test_malformed_commands_are_reported_and_ignored(
    talk: Conversation, line: str, complaint: str
) -> None:
    talk.say("position startpos moves e2e4")
    out = talk.say(line)
    assert len(out) == 1
    assert out[0].startswith("info string error: ")
    assert complaint in out[0]
    assert talk.server.position.fen().startswith("rnbqkbnr/pppppppp/8/8/4P3")  # unchanged
    assert talk.server.engine.level == 10
    assert talk.say("isready") == ["readyok"]


def test_commands_needing_an_idle_engine_wait_for_stop(talk: Conversation) -> None:
    talk.say("position startpos", "go infinite")
    out = talk.say("go depth 1", "setoption name Skill Level value 3", "ucinewgame")
    assert len(out) == 3 and all("not allowed while searching" in line for line in out)
    talk.say("stop")
    talk.done()


def test_blank_lines_are_ignored(talk: Conversation) -> None:
    assert talk.say("", "   ") == []


def test_the_uci_command_in_a_subprocess() -> None:
    script = "uci\nisready\nposition startpos moves e2e4\ngo depth 2\n"
    done = subprocess.run(
        [sys.executable, "-m", "chessarbiter.cli.main", "uci"],
        input=script + "isready\n", capture_output=True, text=True, timeout=60,
    )
    # at the end of input the engine stops any search, answers, and exits
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert "uciok" in lines and "readyok" in lines
    best = [line for line in lines if line.startswith("bestmove")]
    assert len(best) == 1
    pos = Position()
    pos.push_uci("e2e4")
    pos.parse_uci(best[0].split()[1])


def test_a_failing_search_still_answers(
    talk: Conversation, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(talk.server.engine, "choose", broken)
    talk.say("position startpos", "go depth 2")
    Position().parse_uci(talk.bestmove())
    assert any("search failed" in line and "bug" in line for line in talk.out)


@pytest.mark.parametrize(("fen", "score"), [
    ("3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1", "score mate 0"),  # mated
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "score cp 0"),  # stalemated
])
def test_no_legal_move_is_scored_before_bestmove_0000(fen: str, score: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chessarbiter.cli.main", "uci"],
        input=f"uci\nposition fen {fen}\ngo depth 5\n", capture_output=True, text=True,
        timeout=60,
    )
    lines = done.stdout.splitlines()
    assert lines[-1] == "bestmove 0000"
    scored = [line for line in lines if line.startswith("info depth")]
    assert len(scored) == 1 and scored[0].startswith("info depth 0 ")
    assert f" {score} " in scored[0]
    summary = [line for line in lines if line.startswith("info nodes")]
    assert len(summary) == 1 and 0 <= int(summary[0].split(" time ")[1]) < 1_000, summary


def test_a_mate_in_one_at_depth_eight_is_answered_once_proven(talk: Conversation) -> None:
    talk.say("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "go depth 8")
    assert talk.bestmove() == "d1d8"
    depths = [int(line.split()[2]) for line in talk.out if line.startswith("info depth")]
    assert max(depths) <= 3


@pytest.mark.parametrize(("fen", "moves"), [
    ("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2),
    ("2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3),
])
def test_a_mate_in_n_is_announced_by_the_uci_command_within_its_depth(
    fen: str, moves: int
) -> None:
    """A GUI's view: ``go depth 2N-1`` on a mate in N, the ``uci`` command in its own process
    announces ``score mate N`` by that depth and plays the line's first move."""
    proc = subprocess.Popen([sys.executable, "-m", "chessarbiter.cli.main", "uci"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"uci\nposition fen {fen}\ngo depth {2 * moves - 1}\n")
    proc.stdin.flush()
    lines = []
    for line in proc.stdout:
        lines.append(line.strip())
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0
    scored = [line.split() for line in lines if line.startswith("info depth")]
    mates = [words for words in scored if words[words.index("score") + 1] == "mate"]
    assert mates and all(int(w[2]) <= 2 * moves - 1 for w in mates)
    assert mates[-1][mates[-1].index("mate") + 1] == str(moves)
    assert lines[-1].split()[1] == mates[-1][mates[-1].index("pv") + 1]

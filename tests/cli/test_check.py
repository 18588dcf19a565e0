"""``chessarbiter check``: the arbiter's audit against pgn-extract's selections and the Laws."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chessarbiter.arbiter.audit import Audit, audit_game
from chessarbiter.arbiter.oracles import dead_position_check
from chessarbiter.cli.main import main
from chessarbiter.core import parse_fen
from chessarbiter.notation import read_pgn_file, read_pgn_text
from tests.corpus import corpus_path

EXTRACT = ("pgn", "pgn-extract")


def audits(*parts: str) -> list[Audit]:
    return [audit_game(game) for game in read_pgn_file(corpus_path(*parts))]


def codes(audit: Audit) -> set[str]:
    return {f.code for f in audit.findings}


def players(audit: Audit) -> tuple[str, str, str]:
    tags = audit.game.tags
    return tags.get("White", ""), tags.get("Black", ""), tags.get("Round", "")


def run_json(paths: list[Path], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    code = main(["check", "--json", *map(str, paths)])
    return code, json.loads(capsys.readouterr().out)


def test_wrong_results_match_pgn_extract_corrections() -> None:
    """Every game of test-fixresulttags-in ends in mate or stalemate under a wrong Result;
    the result the audit names is the one pgn-extract writes when fixing the tags."""
    found = audits(*EXTRACT, "test-fixresulttags-in.pgn")
    fixed = list(read_pgn_file(corpus_path(*EXTRACT, "expected_out",
                                           "test-fixresulttags-out.pgn")))
    assert len(found) == len(fixed) == 5
    for audit, corrected in zip(found, fixed, strict=True):
        assert audit.ending in ("checkmate", "stalemate")
        error, = audit.errors
        assert error.code == "result"
        expected = corrected.tags["Result"]
        assert (f"result is {expected}" in error.message) == (audit.ending == "checkmate")


def test_threefold_matches_pgn_extract_and_the_laws() -> None:
    """pgn-extract --repetition selects 8 of 12 games; Capablanca-Lasker 1921 (game 5) has a
    threefold repetition under Art. 9.2.3 too, which pgn-extract misses because it counts an
    en passant square where no capture is possible (see the corpus README)."""
    found = audits(*EXTRACT, "test-repetition.pgn")
    selected = {players(a) for a in audits(*EXTRACT, "expected_out",
                                             "test-repetition-out.pgn")}
    assert len(selected) == 8
    repeated = {players(a) for a in found if "threefold" in codes(a)}
    extra = repeated - selected
    assert selected <= repeated
    assert [(w.split(",")[0], b.split(",")[0]) for w, b, _ in extra] == [("Capablanca",
                                                                         "Lasker")]


def test_fifty_move_games() -> None:
    found = audits(*EXTRACT, "test-fifty.pgn")
    assert len(found) == 2
    assert all({"fifty-moves", "fifty-moves-move"} <= codes(a) for a in found)
    assert not any(a.errors for a in found)


def test_mate_and_stalemate_endings() -> None:
    mates = [a for a in audits(*EXTRACT, "test-checkmate.pgn") if a.ending == "checkmate"]
    selected = audits(*EXTRACT, "expected_out", "test-checkmate-out.pgn")
    assert [players(a) for a in mates] == [players(a) for a in selected]
    stalemates = [a for a in audits(*EXTRACT, "test-stalemate.pgn")
                  if a.ending == "stalemate"]
    assert [players(a) for a in stalemates] == [
        players(a) for a in audits(*EXTRACT, "expected_out", "test-stalemate-out.pgn")
    ]


def test_longest_possible_game_is_lawful() -> None:
    audit, = audits("pgn", "pgn-read", "FIDE_longest_possible_game.pgn")
    assert audit.plies == 11790 and audit.ending == "dead position" and not audit.errors


def test_dead_position_test_is_sound() -> None:
    """Every position the simple test calls dead is insufficient material in the corpus, and
    it finds the plain cases (K v K, K+minor v K, bishops of one colour)."""
    path = corpus_path("status", "status_cases.jsonl")
    seen = 0
    for line in path.read_text().splitlines():
        case = json.loads(line)
        if "insufficient_material" not in case:
            continue
        dead = dead_position_check(parse_fen(case["fen"], lenient=True)) is not None
        assert not dead or case["insufficient_material"], case["id"]
        seen += dead
    assert seen >= 6
    for fen in ("8/8/8/8/8/8/8/k6K w - - 0 1", "8/2N5/8/8/8/8/8/k6K w - - 0 1",
                "8/8/8/2b5/8/8/3B4/k6K w - - 0 1"):
        assert dead_position_check(parse_fen(fen)) is not None


def test_play_after_fivefold_and_75_moves() -> None:
    dance = "Nf3 Nf6 Ng1 Ng8 " * 4 + "e4"
    audit = audit_game(read_pgn_text(f'[Result "1-0"]\n\n{dance} 1-0')[0])
    assert audit.ending == "fivefold repetition"
    assert {"after-end", "result", "threefold"} <= codes(audit)
    after = next(f for f in audit.findings if f.code == "after-end")
    assert after.move == "9.e4" and after.ply == 17
    fen = "4k3/8/8/8/8/8/8/R3K3 w - - 148 100"
    game = read_pgn_text(f'[FEN "{fen}"]\n[Result "1/2-1/2"]\n\n100. Ra2 Kd8 Ra3 1/2-1/2')[0]
    audit = audit_game(game)
    assert audit.ending == "75-move rule" and not audit.errors
    void, = (f for f in audit.findings if f.code == "void-moves")
    assert void.severity == "note" and void.move == "101.Ra3" and "1/2-1/2 stands" in void.message


def test_void_moves_after_a_dead_position() -> None:
    """Broadcasts often record one more king move after K v K: void when the result is the
    draw the dead position gave, an error when the result claims a win."""
    fen = "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"
    for result, code, severity in (("1/2-1/2", "void-moves", "note"),
                                   ("0-1", "after-end", "error")):
        game = read_pgn_text(f'[FEN "{fen}"]\n[Result "{result}"]\n\n'
                             f'1. Kxd2 Kd7 2. Kd3 {result}')[0]
        audit = audit_game(game)
        assert audit.ending == "dead position" and audit.plies == 3
        found, = (f for f in audit.findings if f.code == code)
        assert found.severity == severity and found.ply == 2 and found.move == "1...Kd7"
        assert bool(audit.errors) == (severity == "error")


def test_moves_after_mate_and_illegal_moves() -> None:
    audit = audit_game(read_pgn_text("1. f3 e5 2. g4 Qh4# 3. a3 1-0")[0])
    error, result = audit.errors
    assert error.code == "after-end" and "checkmate" in error.message
    assert error.move == "3.a3"
    assert result.code == "result" and "White is checkmated: the result is 0-1" in result.message
    audit = audit_game(read_pgn_text("1. f3 e5 2. g4 Qh4# 3. a3 0-1")[0])
    assert not audit.errors
    assert [(f.code, f.move) for f in audit.findings if f.severity == "note"] == [
        ("void-moves", "3.a3")]
    audit = audit_game(read_pgn_text("1. e4 Qa1 1/2-1/2")[0])
    error, = audit.errors
    assert error.code == "illegal" and error.move == "1...Qa1" and error.ply == 2


def test_time_forfeit_against_a_bare_king_is_a_draw() -> None:
    text = ('[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[Result "0-1"]\n'
            '[Termination "Time forfeit"]\n\n1. e3 0-1')
    audit = audit_game(read_pgn_text(text)[0])
    assert [f.code for f in audit.errors] == ["result"] and "Art. 6.9" in audit.errors[0].message


def test_clock_readings_against_the_time_control() -> None:
    clean, = audits("clock", "scalachess_allSortOfClocks.pgn")
    assert "clock" not in codes(clean) and clean.plies == 75
    text = ('[TimeControl "60+1"]\n\n1. e4 {[%clk 0:01:00]} e5 {[%clk 0:01:01]} '
            '2. Nf3 {[%clk 0:00:58]} Nc6 {[%clk 0:01:30]} *')
    audit = audit_game(read_pgn_text(text)[0])
    clock = [f for f in audit.findings if f.code == "clock"]
    assert len(clock) == 1 and clock[0].move == "2...Nc6" and clock[0].severity == "warning"
    assert not audit.errors


def test_clean_real_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = run_json([corpus_path("pgn", "large", "lichess_2017-05_sample_clk.pgn")],
                            capsys)
    assert code == 0
    assert report["summary"]["games"] == 298 == len(report["games"])
    assert report["summary"]["games_with_errors"] == 0
    assert report["summary"]["games_with_warnings"] == 0
    first = report["games"][0]
    assert first["tags"]["White"] == "thibault" and first["ok"] and first["plies"] == 8


def test_json_and_exit_code_on_broken_games(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    path = tmp_path / "games.pgn"
    path.write_text('[Event "A"]\n\n1. e4 Qa1 *\n\n[Event "B"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n')
    code, report = run_json([path], capsys)
    assert code == 1
    assert [g["ok"] for g in report["games"]] == [False, False]
    assert report["games"][0]["findings"][0]["move"] == "1...Qa1"
    assert report["games"][1]["ending"] == "checkmate"
    assert report["summary"]["findings"]["illegal"] == 1
    assert report["summary"]["findings"]["result"] == 1


def test_text_output_and_missing_file(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    path = tmp_path / "one.pgn"
    path.write_text('[White "A"]\n[Black "B"]\n[Result "1/2-1/2"]\n\n1. e4 e5 1/2-1/2\n')
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "A - B: 1/2-1/2 (2 plies) ok" in out and "1 games in 1 files" in out
    assert main(["check", str(tmp_path / "missing.pgn")]) == 2  # a bad path: bad input
    assert "cannot read" in capsys.readouterr().err


def test_dead_position_behind_a_locked_pawn_wall() -> None:
    """With every pawn locked the quick analysis is asked, and proves the wall closed by
    1. h4 dead; with a pawn still free it is not asked (and the position is not dead)."""
    fen = "7k/8/8/1p1p1p1p/pPpPpPp1/P1P1P1PP/8/K7 w - - 0 1"
    game = read_pgn_text(f'[FEN "{fen}"]\n[Result "1/2-1/2"]\n\n1. h4 Kg7 2. Kb2 1/2-1/2')[0]
    audit = audit_game(game)
    assert audit.ending == "dead position" and not audit.errors
    assert [(f.code, f.move) for f in audit.findings] == [("void-moves", "1...Kg7")]
    assert dead_position_check(parse_fen(fen)) is None

"""The audit of recorded games (``arbiter.audit``) ends a game where the arbiter would: the
same automatic endings, in the same order, under the profile it is given."""

from __future__ import annotations

import pytest

from chessarbiter.arbiter import Game, Moved
from chessarbiter.arbiter.audit import audit_game
from chessarbiter.laws.endings import Termination
from chessarbiter.laws.profiles import FIDE_2000, FIDE_2023, USCF, RuleProfile
from chessarbiter.notation import read_pgn_file, read_pgn_text
from chessarbiter.notation.game import RecordedGame
from tests.corpus import corpus_path

DANCE = '[Result "1/2-1/2"]\n\n' + "Nf3 Nf6 Ng1 Ng8 " * 5 + "e4 1/2-1/2"
"""A fivefold repetition, then one more move."""
SEVENTY_FIVE = ('[FEN "4k3/8/8/8/8/8/8/R3K3 w - - 148 100"]\n[Result "1/2-1/2"]\n\n'
                "100. Ra2 Kd8 Ra3 1/2-1/2")
"""The 75-move rule on the second move, then one more move."""


def arbiter_end(game: RecordedGame, profile: RuleProfile) -> tuple[Termination | None, int]:
    """How the arbiter ends the recorded moves, and after how many of them."""
    arbiter = Game(profile, fen=game.start_fen, chess960=game.chess960)
    pos = game.start_position()
    for ply, record in enumerate(game.moves):
        if arbiter.outcome is not None:
            return arbiter.outcome.termination, ply
        arbiter.apply(Moved(0, pos.turn, pos.uci(record.move)))
        pos.push(record.move)
    return (arbiter.outcome.termination if arbiter.outcome else None), len(game.moves)


def games() -> list[RecordedGame]:
    found = read_pgn_text(DANCE) + read_pgn_text(SEVENTY_FIVE)
    for folder, name in (("pgn-extract", "test-repetition.pgn"), ("pgn-extract", "fischer.pgn"),
                         ("pgn-read", "FIDE_longest_possible_game.pgn")):
        found += read_pgn_file(corpus_path("pgn", folder, name))
    return [game for game in found if game.error is None]


@pytest.mark.parametrize("profile", [FIDE_2023, FIDE_2000, USCF], ids=lambda p: p.name)
def test_the_audit_ends_each_game_where_the_arbiter_does(profile: RuleProfile) -> None:
    ended = set()
    for game in games():
        termination, plies = arbiter_end(game, profile)
        audit = audit_game(game, profile)
        assert (audit.end.termination if audit.end else None) is termination, game.tags
        if termination is not None and plies < len(game.moves):
            late = next(f for f in audit.findings if f.code in ("void-moves", "after-end"))
            assert late.ply == plies + 1, game.tags
        ended.add(termination)
    expected = {Termination.FIVEFOLD_REPETITION, Termination.SEVENTY_FIVE_MOVES}
    assert expected <= ended if profile is FIDE_2023 else not ended & expected


def test_without_automatic_endings_play_goes_on() -> None:
    """Under the 2000 rules fivefold repetition and 75 moves end nothing (S9): the moves
    after them are not void."""
    for text in (DANCE, SEVENTY_FIVE):
        game = read_pgn_text(text)[0]
        assert audit_game(game, FIDE_2023).ending
        audit = audit_game(game, FIDE_2000)
        assert audit.end is None and audit.ending == ""
        assert not {"void-moves", "after-end"} & {f.code for f in audit.findings}

"""Notation and the scoresheet (Laws Art. 8, Appendix E): SAN in and out, PGN reading and
writing, and the recorded-game model.

Quick tour::

    from chessarbiter.notation import parse_san, write_san, read_pgn_file, write_pgn
    move = parse_san(pos, "Nf3")               # lenient; strict=True for the standard only
    write_san(pos, move)                       # 'Nf3', with + or # when it checks or mates
    for game in read_pgn_file("games.pgn"):    # RecordedGame values, game.error if broken
        print(game.tags["White"], len(game.moves), game.result)
    text = write_pgn(game)                     # export format; reads back to the same game
"""

from chessarbiter.notation.game import (
    RESULTS,
    SEVEN_TAG_ROSTER,
    PgnError,
    RecordedGame,
    RecordedMove,
)
from chessarbiter.notation.letters import (
    DUTCH,
    ENGLISH,
    FIGURINES,
    FRENCH,
    GERMAN,
    LANGUAGES,
    SPANISH,
    PieceLetters,
)
from chessarbiter.notation.pgn_reader import Limits, read_pgn, read_pgn_file, read_pgn_text
from chessarbiter.notation.pgn_writer import write_pgn, write_pgn_games
from chessarbiter.notation.san import SanReader, legal_san, parse_san, push_san, write_san

__all__ = [
    "DUTCH",
    "ENGLISH",
    "FIGURINES",
    "FRENCH",
    "GERMAN",
    "LANGUAGES",
    "RESULTS",
    "SEVEN_TAG_ROSTER",
    "SPANISH",
    "Limits",
    "PgnError",
    "PieceLetters",
    "RecordedGame",
    "RecordedMove",
    "SanReader",
    "legal_san",
    "parse_san",
    "push_san",
    "read_pgn",
    "read_pgn_file",
    "read_pgn_text",
    "write_pgn",
    "write_pgn_games",
    "write_san",
]

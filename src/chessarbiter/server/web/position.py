"""What the browser board shows of a game's moves, computed by the project's own rules and
words so the page holds no chess logic: the legal moves (hints), the moves in SAN (Art. 8.1,
Appendix C) and in words for a screen reader, and the board read aloud by rank, file and side.
"""

from __future__ import annotations

from typing import Any, Final

from chessarbiter.core.errors import ChessError
from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.core.squares import COLOUR_NAMES, FILE_NAMES
from chessarbiter.notation.san import write_san
from chessarbiter.present.moves import move_words
from chessarbiter.present.spoken import spoken_file, spoken_pieces, spoken_rank
from chessarbiter.session.live import read_move as read_typed

MAX_PLIES: Final = 12_000
"""The longest game replayed on request: longer than any game the 75-move rule (Art. 9.6.2)
lets be played (5,949 moves)."""


class MovesError(ChessError):
    """A game's moves that cannot be replayed: names the move and why."""


def replay(
    initial_fen: str, moves: str, chess960: bool = False
) -> tuple[Position, list[str], list[str]]:
    """The position after the UCI ``moves`` (space-separated) from ``initial_fen``
    (``startpos`` or empty for the initial position), with each move in SAN and in words."""
    fen = STARTING_FEN if initial_fen in ("", "startpos") else initial_fen
    pos = Position(fen, chess960=chess960)
    plies = moves.split()
    if len(plies) > MAX_PLIES:
        raise MovesError(f"moves: {len(plies)}, more than {MAX_PLIES}")
    san: list[str] = []
    spoken: list[str] = []
    for ply, text in enumerate(plies, start=1):
        try:
            move = pos.parse_uci(text)
        except ChessError as exc:
            raise MovesError(f"moves: ply {ply} ({text}): {exc}") from None
        san.append(write_san(pos, move))
        spoken.append(move_words(pos, move, spoken=True))
        pos.push(move)
    return pos, san, spoken


def view(initial_fen: str, moves: str, chess960: bool = False) -> dict[str, Any]:
    """The board page's view of a game after ``moves``: FEN, side to move, legal moves in UCI
    (castling as the king takes its rook in Chess960), the moves in SAN and words, and the
    board read aloud."""
    pos, san, spoken = replay(initial_fen, moves, chess960)
    return {
        "fen": pos.fen(),
        "turn": COLOUR_NAMES[pos.turn],
        "check": pos.is_check(),
        "legal": [pos.uci(move) for move in pos.legal_moves()],
        "san": san,
        "spoken": spoken,
        "read": {
            "ranks": [spoken_rank(pos, rank) for rank in range(1, 9)],
            "files": [spoken_file(pos, file) for file in FILE_NAMES],
            "white": spoken_pieces(pos, 0),
            "black": spoken_pieces(pos, 1),
        },
    }


def read_move(initial_fen: str, moves: str, text: str, chess960: bool = False) -> str:
    """A move typed by a player (SAN, long algebraic or UCI) read after ``moves``, in UCI;
    a :class:`ChessError` saying why not. A lower-case piece letter other than ``b`` (a
    pawn's file) is read as the piece: ``nf3`` is ``Nf3``."""
    pos, _, _ = replay(initial_fen, moves, chess960)
    text = text.strip()
    try:
        return pos.uci(read_typed(pos, text))
    except ChessError:
        if text[:1] not in ("n", "r", "q", "k"):
            raise
        return pos.uci(read_typed(pos, text[0].upper() + text[1:]))

"""Moves for people: one move as the scoresheet writes it or in words, and the numbered
move list of a game (Laws Art. 8.1: moves in algebraic notation, Appendix C)."""

from __future__ import annotations

from chessarbiter.core.position import Position
from chessarbiter.notation.san import write_san
from chessarbiter.present.spoken import spoken_move


def move_words(pos: Position, move: int, *, spoken: bool) -> str:
    """A move as the scoresheet writes it (``12... Nf6+``) or in words (``black: knight f6,
    check``); ``pos`` is the position before it."""
    side = pos.turn
    if spoken:
        return f"{('white', 'black')[side]}: {spoken_move(pos, move)}"
    number = f"{pos.fullmove_number}." if side == 0 else f"{pos.fullmove_number}..."
    return f"{number} {write_san(pos, move)}"


def move_list(pos: Position, last: int = 12) -> str:
    """The moves that led to ``pos`` in SAN, numbered, one move pair a line (the ``last``
    pairs). ``pos`` is left unchanged."""
    moves = pos.move_stack
    for _ in moves:
        pos.pop()
    pairs: list[str] = []
    for move in moves:
        san = write_san(pos, move)
        if pos.turn == 0:
            pairs.append(f"{pos.fullmove_number}. {san}")
        elif not pairs:
            pairs.append(f"{pos.fullmove_number}... {san}")
        else:
            pairs[-1] += f" {san}"
        pos.push(move)
    return "\n".join(pairs[-max(last, 1):])

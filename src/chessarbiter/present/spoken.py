"""Moves and boards in words, for players who cannot see the board (the US Blind Chess
Association's rules: moves are announced aloud; a player may ask for the position).

Nothing here relies on colour, layout or symbols a screen reader cannot speak.
"""

from __future__ import annotations

from chessarbiter.core.moves import is_castle, king_destination
from chessarbiter.core.position import Position
from chessarbiter.core.squares import COLOUR_NAMES, FILE_NAMES, PAWN, PIECE_NAMES, SQUARE_NAMES


def spoken_move(pos: Position, move: int) -> str:
    """The legal ``move`` of ``pos`` announced in words, e.g. ``knight f3, check``; a
    capture names what is taken and a pawn its file: ``e-pawn takes bishop on d5``.

    ``pos`` is the position before the move; it is left unchanged.
    """
    fr, to, promo = move & 63, (move >> 6) & 63, (move >> 12) & 7
    piece = pos.board[fr] & 7
    if is_castle(move):
        words = "castles king side" if king_destination(move) > fr else "castles queen side"
    else:
        en_passant = piece == PAWN and to == pos.ep_square
        capture = bool(pos.board[to]) or en_passant
        name = PIECE_NAMES[piece]
        if not capture:
            words = f"{name} {SQUARE_NAMES[to]}"
        else:
            mover = f"{FILE_NAMES[fr & 7]}-pawn" if piece == PAWN else name
            taken = PIECE_NAMES[PAWN if en_passant else pos.board[to] & 7]
            passant = " en passant" if en_passant else ""
            words = f"{mover} takes {taken}{passant} on {SQUARE_NAMES[to]}"
        if promo:
            words += f", promotes to {PIECE_NAMES[promo]}"
    pos.push(move)
    try:
        if pos.is_checkmate():
            words += ", checkmate"
        elif pos.is_check():
            words += ", check"
        elif pos.is_stalemate():
            words += ", stalemate"
    finally:
        pos.pop()
    return words


def _piece_words(piece: int) -> str:
    return f"{COLOUR_NAMES[piece >> 3]} {PIECE_NAMES[piece & 7]}"


def _read_line(pos: Position, squares: list[int]) -> str:
    parts: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            names = SQUARE_NAMES[run[0]] if len(run) == 1 else (
                f"{SQUARE_NAMES[run[0]]} to {SQUARE_NAMES[run[-1]]}"
            )
            parts.append(f"{names} empty")
            run.clear()

    for sq in squares:
        piece = pos.board[sq]
        if piece:
            flush()
            parts.append(f"{SQUARE_NAMES[sq]} {_piece_words(piece)}")
        else:
            run.append(sq)
    flush()
    return ", ".join(parts)


def spoken_rank(pos: Position, rank: int) -> str:
    """A rank (1-8) read from the a-file to the h-file."""
    if not 1 <= rank <= 8:
        raise ValueError(f"no rank {rank}: ranks are 1 to 8")
    return f"rank {rank}: " + _read_line(pos, [(rank - 1) * 8 + f for f in range(8)])


def spoken_file(pos: Position, file: str) -> str:
    """A file (a-h) read from the first rank to the eighth."""
    if len(file) != 1 or file not in FILE_NAMES:
        raise ValueError(f"no file {file!r}: files are a to h")
    index = FILE_NAMES.index(file)
    return f"file {file}: " + _read_line(pos, [r * 8 + index for r in range(8)])


def spoken_pieces(pos: Position, colour: int) -> str:
    """Where a side's pieces stand, king first: ``white: king g1, queen d1, rooks a1 and f1``."""
    groups = []
    for kind in (6, 5, 4, 3, 2, 1):
        squares = [SQUARE_NAMES[sq] for sq in range(64) if pos.board[sq] == colour << 3 | kind]
        if squares:
            name = PIECE_NAMES[kind] + ("s" if len(squares) > 1 else "")
            listed = squares[0] if len(squares) == 1 else (
                ", ".join(squares[:-1]) + " and " + squares[-1]
            )
            groups.append(f"{name} {listed}")
    return f"{COLOUR_NAMES[colour]}: " + ", ".join(groups)

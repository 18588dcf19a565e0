"""The UCI protocol's text: reading ``position`` and ``go`` commands, writing ``info`` lines
and reading their scores.

Errors are :class:`UciError` with a message fit for an ``info string error: ...`` line.
"""

from __future__ import annotations

from dataclasses import dataclass

from chessarbiter.core.attacks import attackers
from chessarbiter.core.errors import ChessError
from chessarbiter.core.fen import parse_fen
from chessarbiter.core.moves import uci
from chessarbiter.core.position import STARTING_FEN, Position
from chessarbiter.engines.search import SearchInfo
from chessarbiter.engines.tt import MATE


class UciError(ValueError):
    """A malformed or unusable UCI command."""


@dataclass(frozen=True, slots=True)
class Go:
    """The parameters of a ``go`` command (times in milliseconds)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    mate: int | None = None
    infinite: bool = False
    ponder: bool = False


_GO_NUMBERS = {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime",
               "mate"}
_GO_MINIMUM = {"movestogo": 1, "depth": 1, "nodes": 1, "mate": 1}
_GO_FLAGS = {"infinite", "ponder"}


def parse_go(args: list[str]) -> Go:
    """The arguments of ``go``. Clock times may be negative (an overstepped clock) and are
    read as 0; counts must be positive."""
    values: dict[str, int | bool] = {}
    i = 0
    while i < len(args):
        word = args[i]
        if word in _GO_FLAGS:
            values[word] = True
            i += 1
        elif word in _GO_NUMBERS:
            if i + 1 >= len(args):
                raise UciError(f"go: {word} needs a number")
            try:
                number = int(args[i + 1])
            except ValueError:
                raise UciError(f"go: {word} {args[i + 1]!r}: expected an integer") from None
            if number < _GO_MINIMUM.get(word, -(1 << 62)):
                raise UciError(f"go: {word} {number}: expected at least {_GO_MINIMUM[word]}")
            values[word] = max(number, 0)
            i += 2
        else:
            raise UciError(f"go: unknown or unsupported parameter {word!r}")
    return Go(**values)  # type: ignore[arg-type]


def parse_position(args: list[str], chess960: bool = False) -> tuple[Position, list[int]]:
    """The arguments of ``position``: the position reached and the keys of those before it."""
    if not args or args[0] not in ("startpos", "fen"):
        raise UciError("position: expected 'startpos' or 'fen <FEN>'")
    moves_at = args.index("moves") if "moves" in args else len(args)
    if args[0] == "startpos":
        if moves_at != 1:
            raise UciError(f"position startpos: unexpected {' '.join(args[1:moves_at])!r}")
        fen = STARTING_FEN
    else:
        fen = " ".join(args[1:moves_at])
    try:
        pos = parse_fen(fen, chess960=chess960, lenient=True)
    except ChessError as exc:
        raise UciError(f"position: {exc}") from None
    them = pos.turn ^ 1
    if attackers(pos.pieces, pos.turn, pos.king(them), pos.occupied_co[0] | pos.occupied_co[1]):
        raise UciError("position: the side not to move is in check")
    keys = []
    for text in args[moves_at + 1:]:
        keys.append(pos.key())
        try:
            pos.push_uci(text)
        except ChessError as exc:
            raise UciError(f"position: move {text!r}: {exc}") from None
    return pos, keys


def format_info(info: SearchInfo, chess960: bool = False) -> str:
    """An ``info`` line for a finished iteration."""
    mate = info.mate_in
    score = f"mate {mate}" if mate is not None else f"cp {info.score}"
    nps = info.nodes * 1000 // info.time_ms if info.time_ms > 0 else 0
    line = (f"info depth {info.depth} multipv {info.multipv} score {score} "
            f"nodes {info.nodes} nps {nps} time {info.time_ms}")
    if info.pv:
        line += " pv " + " ".join(uci(m, chess960) for m in info.pv)
    return line


def mate_score(moves: int) -> int:
    """A UCI ``score mate`` value (moves to mate, negative when being mated) in centipawns:
    ``MATE`` less the moves, negated when being mated."""
    return MATE - abs(moves) if moves > 0 else -(MATE - abs(moves))


def read_score(info: str) -> int | None:
    """The score of an ``info`` line (``score cp 34``, ``score mate -3``) in centipawns, mates
    as :func:`mate_score` says; ``None`` without a readable score."""
    words = info.split()
    for i, word in enumerate(words[:-2]):
        if word == "score":
            kind, value = words[i + 1], words[i + 2]
            digits = value.removeprefix("-")
            if not (digits.isascii() and digits.isdigit() and len(digits) <= 9):
                return None
            if kind == "cp":
                return int(value)
            if kind == "mate":
                return mate_score(int(value))
    return None

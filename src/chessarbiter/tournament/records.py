"""A tournament's shared records: entrants, round cells with their TRF result codes, scoring
(FIDE C.04 and the TRF ``162`` record) and a round's pairing."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from chessarbiter.clock import Side


class Code(Enum):
    """A round cell's result, as TRF writes it."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    WIN_UNRATED = "W"
    DRAW_UNRATED = "D"
    LOSS_UNRATED = "L"
    FULL_BYE = "F"
    HALF_BYE = "H"
    PAIRING_BYE = "U"
    ZERO_BYE = "Z"
    NONE = " "
    """Not yet played, or absent without a recorded bye."""

    @property
    def played(self) -> bool:
        """A game was played over the board (forfeits and byes are not: C.04.1, C.04.2)."""
        return self in _PLAYED


_PLAYED = frozenset({Code.WIN, Code.DRAW, Code.LOSS,
                     Code.WIN_UNRATED, Code.DRAW_UNRATED, Code.LOSS_UNRATED})


@dataclass(frozen=True)
class Cell:
    """One player's round: the opponent's start number and the player's side (both ``None``
    when there was no game), and the result code."""

    opponent: int | None
    side: Side | None
    code: Code


@dataclass(frozen=True)
class Entrant:
    """A registered player, ``start`` being the pairing (starting rank) number."""

    start: int
    name: str
    rating: int = 0
    title: str = ""
    federation: str = ""
    fide_id: str = ""
    birth: str = ""
    sex: str = ""


@dataclass(frozen=True)
class Scoring:
    """Points for each result (C.04.1: the pairing-allocated bye scores as a win unless the
    regulations say otherwise; TRF ``162``)."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction | None = None
    """``None``: as ``win``."""
    forfeit_loss: Fraction = Fraction(0)
    full_bye: Fraction | None = None
    """``None``: as ``win``."""
    half_bye: Fraction | None = None
    """``None``: as ``draw``."""
    pairing_bye: Fraction | None = None
    """``None``: as ``win``."""
    zero_bye: Fraction = Fraction(0)
    absent: Fraction = Fraction(0)

    def points(self, code: Code) -> Fraction:
        """The points a cell with ``code`` scores."""
        if code in (Code.WIN, Code.WIN_UNRATED):
            return self.win
        if code in (Code.DRAW, Code.DRAW_UNRATED):
            return self.draw
        if code in (Code.LOSS, Code.LOSS_UNRATED):
            return self.loss
        if code is Code.FORFEIT_WIN:
            return self.win if self.forfeit_win is None else self.forfeit_win
        if code is Code.FORFEIT_LOSS:
            return self.forfeit_loss
        if code is Code.FULL_BYE:
            return self.win if self.full_bye is None else self.full_bye
        if code is Code.HALF_BYE:
            return self.draw if self.half_bye is None else self.half_bye
        if code is Code.PAIRING_BYE:
            return self.win if self.pairing_bye is None else self.pairing_bye
        if code is Code.ZERO_BYE:
            return self.zero_bye
        return self.absent


@dataclass(frozen=True)
class Pairing:
    """A round's pairing: ``boards`` as (white, black) start numbers in board order, and the
    player given the pairing-allocated bye, if any."""

    boards: tuple[tuple[int, int], ...]
    bye: int | None = None

"""Colour allocation for a pair (C.04.3 2026 art. 5.2 = 2017 E.1-E.5)."""

from __future__ import annotations

from chessarbiter.clock import Side
from chessarbiter.tournament.swiss.state import PlayerState, Strength


def allocate(higher: PlayerState, lower: PlayerState, higher_number: int,
             initial: Side) -> Side:
    """The colour of ``higher``, the higher ranked player of the pair; ``higher_number``
    is the pairing number that 5.2.5 / E.5 looks at (odd: the initial colour)."""
    hp, hs = higher.preference
    lp, ls = lower.preference
    if hp is not None and lp is not None and hp is not lp:  # E.1 both preferences
        return hp
    if hp is None and lp is not None:  # no preference: the opponent's is granted
        return lp.opponent
    if lp is None and hp is not None:
        return hp
    if hp is not None and lp is not None:
        if hs.value != ls.value:  # E.2 the stronger preference
            return hp if hs.value > ls.value else lp.opponent
        if hs is Strength.ABSOLUTE:  # both absolute (topscorers): the wider difference
            hd, ld = abs(higher.difference), abs(lower.difference)
            if hd != ld:
                return hp if hd > ld else lp.opponent
        alternated = _alternate(higher, lower)  # E.3
        if alternated is not None:
            return alternated
        return hp  # E.4 the higher ranked player's preference
    return initial if higher_number % 2 else initial.opponent  # E.5


def _alternate(higher: PlayerState, lower: PlayerState) -> Side | None:
    """E.3: alternate with respect to the most recent game in which the two had different
    colours (histories compared from the latest game back)."""
    for mine, theirs in zip(reversed(higher.colours), reversed(lower.colours), strict=False):
        if mine is not theirs:
            return theirs
    return None

"""The bracket step the Dutch and Burstein systems share: which players may meet (C.04.1 b:
not twice; f: not two players absolutely due the same colour), the scoregroups of players
in pairing order, and whether a group of players can all be paired with one another, one
more vertex standing for the bye or a floater coming in or going out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from chessarbiter.clock import Side
from chessarbiter.tournament.swiss.cardinality import leftover, perfect
from chessarbiter.tournament.swiss.state import PlayerState, Strength

Compatible = Callable[[int, int], bool]


def met(a: PlayerState, b: PlayerState) -> bool:
    """Whether the two have played each other over the board (C.04.1 b)."""
    return b.start in a.opponents


def absolute_colour(a: PlayerState) -> Side | None:
    """The colour the player is absolutely due, if any (C.04.1 f)."""
    colour, strength = a.preference
    return colour if strength is Strength.ABSOLUTE else None


def colour_clash(a: PlayerState, b: PlayerState) -> bool:
    """Whether both are absolutely due the same colour (C.04.1 f)."""
    colour = absolute_colour(a)
    return colour is not None and colour is absolute_colour(b)


def may_meet(a: PlayerState, b: PlayerState) -> bool:
    """C.04.1 b and f."""
    return not met(a, b) and not colour_clash(a, b)


def compatibility(states: Mapping[int, PlayerState]) -> Compatible:
    """``may_meet`` over start numbers, each player's opponents and absolute colour
    gathered once (the test runs for every pair of every group tried)."""
    opponents = {p: s.opponents for p, s in states.items()}
    absolute = {p: absolute_colour(s) for p, s in states.items()}

    def compatible(a: int, b: int) -> bool:
        if b in opponents[a]:
            return False
        colour = absolute[a]
        return colour is None or colour is not absolute[b]
    return compatible


def scoregroups(order: Sequence[int], score: Callable[[int], Fraction]) -> list[list[int]]:
    """The players, in pairing order, cut where the score changes."""
    groups: list[list[int]] = []
    for p in order:
        if groups and score(groups[-1][0]) == score(p):
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def graph(players: Sequence[int], compatible: Compatible,
          extra: Callable[[int], bool] | None = None) -> list[list[int]]:
    """The players' compatibility graph (vertices in their order) and, with ``extra``, one
    vertex more (the last) joined to the players it accepts."""
    n = len(players)
    adjacent: list[list[int]] = [[] for _ in range(n + (extra is not None))]
    for i in range(n):
        a = players[i]
        for j in range(i + 1, n):
            if compatible(a, players[j]):
                adjacent[i].append(j)
                adjacent[j].append(i)
        if extra is not None and extra(a):
            adjacent[i].append(n)
            adjacent[n].append(i)
    return adjacent


def pairable(players: Sequence[int], compatible: Compatible,
             extra: Callable[[int], bool] | None = None) -> bool:
    """Whether the players (with the extra vertex) can all be paired."""
    return perfect(graph(players, compatible, extra))


def left_over(players: Sequence[int], compatible: Compatible,
              extra: Callable[[int], bool] | None = None) -> set[int]:
    """The players (by index; the extra vertex is ``len(players)``) who can be the one left
    unpaired while all the others pair."""
    return leftover(graph(players, compatible, extra))

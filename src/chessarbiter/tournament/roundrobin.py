"""Round robin pairings: the FIDE Berger tables (C.05 Annex 1).

For ``n`` players (``n`` even; an odd number is made even by a bye, the highest number,
whose opponent sits out the round), players ``i`` and ``j`` below ``n`` meet in the round
``r`` with ``i + j ≡ r + 1 (mod n - 1)``; the player ``p`` with ``2p ≡ r + 1`` meets ``n``.
``n`` has Black in odd rounds and White in even ones; of two others, the lower number has
White when the numbers differ by an odd amount. Board 1 is ``n``'s game, then the pairs
``(p + m, p - m)`` for ``m = 1, 2, ...``, as the published tables list them. A double round
robin repeats the cycle with the colours reversed; as C.05 recommends, the last two rounds of
the first cycle are exchanged so that nobody plays the same colour three times running.
"""

from __future__ import annotations

from dataclasses import dataclass


class RoundRobinError(ValueError):
    """A round robin that cannot be built: names the argument and the reason."""


@dataclass(frozen=True)
class Round:
    """One round: the games as (white, black) start numbers in board order, and the player
    who sits out (the bye of an odd number of players), if any."""

    boards: tuple[tuple[int, int], ...]
    bye: int | None = None


def _wrap(value: int, modulus: int) -> int:
    """``value`` reduced into 1..modulus."""
    return (value - 1) % modulus + 1


def berger_round(players: int, round_no: int) -> Round:
    """Round ``round_no`` (from 1) of the Berger table for ``players`` players."""
    if players < 2:
        raise RoundRobinError(f"players {players}: a round robin needs at least 2")
    n = players + players % 2
    if not 1 <= round_no <= n - 1:
        raise RoundRobinError(f"round {round_no}: a round robin of {players} players has "
                              f"rounds 1-{n - 1}")
    modulus = n - 1
    host = next(p for p in range(1, n) if (2 * p - round_no - 1) % modulus == 0)
    first = (n, host) if round_no % 2 == 0 else (host, n)
    games = [first]
    for m in range(1, n // 2):
        a, b = _wrap(host + m, modulus), _wrap(host - m, modulus)
        low, high = min(a, b), max(a, b)
        games.append((low, high) if (high - low) % 2 == 1 else (high, low))
    bye = None
    if n != players:
        bye = host
        games = games[1:]
    return Round(tuple(games), bye)


def schedule(players: int, *, cycles: int = 1) -> tuple[Round, ...]:
    """Every round of a round robin of ``cycles`` cycles (1 single, 2 double): the later
    cycles with the colours reversed in turn; before a second cycle the last two rounds of
    the first are exchanged (C.05 Annex 1's recommendation)."""
    if cycles < 1:
        raise RoundRobinError(f"cycles {cycles}: at least 1")
    single = [berger_round(players, r) for r in range(1, players + players % 2)]
    if cycles > 1 and len(single) >= 2:
        single[-2], single[-1] = single[-1], single[-2]
    rounds: list[Round] = []
    for cycle in range(cycles):
        for game_round in single:
            if cycle % 2:
                game_round = Round(tuple((b, w) for w, b in game_round.boards), game_round.bye)
            rounds.append(game_round)
    return tuple(rounds)

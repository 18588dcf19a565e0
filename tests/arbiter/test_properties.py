"""Properties over random event sequences: replay and JSON reproduce the state, rejected events
change nothing, a finished game accepts no move, only the arbiter changes a final result, and
clocks change only by use, bonuses and recorded adjustments."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chessarbiter.arbiter import (
    ArbiterError,
    BothLost,
    ClaimKind,
    ClocksSet,
    ClocksStarted,
    ClocksStopped,
    DrawClaimed,
    DrawOffered,
    Event,
    FlagClaimed,
    FlagObserved,
    Forfeited,
    Game,
    GameOverError,
    IllegalMoveCompleted,
    Moved,
    OfferAccepted,
    OfferDeclined,
    Resigned,
    ResultDeclared,
    Ruling,
    SuddenDeathClaimed,
    SuddenDeathRuled,
    TimeAdded,
    Touched,
    Warned,
    from_jsonl,
    to_jsonl,
)
from chessarbiter.clock import Side, parse_human
from chessarbiter.core.moves import uci
from chessarbiter.core.squares import SQUARE_NAMES as SQUARES
from chessarbiter.laws.endings import Result
from chessarbiter.laws.profiles import FIDE_2000, FIDE_2023, FIDE_2023_BLITZ, USCF, RuleProfile

INITIAL_MS, INCREMENT_MS = 180_000, 2_000
DECISIONS = (ResultDeclared, Forfeited, BothLost)
SIDES = st.sampled_from([Side.WHITE, Side.BLACK])
Maker = Callable[[int], Event]


def makers(game: Game) -> st.SearchStrategy[Maker]:
    """Candidate events for the game as it stands, mostly legal moves, some of everything
    else (many are rejected), rarely an ending."""
    legal = game.legal_moves()
    mover = game.to_move
    moves = st.sampled_from(legal or ["e2e4"]).map(lambda m: lambda t: Moved(t, mover, m))
    squares = st.integers(0, 63).map(lambda q: SQUARES[q])
    common = st.one_of(
        st.builds(lambda a, b, s: lambda t: Moved(t, s, a + b), squares, squares, SIDES),
        moves.map(lambda make: lambda t: Moved(t, mover, make(t).uci, True)),
        SIDES.map(lambda s: lambda t: DrawOffered(t, s)),
        SIDES.map(lambda s: lambda t: OfferAccepted(t, s)),
        SIDES.map(lambda s: lambda t: OfferDeclined(t, s)),
        st.builds(lambda s, k, i: lambda t: DrawClaimed(t, s, k, i), SIDES,
                  st.sampled_from(list(ClaimKind)), st.sampled_from([None, *legal[:3]])),
        st.builds(lambda s, q: lambda t: Touched(t, s, q), SIDES, squares),
        st.builds(lambda a, b: lambda t: IllegalMoveCompleted(t, mover, a + b), squares, squares),
        SIDES.map(lambda s: lambda t: SuddenDeathClaimed(t, s)),
        st.sampled_from(list(Ruling)).map(lambda r: lambda t: SuddenDeathRuled(t, r)),
        st.just(lambda t: ClocksStopped(t)),
        st.just(lambda t: ClocksStarted(t)),
        st.builds(lambda s, ms: lambda t: TimeAdded(t, s, ms, "test"), SIDES,
                  st.integers(-60_000, 60_000)),
        st.just(lambda t: ClocksSet(t, 100_000, 50_000, "test")),
        SIDES.map(lambda s: lambda t: Warned(t, s, "test")),
        st.just(lambda t: FlagObserved(t)),
        SIDES.map(lambda s: lambda t: FlagClaimed(t, s)),
    )
    endings = st.one_of(
        SIDES.map(lambda s: lambda t: Resigned(t, s)),
        st.sampled_from(list(Result)).map(lambda r: lambda t: ResultDeclared(t, r, "test")),
        SIDES.map(lambda s: lambda t: Forfeited(t, s, "test")),
        st.just(lambda t: BothLost(t, "test")),
    )
    return st.integers(0, 99).flatmap(
        lambda roll: moves if roll < 65 else common if roll < 97 else endings
    )


def expected_clock(game: Game, side: Side) -> int:
    """A display that is not running: its start, plus increments, minus time used, plus what
    penalties and the arbiter added."""
    records = [r for r in game.records if r.side is side and r.used_ms is not None]
    used = sum(r.used_ms or 0 for r in records)
    adjusted = game.state().time_adjusted_ms[side]
    return INITIAL_MS + INCREMENT_MS * len(records) - used + adjusted


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.sampled_from([FIDE_2023, FIDE_2000, FIDE_2023_BLITZ, USCF]))
def test_random_event_sequences_keep_the_laws_invariants(
    data: st.DataObject, profile: RuleProfile
) -> None:
    game = Game(profile, parse_human("3+2"))
    if data.draw(st.booleans(), label="start the clocks"):
        game.apply(ClocksStarted(0))
    t = 0
    for _ in range(data.draw(st.integers(1, 50), label="events")):
        t += data.draw(st.one_of(st.integers(0, 5_000), st.integers(0, 90_000)), label="dt")
        event = data.draw(makers(game), label="event")(t)
        before_state, before_log = game.state(), game.log
        try:
            game.apply(event)
        except ArbiterError:
            assert game.state() == before_state
            assert game.log == before_log
            continue
        if before_state.outcome is not None and game.outcome != before_state.outcome:
            assert isinstance(event, DECISIONS)
        state = game.state()
        clock = state.clock_ms
        assert clock is not None
        mover = game.to_move
        for side in (Side.WHITE, Side.BLACK):
            if side is mover:  # his move's time so far is not recorded yet
                assert clock[side] <= expected_clock(game, side)
            else:
                assert clock[side] == expected_clock(game, side)
        if game.is_over:
            for move in game.position().legal_moves()[:3]:
                with pytest.raises(GameOverError):
                    game.apply(Moved(t, mover, uci(move)))
    assert Game.replay(game.setup, game.log).state() == game.state()
    assert from_jsonl(to_jsonl(game)).state() == game.state()

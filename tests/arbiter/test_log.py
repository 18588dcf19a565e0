"""The game log: JSON lines round trip, replay, and clear errors for bad logs."""

from __future__ import annotations

import json
import re

import pytest

from chessarbiter.arbiter import (
    EVENT_TYPES,
    ArbiterError,
    ClaimKind,
    ClocksSet,
    ClocksStopped,
    DrawClaimed,
    DrawOffered,
    Game,
    IllegalMoveCompleted,
    LogFormatError,
    Moved,
    OfferDeclined,
    Touched,
    Warned,
    event_from_dict,
    event_to_dict,
    from_jsonl,
    to_jsonl,
)
from chessarbiter.arbiter import ClocksStarted as Started
from chessarbiter.arbiter.log import MAX_INT_DIGITS
from chessarbiter.clock import parse_us
from chessarbiter.laws.profiles import FIDE_2023, USCF
from tests.arbiter.driver import MIN, B, Driver, S, W


def rich_game() -> Game:
    """A game using most kinds of event."""
    d = Driver(FIDE_2023, "40/90+30, 30+30")
    d.play("e2e4 e7e5 g1f3", offer=False)
    d.event(DrawOffered, side=W)
    d.event(OfferDeclined, side=B)
    d.event(Touched, side=B, square="b8")
    d.play("b8c6")
    d.event(IllegalMoveCompleted, side=W, uci="f1f5")
    d.play("f1b5")
    d.event(DrawClaimed, side=B, claim=ClaimKind.THREEFOLD, intended="g8f6")
    d.play("g8f6")
    d.event(Warned, side=W, reason="noise")
    d.event(ClocksStopped)
    d.event(ClocksSet, white_ms=80 * MIN, black_ms=85 * MIN, reason="6.13")
    d.event(Started)
    d.play("e1h1")
    return d.game


def test_json_lines_round_trip_gives_an_identical_game() -> None:
    game = rich_game()
    text = to_jsonl(game)
    again = from_jsonl(text)
    assert again.log == game.log
    assert again.state() == game.state()
    assert again.setup == game.setup
    assert to_jsonl(again) == text
    assert json.loads(text.splitlines()[0])["version"] == 1


def test_replay_gives_an_identical_game() -> None:
    game = rich_game()
    assert Game.replay(game.setup, game.log).state() == game.state()


def test_a_delay_control_and_a_custom_profile_survive_the_log() -> None:
    d = Driver(USCF, parse_us("G/5;d5"))
    d.play("d2d4 d7d5", dt=7 * S)
    again = from_jsonl(to_jsonl(d.game))
    assert again.setup.control == parse_us("G/5;d5")
    assert again.state() == d.game.state()
    assert again.clock_ms() == (5 * MIN - 2 * S, 5 * MIN - 2 * S)


def test_every_event_kind_has_a_distinct_name() -> None:
    kinds = [cls.kind for cls in EVENT_TYPES]
    assert len(set(kinds)) == len(kinds) == 32


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"kind": "teleport", "at_ms": 1}, "unknown event kind"),
        ({"kind": "move", "at_ms": 1, "side": "white"}, "'uci' is missing"),
        ({"kind": "move", "at_ms": 1, "side": "red", "uci": "e2e4"}, "side='red'"),
        ({"kind": "move", "at_ms": "1", "side": "white", "uci": "e2e4"}, "at_ms='1'"),
        ({"kind": "move", "at_ms": 1, "side": "white", "uci": "e2e4", "x": 1}, "unknown fields"),
        ({"kind": "claim", "at_ms": 1, "side": "white", "claim": "fourfold"}, "claim='fourfold'"),
        ([1, 2], "JSON object"),
    ],
)
def test_bad_events_are_named(line: object, message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        event_from_dict(line)


def test_bad_logs_name_the_line() -> None:
    good = to_jsonl(rich_game()).splitlines()
    with pytest.raises(LogFormatError, match="empty"):
        from_jsonl("")
    with pytest.raises(LogFormatError, match="version"):
        from_jsonl('{"version": 99}\n')
    with pytest.raises(LogFormatError, match="line 3: not JSON"):
        from_jsonl("\n".join([*good[:2], "{oops", *good[2:]]))
    bad_move = json.dumps(event_to_dict(rich_game().log[1]) | {"uci": "e2e5"})
    with pytest.raises(ArbiterError, match=r"line 3: .*e2e5"):
        from_jsonl("\n".join([good[0], good[1], bad_move]))
    header = json.loads(good[0])
    header["setup"]["profile"]["claim_penalty_ms"] = -1
    with pytest.raises(LogFormatError, match="claim_penalty_ms"):
        from_jsonl(json.dumps(header) + "\n")
    del header["setup"]["fen"]
    with pytest.raises(LogFormatError, match="missing fields"):
        from_jsonl(json.dumps(header) + "\n")


@pytest.mark.parametrize("setup", [5, [], ["x"], "x", None, True])
def test_a_header_whose_setup_is_no_object_is_named(setup: object) -> None:
    with pytest.raises(LogFormatError, match=r"^line 1: setup: expected an object"):
        from_jsonl(json.dumps({"version": 1, "setup": setup}) + "\n")


HUGE = "7" * 5000  # beyond Python's int-string limit: json.loads would raise a bare ValueError


def test_integers_too_long_to_read_are_named_by_line_and_field() -> None:
    good = to_jsonl(rich_game()).splitlines()
    event = json.dumps(event_to_dict(rich_game().log[1]) | {"at_ms": "@"})
    cases = [
        ([good[0].replace('"version": 1', f'"version": 1{HUGE}')], "line 1: version: "),
        ([good[0].replace('"claim_penalty_ms": 120000', f'"claim_penalty_ms": -{HUGE}')],
         "line 1: claim_penalty_ms: "),
        ([*good[:2], event.replace('"@"', HUGE)], "line 3: at_ms: an integer of 5000 digits"),
        ([*good[:2], f"[{HUGE}]"], "line 3: an integer"),
        ([*good[:2], event.replace('"@"', "1" + "0" * MAX_INT_DIGITS)],
         f"line 3: at_ms: an integer of {MAX_INT_DIGITS + 1} digits"),
        ([*good[:2], event.replace('"@"', "NaN")], "line 3: at_ms: NaN"),
        ([*good[:2], event.replace('"@"', "-Infinity")], "line 3: at_ms: -Infinity"),
    ]
    for lines, message in cases:
        with pytest.raises(LogFormatError, match="^" + re.escape(message)):
            from_jsonl("\n".join(lines) + "\n")
    longest = event.replace('"@"', "9" * MAX_INT_DIGITS)
    assert from_jsonl("\n".join([*good[:2], longest])).log[-1].at_ms == 10**MAX_INT_DIGITS - 1


def test_json_nested_too_deeply_is_a_format_error() -> None:
    good = to_jsonl(rich_game()).splitlines()
    with pytest.raises(LogFormatError, match=r"^line 2: not JSON"):
        from_jsonl("\n".join([good[0], "[" * 100_000]))


def test_an_unreadable_line_is_named_once() -> None:
    good = to_jsonl(rich_game()).splitlines()
    with pytest.raises(LogFormatError) as info:
        from_jsonl("\n".join([*good[:2], "{oops"]))
    assert str(info.value).count("line 3") == 1


@pytest.mark.parametrize("side", ["white", 0, None, "W"])
def test_an_event_built_with_a_side_that_is_no_side_is_rejected(side: object) -> None:
    game = Game()
    before = game.state()
    with pytest.raises(ArbiterError, match=r"side=.* is not a Side"):
        game.apply(Moved(0, side, "e2e4"))  # type: ignore[arg-type]
    with pytest.raises(ArbiterError, match=r"side=.* is not a Side"):
        game.apply(Warned(0, side, "noise"))  # type: ignore[arg-type]
    assert game.state() == before and not game.log
    game.apply(Moved(0, W, "e2e4"))
    assert game.log == (Moved(0, W, "e2e4"),)

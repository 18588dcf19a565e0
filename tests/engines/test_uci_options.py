"""Engine settings checked against the options the engine declares before they are sent,
the engine's own complaint about a setting kept, and the name an engine plays under."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from chessarbiter.engines.uci_client import EngineFailure, UciEngine
from chessarbiter.engines.uci_options import (
    DeclaredOption,
    OptionError,
    checked_settings,
    playing_name,
    read_option,
)

FAKE = str(Path(__file__).with_name("fake_engine.py"))
STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
NO_STOCKFISH = "stockfish is not installed (Debian: apt-get install stockfish)"
DECLARED = [
    "option name Debug Log File type string default ",
    "option name Clear Hash type button",
    "option name Skill Level type spin default 20 min 0 max 20",
    "option name UCI_Elo type spin default 1350 min 1350 max 2850",
    "option name UCI_LimitStrength type check default false",
    "option name Play Style type combo default Very Solid var Very Solid var Risky",
    "option name SyzygyPath type string default <empty>",
]
OPTIONS = {o.name.lower(): o for o in map(read_option, DECLARED) if o is not None}


def test_option_lines_are_read() -> None:
    assert OPTIONS["skill level"] == DeclaredOption("Skill Level", "spin", "20", 0, 20)
    assert OPTIONS["debug log file"] == DeclaredOption("Debug Log File", "string")
    assert OPTIONS["clear hash"] == DeclaredOption("Clear Hash", "button")
    assert OPTIONS["play style"].choices == ("Very Solid", "Risky")
    assert OPTIONS["play style"].default == "Very Solid"
    assert len(OPTIONS) == len(DECLARED)


@pytest.mark.parametrize("line", [
    "option name", "option name X", "option name X type", "id name X",
    "option name X type spin default 1 min a max 3", "option name type spin",
])
def test_malformed_option_lines_are_no_option(line: str) -> None:
    assert read_option(line) is None


def test_settings_take_the_declared_names_and_values() -> None:
    settings = checked_settings(OPTIONS, {"skill level": " 3 ", "UCI_LimitStrength": "TRUE",
                                          "play style": "risky", "SyzygyPath": "/tb"})
    assert settings == {"Skill Level": "3", "UCI_LimitStrength": "true",
                        "Play Style": "Risky", "SyzygyPath": "/tb"}
    assert checked_settings(OPTIONS, {"UCI_LimitStrength": True}) == {
        "UCI_LimitStrength": "true"}


@pytest.mark.parametrize(("settings", "message"), [
    ({"Skil Level": "3"}, "no option 'Skil Level' (did you mean 'Skill Level'?)"),
    ({"Contempt": "3"}, "no option 'Contempt'"),
    ({"UCI_Elo": "1320"}, "option 'UCI_Elo' = 1320: outside its range, from 1350 to 2850"),
    ({"Skill Level": "21"}, "option 'Skill Level' = 21: outside its range, from 0 to 20"),
    ({"Skill Level": "3.5"}, "option 'Skill Level' = '3.5': expected a whole number from 0"),
    ({"UCI_LimitStrength": "yes"}, "option 'UCI_LimitStrength' = 'yes': expected true or"),
    ({"Play Style": "Wild"}, "option 'Play Style' = 'Wild': expected one of Very Solid, Risky"),
])
def test_settings_the_engine_does_not_allow_are_refused(
    settings: dict[str, str], message: str
) -> None:
    with pytest.raises(OptionError) as info:
        checked_settings(OPTIONS, settings)
    assert str(info.value).startswith(message)


def test_the_playing_name_shows_the_settings_that_change_play() -> None:
    assert playing_name("Stockfish 15.1", {"Skill Level": "3"}) == (
        "Stockfish 15.1 (Skill Level=3)")
    assert playing_name("Stockfish 15.1", {"UCI_LimitStrength": "true", "UCI_Elo": "1600",
                                           "Threads": "1", "Hash": "16"}) == (
        "Stockfish 15.1 (UCI_LimitStrength=true, UCI_Elo=1600)")
    assert playing_name("Stockfish 15.1", {"Threads": "2", "UCI_Chess960": "true"}) == (
        "Stockfish 15.1")


def _fake(mode: str, options: dict[str, str | int | bool]) -> UciEngine | EngineFailure:
    return UciEngine.start([sys.executable, FAKE, mode], options=options)


def test_a_fake_engine_takes_the_settings_it_declares() -> None:
    engine = _fake("good", {"skill level": 3, "style": "risky", "Threads": 2})
    assert isinstance(engine, UciEngine), engine
    with engine:
        assert engine.settings == {"Skill Level": "3", "Style": "Risky", "Threads": "2"}


@pytest.mark.parametrize(("mode", "options", "detail"), [
    ("good", {"Skil Level": 3}, "Fake good: no option 'Skil Level' (did you mean 'Skill Level'?)"),
    ("good", {"Skill Level": 30}, "Fake good: option 'Skill Level' = 30: outside its range"),
    ("good", {"Style": "Wild"}, "Fake good: option 'Style' = 'Wild': expected one of Solid"),
    ("nosuch", {"Skill Level": 3}, "Fake nosuch: answered 'setoption name Skill Level value 3' "
                                   "with 'No such option: Skill Level'"),
])
def test_a_refused_setting_stops_the_engine_before_it_plays(
    mode: str, options: dict[str, str | int | bool], detail: str
) -> None:
    failure = _fake(mode, options)
    assert isinstance(failure, EngineFailure)
    assert failure.kind == "start" and failure.detail.startswith(detail), failure


@pytest.mark.skipif(STOCKFISH is None, reason=NO_STOCKFISH)
@pytest.mark.parametrize(("options", "detail"), [
    ({"Skil Level": 3}, ": no option 'Skil Level' (did you mean 'Skill Level'?)"),
    ({"UCI_Elo": 1320}, ": option 'UCI_Elo' = 1320: outside its range, from 1350 to 2850"),
])
def test_stockfish_settings_are_checked(options: dict[str, str | int | bool],
                                        detail: str) -> None:
    assert STOCKFISH is not None
    failure = UciEngine.start([STOCKFISH], options=options)
    assert isinstance(failure, EngineFailure) and failure.kind == "start", failure
    assert failure.detail.startswith("Stockfish ") and detail in failure.detail, failure


@pytest.mark.skipif(STOCKFISH is None, reason=NO_STOCKFISH)
def test_stockfish_takes_its_settings() -> None:
    assert STOCKFISH is not None
    engine = UciEngine.start([STOCKFISH], options={"uci_limitstrength": "true",
                                                   "UCI_Elo": 1600, "Hash": 16})
    assert isinstance(engine, UciEngine), engine
    with engine:
        assert engine.settings == {"UCI_LimitStrength": "true", "UCI_Elo": "1600", "Hash": "16"}
        assert playing_name(engine.name, engine.settings) == (
            f"{engine.name} (UCI_LimitStrength=true, UCI_Elo=1600)")

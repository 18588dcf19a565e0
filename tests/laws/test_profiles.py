"""Rule profiles: named values, their differences, and their plain-dict form."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path
from typing import Final

import pytest

from chessarbiter.clock import parse_human
from chessarbiter.laws.profiles import (
    FIDE_2000,
    FIDE_2023,
    FIDE_2023_RAPID,
    LATER_FIELDS,
    ONLINE,
    PROFILES,
    USCF,
    Digital,
    FlagRule,
    InputMode,
    Lapse,
    OverTheBoard,
    RuleProfile,
    get_profile,
    profile_for,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "profiles.md"


def test_the_required_profiles_exist() -> None:
    required = {"fide-2023", "fide-2023-rapid", "fide-2023-blitz", "fide-2000", "uscf", "online"}
    assert required <= set(PROFILES)
    assert all(get_profile(name).name == name for name in PROFILES)
    with pytest.raises(ValueError, match="unknown rule profile 'fide-1850'"):
        get_profile("fide-1850")


def test_the_rulebooks_differences() -> None:
    f2000, f2023, rapid, uscf = (board(p) for p in (FIDE_2000, FIDE_2023, FIDE_2023_RAPID, USCF))
    assert (f2000.illegal_moves_to_lose, f2023.illegal_moves_to_lose) == (3, 2)
    assert f2000.offer_declined_by is Lapse.MOVE and f2023.offer_declined_by is Lapse.TOUCH
    assert not FIDE_2000.fivefold_automatic and FIDE_2023.fivefold_automatic
    assert rapid.illegal_move_penalty_ms == f2023.illegal_move_penalty_ms // 2
    assert USCF.flag_rule is FlagRule.USCF_MATERIAL and uscf.illegal_moves_to_lose is None
    assert ONLINE.input_mode is InputMode.DIGITAL and ONLINE.draw_claims_automatic
    assert FIDE_2023.over_the_board and not ONLINE.over_the_board


def board(profile: RuleProfile) -> OverTheBoard:
    """A profile's over-the-board rules (failing for digital input)."""
    assert isinstance(profile.input_mode, OverTheBoard), profile.name
    return profile.input_mode


@pytest.mark.parametrize("profile", list(PROFILES.values()), ids=lambda p: p.name)
def test_profiles_survive_their_dict_form(profile: RuleProfile) -> None:
    assert RuleProfile.from_dict(profile.to_dict()) == profile


def test_bad_profile_dicts_and_values_are_named() -> None:
    data = FIDE_2023.to_dict()
    with pytest.raises(ValueError, match="missing fields \\['flag_rule'\\]"):
        RuleProfile.from_dict({k: v for k, v in data.items() if k != "flag_rule"})
    with pytest.raises(ValueError, match="unknown fields \\['colour'\\]"):
        RuleProfile.from_dict(data | {"colour": "red"})
    with pytest.raises(ValueError, match="flag_rule='coin toss'"):
        RuleProfile.from_dict(data | {"flag_rule": "coin toss"})
    with pytest.raises(ValueError, match="claim_penalty_ms='2'"):
        RuleProfile.from_dict(data | {"claim_penalty_ms": "2"})
    with pytest.raises(ValueError, match="illegal_moves_to_lose"):
        replace(FIDE_2023, input_mode=OverTheBoard(illegal_moves_to_lose=0))
    with pytest.raises(ValueError, match="illegal_moves_to_lose must be >= 1"):
        RuleProfile.from_dict(data | {"illegal_moves_to_lose": 0})
    with pytest.raises(ValueError, match="input_mode='telepathy'"):
        RuleProfile.from_dict(data | {"input_mode": "telepathy"})


def test_the_docs_table_lists_every_parameter_and_profile() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for f in (*fields(RuleProfile), *fields(OverTheBoard)):
        assert f"`{f.name}`" in text, f.name
    for name in PROFILES:
        assert f"`{name}`" in text, name


@pytest.mark.parametrize("profile", list(PROFILES.values()), ids=lambda p: p.name)
def test_a_profile_stored_before_the_later_fields_still_loads(profile: RuleProfile) -> None:
    data = profile.to_dict()
    for name in LATER_FIELDS:
        data.pop(name, None)  # a digital profile has no board rules
    assert RuleProfile.from_dict(data) == profile


def test_a_stored_profile_missing_an_original_field_is_refused() -> None:
    data = FIDE_2023.to_dict()
    del data["illegal_moves_to_lose"]
    with pytest.raises(ValueError, match="missing fields"):
        RuleProfile.from_dict(data)


@pytest.mark.parametrize(
    ("tc", "name"),
    [("90+30", "fide-2023"), ("15+10", "fide-2023-rapid"), ("5+3", "fide-2023-blitz"),
     (None, "fide-2023")],
)
def test_profile_for_chooses_by_category(tc: str | None, name: str) -> None:
    control = parse_human(tc) if tc is not None else None
    assert profile_for(control) is get_profile(name)
    assert profile_for(control, "uscf") is USCF
    with pytest.raises(ValueError, match="unknown rule profile 'fide-1850'"):
        profile_for(control, "fide-1850")


OLD_FIDE_2000: Final = (
    '{"name": "fide-2000", "category": "standard", "input_mode": "over-the-board", '
    '"clock_start": "black-starts-white", "flags_automatic": false, "clock_shows_first_flag": '
    'false, "fivefold_automatic": false, "seventy_five_moves_automatic": false, '
    '"dead_position_automatic": true, "draw_claims_automatic": false, '
    '"incorrect_claims_rejected": false, "claim_deduction_max_ms": 180000, "claim_penalty_ms": '
    '180000, "claim_is_offer": false, "offer_declined_by": "move", "claim_right_lost_by": '
    '"move", "agreement_min_moves": 0, "offers_from_move": 0, "illegal_move_penalty_ms": '
    '120000, "illegal_moves_to_lose": 3, "illegal_loss_drawn_if_opponent_cannot_mate": false, '
    '"unpromoted_pawn_becomes_queen": false, "resignation_drawn_if_opponent_cannot_mate": '
    'false, "flag_rule": "helpmate", "sudden_death_claims": true, "sudden_death_bonus_ms": '
    '120000, "sudden_death_reject": false, "two_hands_as_illegal_move": false, '
    '"limited_supervision": false, "colours_reversed_moves": null}'
)
"""``fide-2000`` as logs stored it before the input modes were types."""

OLD_ONLINE: Final = (
    '{"name": "online", "category": "standard", "input_mode": "digital", "clock_start": '
    '"both-moved", "flags_automatic": true, "clock_shows_first_flag": true, '
    '"fivefold_automatic": true, "seventy_five_moves_automatic": true, '
    '"dead_position_automatic": true, "draw_claims_automatic": true, '
    '"incorrect_claims_rejected": true, "claim_deduction_max_ms": 0, "claim_penalty_ms": 0, '
    '"claim_is_offer": false, "offer_declined_by": "move", "claim_right_lost_by": "move", '
    '"agreement_min_moves": 1, "offers_from_move": 0, "illegal_move_penalty_ms": 0, '
    '"illegal_moves_to_lose": null, "illegal_loss_drawn_if_opponent_cannot_mate": false, '
    '"unpromoted_pawn_becomes_queen": false, "resignation_drawn_if_opponent_cannot_mate": '
    'false, "flag_rule": "helpmate", "sudden_death_claims": false, "sudden_death_bonus_ms": 0, '
    '"sudden_death_reject": true, "two_hands_as_illegal_move": true, "limited_supervision": '
    'false, "colours_reversed_moves": 10}'
)
"""``online`` as logs stored it then: a digital profile with (meaningless) board rules."""


def test_profiles_stored_before_the_input_modes_were_types_still_load() -> None:
    old = json.loads(OLD_FIDE_2000)
    assert RuleProfile.from_dict(old) == FIDE_2000
    # an over-the-board profile is stored as before, with the later rules beside
    assert FIDE_2000.to_dict() == dict(old, outage="arbiter", takebacks=False,
                                       players_give_time=False, abandonment_ms=None)
    assert RuleProfile.from_dict(json.loads(OLD_ONLINE)) == ONLINE
    digital = dict(json.loads(OLD_FIDE_2000), input_mode="digital")  # board rules dropped
    assert RuleProfile.from_dict(digital) == replace(FIDE_2000, input_mode=InputMode.DIGITAL)


def test_digital_input_carries_no_board_rules() -> None:
    stored = ONLINE.to_dict()
    assert not set(stored) & {f.name for f in fields(OverTheBoard)}
    assert stored["input_mode"] == "digital"
    played = replace(FIDE_2000, input_mode=InputMode.DIGITAL)  # as play and match build it
    assert played.input_mode is InputMode.DIGITAL and not played.over_the_board
    with pytest.raises(TypeError):
        Digital(illegal_moves_to_lose=3)  # type: ignore[call-arg]

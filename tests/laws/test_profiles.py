"""Rule profiles: named values, their differences, and their plain-dict form."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

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
    FlagRule,
    InputMode,
    Lapse,
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
    assert (FIDE_2000.illegal_moves_to_lose, FIDE_2023.illegal_moves_to_lose) == (3, 2)
    assert FIDE_2000.offer_declined_by is Lapse.MOVE and FIDE_2023.offer_declined_by is Lapse.TOUCH
    assert not FIDE_2000.fivefold_automatic and FIDE_2023.fivefold_automatic
    assert FIDE_2023_RAPID.illegal_move_penalty_ms == FIDE_2023.illegal_move_penalty_ms // 2
    assert USCF.flag_rule is FlagRule.USCF_MATERIAL and USCF.illegal_moves_to_lose is None
    assert ONLINE.input_mode is InputMode.DIGITAL and ONLINE.draw_claims_automatic


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
        replace(FIDE_2023, illegal_moves_to_lose=0)


def test_the_docs_table_lists_every_parameter_and_profile() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for f in fields(RuleProfile):
        assert f"`{f.name}`" in text, f.name
    for name in PROFILES:
        assert f"`{name}`" in text, name


@pytest.mark.parametrize("profile", list(PROFILES.values()), ids=lambda p: p.name)
def test_a_profile_stored_before_the_later_fields_still_loads(profile: RuleProfile) -> None:
    data = profile.to_dict()
    for name in LATER_FIELDS:
        del data[name]
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

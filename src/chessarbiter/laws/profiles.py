"""Rule profiles: where the rulebooks disagree, the difference is a parameter.

A :class:`RuleProfile` is a plain value; :data:`PROFILES` holds the named ones (``fide-2023``,
``fide-2023-rapid``, ``fide-2023-blitz``, ``fide-2000``, ``uscf``, ``uscf-blitz``, ``online``).
Derive an event's own variant with :func:`dataclasses.replace`, e.g. no draw offers before
move 30 (F23 9.1.1): ``replace(FIDE_2023, offers_from_move=30)``. ``docs/profiles.md`` lists
every parameter per profile with its article. Article numbers: F23 = FIDE Laws 2023,
S = the official rules of 2000, USCF = US Chess rulebook 7th edition.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any, ClassVar, Final

from chessarbiter.clock.category import Category, classify
from chessarbiter.clock.controls import BonusMode, TimeControl
from chessarbiter.clock.records import Start

MINUTE_MS: Final = 60_000
ABANDONMENT_MS: Final = 30_000
"""The online profile's absence after which the game may be claimed (lichess waits a
comparable time before its "claim victory" button)."""


class Lapse(Enum):
    """What the player having the move does that declines an offer or forfeits a claim."""

    MOVE = "move"
    """Making a move (S9.1, S9.4)."""
    TOUCH = "touch"
    """Deliberately touching a piece (F23 9.1.2.1, 9.4); a move implies a touch."""


class FlagRule(Enum):
    """When a flag fall against a side that still has mating chances is drawn."""

    HELPMATE = "helpmate"
    """Drawn if the opponent cannot checkmate by any series of legal moves (S6.9, F23 6.9)."""
    USCF_MATERIAL = "uscf-material"
    """Drawn only if the opponent's material is on US Chess rule 14E's list."""


class Outage(Enum):
    """How the clocks are handled when a game resumes after the program keeping it stopped
    (a server crash or restart): ``docs/server-ops.md``."""

    RESUME = "resume"
    """The clocks go on from the last acknowledged event, at once: the time since then is
    charged to no one (a server's practice)."""
    ARBITER = "arbiter"
    """The clocks stay stopped at the last acknowledged event until the arbiter restarts them,
    setting them first if he judges so (S6.10, S6.12, S6.13)."""


class InputMode:
    """How moves reach the arbiter: :class:`OverTheBoard`, which carries the rules only a
    physical board needs (touches, completed illegal moves), or :class:`Digital`, which has
    none, so no profile can combine the two. ``InputMode.OVER_THE_BOARD`` is the FIDE 2023
    board, ``InputMode.DIGITAL`` the digital input."""

    __slots__ = ()
    value: ClassVar[str]
    """The mode's name in a stored profile."""
    OVER_THE_BOARD: ClassVar[OverTheBoard]
    DIGITAL: ClassVar[Digital]


@dataclass(frozen=True, slots=True)
class OverTheBoard(InputMode):
    """A recorder of a physical board: touches and completed illegal moves are events,
    under these rules."""

    value: ClassVar[str] = "over-the-board"
    offer_declined_by: Lapse = Lapse.TOUCH
    """S9.1: an offer lapses when the opponent moves; F23 9.1.2.1: when he touches a piece."""
    claim_right_lost_by: Lapse = Lapse.TOUCH
    """S9.4: the right to claim on a move is lost by making it; F23 9.4: by touching a piece."""
    illegal_move_penalty_ms: int = 2 * MINUTE_MS
    """Time added to the opponent per completed illegal move (S10.3, F23 7.5.5 2 min, F23 A.3
    1 min in rapid and blitz, USCF 11D 2 min)."""
    illegal_moves_to_lose: int | None = 2
    """The completed illegal move that loses (S10.3 the 3rd, F23 7.5.5 the 2nd, USCF blitz the
    1st on the opponent's claim); None: never (USCF 11D)."""
    illegal_loss_drawn_if_opponent_cannot_mate: bool = True
    """F23 7.5.5: the loss for illegal moves is a draw if the opponent cannot checkmate."""
    unpromoted_pawn_becomes_queen: bool = True
    """F23 7.5.2: a pawn left unpromoted on the last rank becomes a queen (after the penalty)."""
    two_hands_as_illegal_move: bool = True
    """F23 7.5.4: a move made with two hands and completed is penalised as an illegal move
    (7.5.5), the move standing; S4.1 forbids it without a penalty of its own."""

    def __post_init__(self) -> None:
        if self.illegal_move_penalty_ms < 0:
            raise ValueError("over-the-board input: illegal_move_penalty_ms must be >= 0")
        if self.illegal_moves_to_lose is not None and self.illegal_moves_to_lose < 1:
            raise ValueError("over-the-board input: illegal_moves_to_lose must be >= 1 or None")


@dataclass(frozen=True, slots=True)
class Digital(InputMode):
    """An interface that only lets legal moves through: an illegal move changes nothing and
    no piece can be touched, so offers lapse and claims are lost only by moving."""

    value: ClassVar[str] = "digital"


InputMode.OVER_THE_BOARD = OverTheBoard()
InputMode.DIGITAL = Digital()


@dataclass(frozen=True, slots=True)
class RuleProfile:
    """The rules in force for a game. Every field is documented with its source article."""

    name: str
    category: Category = Category.STANDARD
    """The game category the profile is written for (F23 Appendices A, B)."""
    input_mode: OverTheBoard | Digital = InputMode.OVER_THE_BOARD
    """How moves reach the arbiter, with the touch and illegal-move rules of a board."""
    clock_start: Start = Start.BLACK_STARTS_WHITE
    """S6.5 / F23 6.5: Black starts White's clock; online clocks start once both have moved."""
    flags_automatic: bool = False
    """True: a flag counts the moment it falls (a server); False: when the arbiter observes it
    or a player claims it (S6.8, F23 6.4)."""
    clock_shows_first_flag: bool = True
    """The clock tells which flag fell first; False: both flags down draws in sudden death and
    the game continues otherwise (S6.11, S10.4, F23 Guidelines III.3.1)."""
    fivefold_automatic: bool = True
    """F23 9.6.1: fivefold repetition ends the game (absent in S; USCF 14K: TD's discretion)."""
    seventy_five_moves_automatic: bool = True
    """F23 9.6.2: 75 moves each without capture or pawn move end the game (absent in S)."""
    dead_position_automatic: bool = True
    """F23 5.2.2, S9.6: a dead position ends the game at once."""
    draw_claims_automatic: bool = False
    """Online: threefold repetition and the 50-move rule draw without a claim."""
    incorrect_claims_rejected: bool = False
    """Online: the claim button exists only when the claim is correct."""
    claim_deduction_max_ms: int = 0
    """S9.5b: half the claimant's remaining time, at most this, is deducted (F23: none)."""
    claim_penalty_ms: int = 2 * MINUTE_MS
    """Time added to the opponent of an incorrect claimant (S9.5b 3 min, F23 9.5.3 2 min,
    F23 A.3 1 min in rapid and blitz)."""
    claim_is_offer: bool = True
    """F23 9.1.2.3: a claim under 9.2 or 9.3 is also a draw offer (absent in S)."""
    agreement_min_moves: int = 1
    """F23 5.2.3: agreement only once both players have made this many moves (S: any time)."""
    offers_from_move: int = 0
    """F23 9.1.1: the event may forbid offers before this move number (0: no limit)."""
    resignation_drawn_if_opponent_cannot_mate: bool = True
    """F23 5.1.2: resigning is a draw if the opponent cannot checkmate (S5.1b: always lost)."""
    flag_rule: FlagRule = FlagRule.HELPMATE
    sudden_death_claims: bool = False
    """S10.2 / F23 Guidelines III.5 (only where announced, never blitz) / USCF 14H: under two
    minutes in a period without increment or delay, the player to move may claim a draw."""
    sudden_death_bonus_ms: int = 2 * MINUTE_MS
    """Time given to the claimant's opponent when the claim is rejected (F23 III.5.3), and by
    default when it is postponed (S10.2b, F23 III.5.2: the arbiter's choice, in the ruling)."""
    sudden_death_reject: bool = True
    """F23 III.5.1: the arbiter draws, postpones or rejects; S10.2a: only draws or postpones."""
    limited_supervision: bool = False
    """F23 A.5 (rapid; blitz by B.3): fewer arbiters than A.4 / B.2 ask for. An illegal move
    can be corrected only before the opponent's next move, then it stands (A.5.2); no claim on
    the set-up once ten moves each have been completed (A.5.1.2)."""
    colours_reversed_moves: int | None = 10
    """F23 7.3: a game begun with colours reversed is replayed with the correct colours unless
    both players have made this many moves; None (S7.2): it continues unless the arbiter
    rules otherwise."""
    outage: Outage = Outage.ARBITER
    """The clocks after the program keeping the game was down (S6.12, S6.13; ``Outage``)."""
    takebacks: bool = False
    """Online practice: a move taken back when the opponent agrees. The Laws have none: a
    move made stands (F23 4.7, S4.7)."""
    players_give_time: bool = False
    """Online practice: a player gives the opponent time. Under the Laws only the arbiter
    changes a clock (F23 6.13, 12.9; S6.13, S13.4)."""
    abandonment_ms: int | None = None
    """Online practice: a player whose opponent has been gone (every connection closed) this
    long may claim the game or a draw; None: no such claim. The Laws have none (F23 6.7
    defaults a player who does not arrive; leaving the venue is the arbiter's, 11.2.3)."""

    def __post_init__(self) -> None:
        for name in (
            "claim_deduction_max_ms",
            "claim_penalty_ms",
            "agreement_min_moves",
            "offers_from_move",
            "sudden_death_bonus_ms",
        ):
            if getattr(self, name) < 0:
                raise ValueError(f"profile {self.name!r}: {name} must be >= 0")
        for name in ("colours_reversed_moves", "abandonment_ms"):
            if getattr(self, name) is not None and getattr(self, name) < 0:
                raise ValueError(f"profile {self.name!r}: {name} must be >= 0 or None")

    @property
    def over_the_board(self) -> bool:
        """Touches and completed illegal moves are recorded (not rejected)."""
        return isinstance(self.input_mode, OverTheBoard)

    @property
    def plays_correspondence(self) -> bool:
        """Whether a correspondence deadline (days per move) is played under these rules.
        The Laws are silent on correspondence (R18 only says its time controls are
        enforced); a deadline days away has no arbiter at the board to observe its flag
        (S6.8, F23 6.4), so it needs flags that fall by themselves and moves sent, not made
        on a board: a server's profile (``online``), as lichess and ICCF play it."""
        return self.flags_automatic and not self.over_the_board

    def to_dict(self) -> dict[str, Any]:
        """The profile as plain JSON values (enums by their values): the input mode by its
        name, an over-the-board mode's rules as fields of their own (as stored before the
        modes were types)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "input_mode":
                out[f.name] = value.value
                if isinstance(value, OverTheBoard):
                    out.update((b.name, _plain(getattr(value, b.name))) for b in fields(value))
            else:
                out[f.name] = _plain(value)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleProfile:
        """The profile written by :meth:`to_dict`; ``ValueError`` naming a bad, unknown or
        missing field. A digital profile stored with a board's rules (before the input modes
        were types) loads without them: they never applied."""
        board = data.get("input_mode") == OverTheBoard.value
        if not board:
            data = {k: v for k, v in data.items() if k not in _BOARD_FIELDS}
        names = [f.name for f in fields(cls)] + (list(_BOARD_FIELDS) if board else [])
        unknown = sorted(set(data) - set(names))
        missing = [name for name in names if name not in data]
        if missing and set(missing) <= LATER_FIELDS and isinstance(data.get("name"), str):
            known = PROFILES.get(data["name"])  # a log written before these fields existed
            data = {**{n: _later(known, n) for n in missing}, **data}
            missing = []
        if unknown or missing:
            raise ValueError(f"rule profile: unknown fields {unknown}, missing fields {missing}")
        values: dict[str, Any] = {}
        for key, value in data.items():
            kind = _ENUM_FIELDS.get(key)
            try:
                values[key] = kind(value) if kind is not None else _checked(key, value)
            except ValueError:
                raise ValueError(f"rule profile: {key}={value!r} is not a valid value") from None
        rules = {name: values.pop(name) for name in _BOARD_FIELDS if name in values}
        mode = values.pop("input_mode")
        return cls(**values, input_mode=OverTheBoard(**rules) if board else mode)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _input_mode(name: Any) -> OverTheBoard | Digital:
    """The plain input mode of a stored name (an over-the-board one takes its rules from
    the fields beside it)."""
    for mode in (InputMode.OVER_THE_BOARD, InputMode.DIGITAL):
        if name == mode.value:
            return mode
    raise ValueError(name)


_BOARD_FIELDS: Final = tuple(f.name for f in fields(OverTheBoard))
LATER_FIELDS: Final = frozenset({"sudden_death_reject", "two_hands_as_illegal_move",
                                 "limited_supervision", "colours_reversed_moves", "outage",
                                 "takebacks", "players_give_time", "abandonment_ms"})
"""Fields added after logs were first written: a stored profile without them takes them from
the named profile of that name (else the defaults), so older logs still replay."""


def _later(known: RuleProfile | None, name: str) -> Any:
    """A field missing from an older stored profile: the named profile's, else the default."""
    if name in _BOARD_FIELDS:
        mode = known.input_mode if known is not None else None
        return _plain(getattr(mode if isinstance(mode, OverTheBoard) else OverTheBoard(), name))
    return _plain(getattr(known if known is not None else _DEFAULT, name))


def _checked(key: str, value: Any) -> Any:
    """``value`` if it has the JSON type of field ``key``; ``ValueError`` otherwise."""
    if key in ("illegal_moves_to_lose", "colours_reversed_moves", "abandonment_ms") and \
            value is None:
        return value
    if key == "abandonment_ms" and type(value) is int:
        return value
    default = getattr(InputMode.OVER_THE_BOARD if key in _BOARD_FIELDS else _DEFAULT, key)
    if type(value) is not type(default):
        raise ValueError(key)
    return value


_ENUM_FIELDS: Final[dict[str, Any]] = {
    "category": Category,
    "input_mode": _input_mode,
    "clock_start": Start,
    "offer_declined_by": Lapse,
    "claim_right_lost_by": Lapse,
    "flag_rule": FlagRule,
    "outage": Outage,
}
_DEFAULT: Final = RuleProfile(name="default")

FIDE_2023: Final = RuleProfile(name="fide-2023")
"""FIDE Laws of Chess 2023, standard games (Competition Rules in force)."""

FIDE_2023_RAPID: Final = replace(
    FIDE_2023,
    name="fide-2023-rapid",
    category=Category.RAPID,
    input_mode=OverTheBoard(illegal_move_penalty_ms=MINUTE_MS),
    claim_penalty_ms=MINUTE_MS,
)
"""F23 Appendix A: as standard, with the 1-minute penalties of A.3."""

FIDE_2023_BLITZ: Final = replace(
    FIDE_2023_RAPID,
    name="fide-2023-blitz",
    category=Category.BLITZ,
    limited_supervision=True,
)
"""F23 Appendix B: as rapid, under B.3 (A.2, A.3, A.5 apply: an illegal move stands once the
opponent has moved, A.5.2); Guidelines III never apply."""

FIDE_2000: Final = RuleProfile(
    name="fide-2000",
    input_mode=OverTheBoard(
        offer_declined_by=Lapse.MOVE,
        claim_right_lost_by=Lapse.MOVE,
        illegal_moves_to_lose=3,
        illegal_loss_drawn_if_opponent_cannot_mate=False,
        unpromoted_pawn_becomes_queen=False,
        two_hands_as_illegal_move=False,
    ),
    clock_shows_first_flag=False,
    fivefold_automatic=False,
    seventy_five_moves_automatic=False,
    claim_deduction_max_ms=3 * MINUTE_MS,
    claim_penalty_ms=3 * MINUTE_MS,
    claim_is_offer=False,
    agreement_min_moves=0,
    resignation_drawn_if_opponent_cannot_mate=False,
    sudden_death_claims=True,
    sudden_death_reject=False,
    colours_reversed_moves=None,
)
"""The official rules of chess (FIDE, c. 2000) as written."""

USCF_BOARD: Final = OverTheBoard(
    offer_declined_by=Lapse.MOVE,
    claim_right_lost_by=Lapse.MOVE,
    illegal_moves_to_lose=None,
    illegal_loss_drawn_if_opponent_cannot_mate=False,
    unpromoted_pawn_becomes_queen=False,
    two_hands_as_illegal_move=False,
)
"""US Chess over the board: 11D +2 minutes per illegal move, never a loss."""

USCF: Final = RuleProfile(
    name="uscf",
    input_mode=USCF_BOARD,
    fivefold_automatic=False,
    seventy_five_moves_automatic=False,
    claim_penalty_ms=0,
    claim_is_offer=False,
    agreement_min_moves=0,
    resignation_drawn_if_opponent_cannot_mate=False,
    flag_rule=FlagRule.USCF_MATERIAL,
    sudden_death_claims=True,
    colours_reversed_moves=None,
)
"""US Chess, 7th edition: delay clocks (parse the control with ``parse_us``), 14E on a flag,
11D +2 minutes per illegal move, 14H insufficient losing chances, 14K no automatic
fivefold / 75-move draw (the director may declare one)."""

USCF_BLITZ: Final = replace(
    USCF,
    name="uscf-blitz",
    category=Category.BLITZ,
    input_mode=replace(
        USCF_BOARD,
        illegal_move_penalty_ms=0,
        illegal_moves_to_lose=1,
        illegal_loss_drawn_if_opponent_cannot_mate=True,
    ),
    sudden_death_claims=False,
)
"""US Chess blitz: a completed illegal move loses when the opponent claims it (a recorded
illegal move is that claim); the claimant needs mating material; no 14H claims."""

ONLINE: Final = RuleProfile(
    name="online",
    input_mode=InputMode.DIGITAL,
    clock_start=Start.BOTH_MOVED,
    flags_automatic=True,
    draw_claims_automatic=True,
    incorrect_claims_rejected=True,
    claim_penalty_ms=0,
    claim_is_offer=False,
    resignation_drawn_if_opponent_cannot_mate=False,
    sudden_death_bonus_ms=0,
    outage=Outage.RESUME,
    takebacks=True,
    players_give_time=True,
    abandonment_ms=ABANDONMENT_MS,
)
"""A game server: digital input, clocks start once both have moved, flags fall by themselves,
threefold and 50 moves are drawn automatically (or claimed by button)."""

PROFILES: Final[dict[str, RuleProfile]] = {
    p.name: p
    for p in (FIDE_2023, FIDE_2023_RAPID, FIDE_2023_BLITZ, FIDE_2000, USCF, USCF_BLITZ, ONLINE)
}


def get_profile(name: str) -> RuleProfile:
    """The named profile; ``ValueError`` listing the known names otherwise."""
    try:
        return PROFILES[name]
    except KeyError:
        known = sorted(PROFILES)
        raise ValueError(f"unknown rule profile {name!r}: expected one of {known}") from None


AUTO_PROFILES: Final[dict[Category, str]] = {
    Category.STANDARD: "fide-2023",
    Category.RAPID: "fide-2023-rapid",
    Category.BLITZ: "fide-2023-blitz",
}
"""The profile ``auto`` chooses for a control's category (F23 Appendices A.1, B.1)."""


def require_playable_under(profile: RuleProfile, control: TimeControl | None) -> None:
    """``ValueError`` when ``profile`` does not play ``control``: a correspondence deadline
    under a profile that does not play correspondence (:attr:`plays_correspondence`)."""
    if control is not None and control.periods[0].mode is BonusMode.DEADLINE \
            and not profile.plays_correspondence:
        playing = sorted(p.name for p in PROFILES.values() if p.plays_correspondence)
        raise ValueError(
            f"the {profile.name} profile does not play correspondence (days per move): its "
            f"flags are observed by an arbiter at the board (Art. 6.8); expected {playing}")


def profile_for(control: TimeControl | None, name: str = "auto") -> RuleProfile:
    """The named profile; ``auto``: FIDE 2023 for the control's category (standard for an
    untimed game), ``online`` for correspondence (days per move). ``ValueError`` for an
    unknown name."""
    if name == "auto" and control is not None and \
            control.periods[0].mode is BonusMode.DEADLINE:
        name = ONLINE.name
    if name == "auto":
        name = AUTO_PROFILES[classify(control) if control is not None else Category.STANDARD]
    return get_profile(name)

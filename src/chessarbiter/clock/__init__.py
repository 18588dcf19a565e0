"""The clock (Laws Art. 6): time controls and the chess clock, pure and I/O-free."""

from chessarbiter.clock.category import Category, classify
from chessarbiter.clock.clock import Clock, monotonic_ms
from chessarbiter.clock.comments import (
    find_clk,
    find_command,
    find_emt,
    format_clk,
    format_clock_time,
    format_emt,
    parse_clock_time,
    strip_commands,
)
from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.clock.correspondence import (
    DAYS_PER_TURN,
    CorrespondenceError,
    correspondence,
    days_per_turn,
    deadline_ms,
    format_correspondence,
    parse_correspondence,
)
from chessarbiter.clock.errors import ClockError, TimeControlError
from chessarbiter.clock.format import (
    format_engine,
    format_human,
    format_pgn_tag,
    format_units,
    format_us,
)
from chessarbiter.clock.parse import (
    NoControl,
    parse_control,
    parse_cutechess,
    parse_engine,
    parse_human,
    parse_pgn_tag,
    parse_us,
    require_playable,
)
from chessarbiter.clock.records import Flag, Press, Side, Start

__all__ = [
    "DAYS_PER_TURN",
    "BonusMode",
    "Category",
    "Clock",
    "ClockError",
    "CorrespondenceError",
    "Flag",
    "NoControl",
    "Period",
    "Press",
    "Side",
    "Start",
    "TimeControl",
    "TimeControlError",
    "classify",
    "correspondence",
    "days_per_turn",
    "deadline_ms",
    "find_clk",
    "find_command",
    "find_emt",
    "format_clk",
    "format_clock_time",
    "format_correspondence",
    "format_emt",
    "format_engine",
    "format_human",
    "format_pgn_tag",
    "format_units",
    "format_us",
    "monotonic_ms",
    "parse_clock_time",
    "parse_control",
    "parse_correspondence",
    "parse_cutechess",
    "parse_engine",
    "parse_human",
    "parse_pgn_tag",
    "parse_us",
    "require_playable",
    "strip_commands",
]

"""The arbiter's words made readable for players: moves in SAN instead of UCI, no FEN,
article numbers without the 2000 rules' keys in parentheses (``help`` explains the key once),
and time controls in plain words. Presentation only: the arbiter's own texts are unchanged.
"""

from __future__ import annotations

import re
from typing import Final

from chessarbiter.clock.controls import BonusMode, Period, TimeControl
from chessarbiter.core.errors import ChessError
from chessarbiter.core.position import Position
from chessarbiter.notation.san import write_san
from chessarbiter.present.spoken import spoken_move

RULEBOOK_KEY: Final = (
    "Articles are those of the FIDE Laws of Chess (2023); 'Guidelines' are their appendix "
    "of guidelines; a number after S, as in S9.5b, is an article of the 2000 Laws, cited for "
    "rules only they have."
)

_UCI: Final = re.compile(r"\b([a-h][1-8])([a-h][1-8])([qrbn]?)\b")
_ROW: Final = r"[1-8pnbrqkPNBRQK]{1,8}"
_FEN: Final = re.compile(
    rf"(?: in)? {_ROW}(?:/{_ROW}){{7}} [wb] [KQkqA-Ha-h-]+ (?:[a-h][36]|-) \d+ \d+"
)
_OLD_KEYS: Final = re.compile(r" \(S\d[\w.]*(?:, \d[\w.]*)*\)")
_RESULTS: Final = {"1-0": "white wins", "0-1": "black wins", "1/2-1/2": "draw",
                   "0-0": "both lose"}
_RESULT: Final = re.compile(r"(?<![\w/-])(1/2-1/2|1-0|0-1|0-0)(?![\w/-])")
_SECONDS: Final = re.compile(r"\b(\d+) s\b")


def readable(text: str, pos: Position, *, spoken: bool = False) -> str:
    """``text`` with each UCI move legal in ``pos`` written in SAN (others as ``e2-e5``),
    without FEN, and with article references in the form ``Art. 9.5``. ``spoken`` says
    moves, results and seconds in words for a screen reader."""
    text = _FEN.sub("", " " + text)[1:]
    text = _OLD_KEYS.sub("", text)
    text = text.replace("(F23 ", "(Art. ").replace("Art. Guidelines", "Guidelines")

    def move(match: re.Match[str]) -> str:
        try:
            legal = pos.parse_uci(match.group(0))
        except ChessError:
            return f"{match.group(1)}-{match.group(2)}{match.group(3).upper()}"
        if not spoken:
            return write_san(pos, legal)
        words = spoken_move(pos, legal)
        for suffix in (", checkmate", ", check", ", stalemate"):
            words = words.removesuffix(suffix)
        return words

    text = _UCI.sub(move, text)
    if spoken:
        text = _RESULT.sub(lambda m: _RESULTS[m.group(1)], text)
        text = _SECONDS.sub(r"\1 seconds", text)
    return text


def _duration(ms: int) -> str:
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    parts = [
        f"{count} {unit}{'s' if count != 1 else ''}"
        for count, unit in ((hours, "hour"), (minutes, "minute"), (seconds, "second"))
        if count
    ]
    return " ".join(parts) or "no time"


def _period(period: Period, first: bool) -> str:
    time = _duration(period.time_ms)
    if period.moves is not None:
        text = f"{period.moves} moves in {time}"
    else:
        text = f"{time} each" if first else f"then {time} for the rest of the game"
    bonus = _duration(period.bonus_ms)
    if period.mode is BonusMode.INCREMENT:
        text += f", plus {bonus} a move"
    elif period.mode is BonusMode.DELAY:
        text += f", with a {bonus} delay a move"
    elif period.mode is BonusMode.BRONSTEIN:
        text += f", with a Bronstein delay of {bonus}"
    elif period.mode is BonusMode.HOURGLASS:
        text += ", hourglass"
    return text


def control_words(control: TimeControl | None) -> str:
    """A time control in words: ``5 minutes each, plus 3 seconds a move``."""
    if control is None:
        return "no clock"
    return "; ".join(_period(p, i == 0) for i, p in enumerate(control.periods))

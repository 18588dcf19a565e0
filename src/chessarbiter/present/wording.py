"""The arbiter's words made readable for players: moves in SAN instead of UCI, no FEN,
article numbers without the 2000 rules' keys in parentheses (``help`` explains the key once).
Presentation only: the arbiter's own texts are unchanged.
"""

from __future__ import annotations

import re
from typing import Final

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

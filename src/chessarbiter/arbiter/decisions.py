"""What the arbiter decided in answer to an event: each decision cites its article."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Decision:
    """One ruling or consequence: ``article`` (F23 numbering, ``S`` = 2000 rules) and ``text``
    as it would go on the scoresheet or to the players."""

    article: str
    text: str

    def __str__(self) -> str:
        return f"{self.text} (Art. {self.article})"

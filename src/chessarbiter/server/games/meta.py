"""What the server keeps about a game beside its log: who plays each side, how the game was
made and whether it was aborted (the rules, the control and the position are the log's)."""

from __future__ import annotations

import json
import secrets
import string
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Final

from chessarbiter.clock.records import Side

ID_LETTERS: Final = string.ascii_letters + string.digits
ID_LENGTH: Final = 8


def new_id() -> str:
    """A random public id of 8 letters and digits (as lichess' game ids)."""
    return "".join(secrets.choice(ID_LETTERS) for _ in range(ID_LENGTH))


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays one side: a named account (``account``, its id), an anonymous player who
    holds the game secret whose hash is ``secret_hash``, or an engine (``engine``: a
    ``engine:LEVEL`` or ``uci:...`` spec; ``level`` for the built-in engine)."""

    name: str = "Anonymous"
    account: str | None = None
    secret_hash: str | None = None
    engine: str | None = None
    level: int | None = None

    @property
    def is_engine(self) -> bool:
        return self.engine is not None


@dataclass(frozen=True, slots=True)
class GameMeta:
    """A game's players and origin: ``source`` is ``friend`` (a direct challenge), ``open``
    (an open challenge), ``ai`` (against an engine) or ``lobby`` (a seek); ``creator`` is
    the account that made it (``None``: anonymous); ``created_ms`` is wall time."""

    id: str
    store_id: str
    white: Seat
    black: Seat
    created_ms: int
    source: str = "friend"
    creator: str | None = None
    rated: bool = False
    aborted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def seat(self, side: Side) -> Seat:
        return self.white if side is Side.WHITE else self.black

    def aborting(self) -> GameMeta:
        return replace(self, aborted=True)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> GameMeta:
        """The meta :meth:`to_json` wrote; ``ValueError`` if it is not."""
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("game meta: not a JSON object")
        try:
            data["white"] = Seat(**data["white"])
            data["black"] = Seat(**data["black"])
            return cls(**data)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"game meta: {exc}") from None

"""The lobby of one process: its challenges and seeks in memory (as lichess keeps them, for
minutes)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from chessarbiter.server.accounts import Account
from chessarbiter.server.errors import ApiError
from chessarbiter.server.limits import CHALLENGE_EXPIRY_MS
from chessarbiter.server.lobby.requests import GameRequest
from chessarbiter.server.lobby.store import Challenge, Pair, Seated


@dataclass
class Seek:
    """A seek waiting for an opponent: by an account, or anonymous (``account`` ``None``,
    playing with the game secret handed out at pairing)."""

    account: Account | None
    request: GameRequest
    paired: asyncio.Future[Seated] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future())


class MemoryLobby:
    """A :class:`~chessarbiter.server.lobby.store.LobbyStore` in memory; challenges expire
    :data:`CHALLENGE_EXPIRY_MS` after they were made by ``now_ms`` (the server's time
    source)."""

    def __init__(self, now_ms: Callable[[], int]) -> None:
        self.now_ms = now_ms
        self.challenges: dict[str, Challenge] = {}
        self.seeks: list[Seek] = []
        self._made: deque[tuple[int, str]] = deque()
        """When each challenge was made, oldest first (the time source is monotonic): the
        expired ones are found at the front, whatever the number kept."""
        self._of: dict[str, dict[str, None]] = {}
        """Each account's challenges, made and received, by id, in the order made."""

    async def keep(self, challenge: Challenge) -> None:
        self.expire()
        self.challenges[challenge.id] = challenge
        self._made.append((challenge.created_ms, challenge.id))
        for account in (challenge.challenger.id, challenge.dest.id):
            self._of.setdefault(account, {})[challenge.id] = None

    def expire(self) -> None:
        """Forget the challenges unanswered for :data:`CHALLENGE_EXPIRY_MS`."""
        oldest = self.now_ms() - CHALLENGE_EXPIRY_MS
        while self._made and self._made[0][0] <= oldest:
            self._forget(self._made.popleft()[1])

    def _forget(self, challenge_id: str) -> Challenge | None:
        challenge = self.challenges.pop(challenge_id, None)
        if challenge is not None:
            for account in (challenge.challenger.id, challenge.dest.id):
                ids = self._of.get(account)
                if ids is not None:
                    ids.pop(challenge_id, None)
                    if not ids:
                        del self._of[account]
        return challenge

    async def find(self, challenge_id: str) -> Challenge:
        self.expire()
        challenge = self.challenges.get(challenge_id)
        if challenge is None:
            raise ApiError(404, f"no open challenge {challenge_id[:40]!r}")
        return challenge

    async def take(self, challenge: Challenge) -> None:
        if self._forget(challenge.id) is None:
            raise ApiError(404, f"no open challenge {challenge.id!r}")

    async def pending_for(self, account: Account) -> tuple[list[Challenge], list[Challenge]]:
        self.expire()
        mine = [self.challenges[i] for i in self._of.get(account.id, {})]
        incoming = [c for c in mine if c.dest.id == account.id]
        outgoing = [c for c in mine if c.challenger.id == account.id]
        return incoming, outgoing

    async def seek(self, account: Account | None, request: GameRequest, pair: Pair
                   ) -> Seated:
        for other in self.seeks:
            if other.paired.done() or not other.request.pairs_with(request):
                continue
            if account is not None and other.account is not None and \
                    other.account.id == account.id:
                continue
            self.seeks.remove(other)
            try:
                paired = await pair(other.account, other.request.color, account, request)
            except BaseException as exc:  # the waiting seeker is told, not left waiting
                if not other.paired.done():
                    other.paired.set_exception(exc)
                raise
            if not other.paired.done():
                other.paired.set_result(paired.waiting)
            return paired.coming
        seek = Seek(account, request)
        self.seeks.append(seek)
        try:
            return await asyncio.shield(seek.paired)
        finally:
            if seek in self.seeks:
                self.seeks.remove(seek)

    def close(self) -> None:
        for seek in self.seeks:
            if not seek.paired.done():
                seek.paired.cancel()
        self.seeks.clear()

    async def aclose(self) -> None:
        """Nothing to disconnect."""

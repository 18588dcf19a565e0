"""What a spectator of ``/api/stream/game/{id}`` sees (lichess' ``MoveStream``): the game,
a line per move (the position, the move, both clocks as they were after it), the game
again at its end. As lichess documents it, an ongoing game is shown :data:`DELAY_PLIES`
behind: a line is sent once that many moves have followed it, so the stream cannot feed
an engine's help to a player; the withheld lines come out when the game ends, before it."""

from __future__ import annotations

from typing import Any, Final

from chessarbiter.clock.records import Side
from chessarbiter.core.position import Position
from chessarbiter.server.games import shapes
from chessarbiter.server.games.table import HubGame, ndjson

SPECTATORS: Final = "/api/stream/game/"
"""The path of a game's spectators' stream (lichess' ``MoveStream``, ``SPECTATORS + id``): in
a cluster served by the game's owner and passed on whoever asks (a board stream is passed on
only to who says who he is)."""

DELAY_PLIES: Final = 3
"""How many moves behind an ongoing game its spectators' stream runs (lichess' delay)."""


class Spectated:
    """One spectator's view of ``entry``: :meth:`first`, then :meth:`lines` after every
    update of the game (the lines now due), :meth:`last` once it is over."""

    def __init__(self, entry: HubGame) -> None:
        self.entry = entry
        self.seen: list[str] = []
        """The moves shown so far."""
        self.position = self._replayed(self._due())

    def first(self) -> bytes:
        """The game, as far as it is shown."""
        return ndjson(self._game())

    def lines(self) -> list[bytes]:
        """The lines due since the last call: the moves now :data:`DELAY_PLIES` old (a
        takeback behind what was shown shows the position it went back to, which was
        shown already)."""
        moves = self.entry.moves
        found = []
        if moves[:len(self.seen)] != self.seen:
            kept = next((i for i, (shown, now)
                         in enumerate(zip(self.seen, moves, strict=False))
                         if shown != now), min(len(self.seen), len(moves)))
            self.position = self._replayed(kept)
            found.append(ndjson(self._move_line()))
        while len(self.seen) < self._due():
            self.seen.append(moves[len(self.seen)])
            self.position.push(self.position.parse_uci(self.seen[-1]))
            found.append(ndjson(self._move_line()))
        return found

    def last(self) -> list[bytes]:
        """The lines withheld, then the game whole (its end)."""
        return [*self.lines(), ndjson(self._game())]

    def _due(self) -> int:
        """How many moves may be shown now."""
        plies = len(self.entry.moves)
        return plies if self.entry.over else max(0, plies - DELAY_PLIES)

    def _replayed(self, plies: int) -> Position:
        """The position after the game's first ``plies`` moves, now the ones shown."""
        game = self.entry.game
        position = Position(game.start_fen, chess960=game.setup.chess960)
        self.seen = self.entry.moves[:plies]
        for text in self.seen:
            position.push(position.parse_uci(text))
        return position

    def _game(self) -> dict[str, Any]:
        entry = self.entry
        data = shapes.move_stream_game(entry.game, entry.meta, self.seen)
        data["fen"] = fen = self.position.fen()
        data["player"] = "white" if fen.split()[1] == "w" else "black"
        return data

    def _move_line(self) -> dict[str, Any]:
        board, turn = self.position.fen().split()[:2]
        white, black = self._clocks()
        line: dict[str, Any] = {"fen": f"{board} {turn}", "wc": max(white, 0) // 1000,
                                "bc": max(black, 0) // 1000}
        if self.seen:
            line["lm"] = self.seen[-1]
        return line

    def _clocks(self) -> tuple[int, int]:
        """Each side's display after the last move shown (its ``%clk``), or the first
        period's time before its first move."""
        first = shapes.clock(self.entry.game.setup.control)
        shown = [shapes.NO_CLOCK_MS if first is None else first["initial"]] * 2
        for record in self.entry.game.records[:len(self.seen)]:
            if record.clock_ms is not None:
                shown[record.side is Side.BLACK] = record.clock_ms
        return shown[0], shown[1]

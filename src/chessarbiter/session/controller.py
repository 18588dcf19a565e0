"""The players' side of the table: a typed line becomes an action on the live game, and
what happened comes back as lines to show or speak (the same for every interface)."""

from __future__ import annotations

from dataclasses import dataclass, field

from chessarbiter.arbiter.decisions import Decision
from chessarbiter.arbiter.errors import ArbiterError
from chessarbiter.arbiter.events import ClaimKind
from chessarbiter.clock.records import Side
from chessarbiter.core.errors import ChessError
from chessarbiter.notation.san import legal_san
from chessarbiter.present.board import board_lines
from chessarbiter.present.clocks import format_ms
from chessarbiter.present.moves import move_words
from chessarbiter.present.spoken import spoken_file, spoken_pieces, spoken_rank
from chessarbiter.present.wording import RULEBOOK_KEY, readable
from chessarbiter.session.commands import Command, help_text, read_command
from chessarbiter.session.live import LiveGame, read_move


@dataclass
class Reply:
    """What to tell the players; ``quit``/``flip`` ask the interface to stop or turn the
    board, ``moved`` says a move was played."""

    lines: list[str] = field(default_factory=list)
    quit: bool = False
    flip: bool = False
    moved: bool = False


class Controller:
    """Runs typed commands for the people at the board. ``spoken`` answers in words;
    ``keys`` are lines the interface adds to ``help`` (its keyboard shortcuts)."""

    def __init__(self, live: LiveGame, *, spoken: bool = False, unicode: bool = True) -> None:
        self.live = live
        self.spoken = spoken
        self.unicode = unicode
        self.keys: list[str] = []

    def handle(self, line: str, side: Side | None = None) -> Reply:
        """Run one line for ``side`` (default: the player having the move)."""
        command = read_command(line)
        if command is None:
            return Reply()
        actor = side if side is not None else self.live.game.to_move
        try:
            return self._run(command, actor)
        except (ArbiterError, ChessError, ValueError) as exc:
            return Reply([self.readable(f"{exc}")])

    def readable(self, text: str) -> str:
        """An arbiter's text for the players: SAN moves, no FEN, plain article numbers."""
        return readable(text, self.live.game.position(), spoken=self.spoken)

    def _run(self, command: Command, side: Side) -> Reply:
        live = self.live
        game = live.game
        name = command.name
        if name == "move":
            pos = game.position()
            move = read_move(pos, command.args[0])
            words = move_words(pos, move, spoken=self.spoken)
            decisions = live.move(side, pos.uci(move), offer_draw=command.offer_draw)
            if command.offer_draw:
                words += " (=)" if not self.spoken else ", offers a draw"
            return Reply([words, *self.report(decisions)], moved=True)
        if name == "offer":
            return Reply(["draw offered", *self.report(live.offer(self._side(command, side)))])
        if name in ("accept", "decline"):
            offerer = game.pending_offer
            answering = offerer.opponent if offerer is not None else side
            act = live.accept if name == "accept" else live.decline
            return Reply(self.report(act(answering)) or [f"draw offer {name}d"])
        if name == "claim":
            return Reply(self._claim(side, command))
        if name == "resign":
            return Reply(self.report(live.resign(self._side(command, side))))
        if name == "moves":
            return Reply(["legal moves: " + ", ".join(legal_san(game.position())) or "none"])
        if name == "clock":
            return Reply([self.clock_text()])
        if name == "board":
            pos = game.position()
            if self.spoken:
                return Reply([spoken_rank(pos, r) for r in range(8, 0, -1)])
            return Reply(board_lines(pos, unicode=self.unicode))
        if name == "rank":
            rank = _one(command, "a rank 1-8")
            if len(rank) != 1 or rank not in "12345678":
                raise ValueError(f"no rank {rank[:20]!r}: ranks are 1 to 8")
            return Reply([spoken_rank(game.position(), int(rank))])
        if name == "file":
            return Reply([spoken_file(game.position(), _one(command, "a file a-h").lower())])
        if name == "pieces":
            pos = game.position()
            if command.args:
                return Reply([spoken_pieces(pos, _colour(command.args[0]))])
            return Reply([spoken_pieces(pos, 0), spoken_pieces(pos, 1)])
        if name == "flip":
            if self.spoken:
                return Reply(["there is no board on screen to turn: try board, rank or file"])
            return Reply(flip=True)
        if name == "help":
            lines = help_text(without=("flip",) if self.spoken else ()).splitlines()
            return Reply([*lines, *self.keys, RULEBOOK_KEY])
        return Reply(quit=True)  # "quit"

    def _side(self, command: Command, default: Side) -> Side:
        return _colour(command.args[0]) if command.args else default

    def _claim(self, side: Side, command: Command) -> list[str]:
        kind_text, intended = command.args
        pos = self.live.game.position()
        if kind_text:
            kind = ClaimKind(kind_text)
        else:  # the 50-move rule when its count is reached, else repetition
            kind = ClaimKind.FIFTY_MOVES if pos.halfmove_clock >= 99 else ClaimKind.THREEFOLD
        decisions = self.live.claim(side, kind, intended or None)
        return self.report(decisions) or ["claim recorded"]

    def report(self, decisions: tuple[Decision, ...]) -> list[str]:
        """The arbiter's decisions as lines for the players, and the result once it is over."""
        lines = [self.readable(str(d)) for d in decisions]
        outcome = self.live.game.outcome
        if outcome is not None:
            lines.append(self.readable(f"game over: {outcome}"))
        return lines

    def clock_text(self) -> str:
        """Both clocks, in words a screen reader speaks well."""
        clocks = self.live.clocks()
        if clocks is None:
            return "no clock in this game"
        white, black = (format_ms(ms) for ms in clocks)
        return f"white {white}, black {black}"

    def status(self) -> str:
        """Whose move it is, a pending offer, or the result."""
        game = self.live.game
        if game.outcome is not None:
            return self.readable(f"game over: {game.outcome}")
        text = f"{game.to_move.name.lower()} to move"
        if game.pending_offer is not None:
            text += f"; {game.pending_offer.name.lower()} offers a draw"
        return text


def _one(command: Command, what: str) -> str:
    if len(command.args) != 1:
        raise ValueError(f"{command.name}: give {what}")
    return command.args[0]


def _colour(word: str) -> Side:
    lowered = word.lower()
    if lowered in ("white", "w"):
        return Side.WHITE
    if lowered in ("black", "b"):
        return Side.BLACK
    raise ValueError(f"{word!r} is not a side: say white or black")

"""The terminal's side of the table, for both modes: a typed line becomes an action on the
game (answered with the session's typed result) or a request to see it, and everything comes
back as lines to show or speak, rendered by :mod:`chessarbiter.present`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from chessarbiter.notation.san import legal_san
from chessarbiter.present.answers import answer_lines, clock_text, introduction, status_text
from chessarbiter.present.board import board_lines
from chessarbiter.present.help import help_text
from chessarbiter.present.spoken import spoken_file, spoken_pieces, spoken_rank
from chessarbiter.present.wording import RULEBOOK_KEY, readable
from chessarbiter.session.commands import ACTIONS, Command, Verb, read_command, side_named
from chessarbiter.session.live import RecordingError
from chessarbiter.session.play import Play, Thought
from chessarbiter.session.results import Answer


@dataclass
class Reply:
    """What to tell the players; ``quit``/``flip`` ask the interface to stop or turn the
    board."""

    lines: list[str] = field(default_factory=list)
    quit: bool = False
    flip: bool = False


class Console:
    """Runs typed lines for the people at the board. ``spoken`` answers in words (the
    accessible mode); ``keys`` are the interface's shortcuts ``help`` lists (key, what it does).
    A game whose record fails is announced stopped, once (:meth:`Play.failure` then tells
    the interface to end)."""

    def __init__(self, play: Play, *, spoken: bool = False, unicode: bool = True) -> None:
        self.play = play
        self.spoken = spoken
        self.unicode = unicode
        self.keys: list[tuple[str, str]] = []
        self.width: int | None = None
        """The width ``help`` is fitted to (``None``: one line a command, as spoken)."""
        self._told_failure = False

    def lines(self, *answers: Answer | None) -> list[str]:
        """The session's answers as lines (``None``: nothing to say)."""
        return [line for answer in answers if answer is not None
                for line in answer_lines(answer, spoken=self.spoken)]

    def handle(self, line: str) -> Reply:
        """A person's line, for the side :meth:`Play.human_side` says: a fallen flag is
        announced first. Once the game has stopped (its record failed) the reply quits."""
        with self.play.lock:
            try:
                if self.play.failure is not None:
                    raise self.play.failure
                flagged = self.lines(self.play.tick())
                reply = self._run(read_command(line))
            except RecordingError as exc:
                return Reply(self._stopped(exc), quit=True)
            reply.lines[:0] = flagged
            return reply

    def _stopped(self, exc: RecordingError) -> list[str]:
        """That the game has stopped and why, the first time it is said."""
        if self._told_failure:
            return []
        self._told_failure = True
        return [f"game stopped: {exc}"]

    def _recorded(self, run: Callable[[], list[str]]) -> list[str]:
        """The lines ``run`` gives, or, when the game's record fails, that it has stopped."""
        try:
            return run()
        except RecordingError as exc:
            return self._stopped(exc)

    def _run(self, command: Command | None) -> Reply:
        if command is None:
            return Reply()
        if command.name in ACTIONS:
            return Reply(self.lines(self.play.act(command, self.play.human_side())))
        try:
            return self._view(command)
        except ValueError as exc:
            return Reply([readable(f"{exc}", self.play.live.game.position(),
                                   spoken=self.spoken)])

    def _view(self, command: Command) -> Reply:
        pos = self.play.live.game.position()
        name = command.name
        if name is Verb.MOVES:
            return Reply(["legal moves: " + (", ".join(legal_san(pos)) or "none")])
        if name is Verb.CLOCK:
            return Reply([clock_text(self.play.live.clocks())])
        if name is Verb.BOARD:
            if self.spoken:
                return Reply([spoken_rank(pos, r) for r in range(8, 0, -1)])
            return Reply(board_lines(pos, unicode=self.unicode))
        if name is Verb.RANK:
            rank = _one(command, "a rank 1-8")
            if len(rank) != 1 or rank not in "12345678":
                raise ValueError(f"no rank {rank[:20]!r}: ranks are 1 to 8")
            return Reply([spoken_rank(pos, int(rank))])
        if name is Verb.FILE:
            return Reply([spoken_file(pos, _one(command, "a file a-h").lower())])
        if name is Verb.PIECES:
            if command.args:
                return Reply([spoken_pieces(pos, side_named(command.args[0]).value)])
            return Reply([spoken_pieces(pos, 0), spoken_pieces(pos, 1)])
        if name is Verb.FLIP:
            if self.spoken:
                return Reply(["there is no board on screen to turn: try board, rank or file"])
            return Reply(flip=True)
        if name is Verb.HELP:
            text = help_text(without=("flip",) if self.spoken else (), keys=self.keys,
                             width=self.width)
            return Reply([*text.splitlines(), RULEBOOK_KEY])
        return Reply(quit=True)  # quit

    def start(self) -> list[str]:
        """Start the game (or announce it resumed)."""
        return self._recorded(lambda: self.lines(self.play.start()))

    def tick(self) -> list[str]:
        """Look at the clocks: a fallen flag, announced."""
        return self._recorded(lambda: self.lines(self.play.tick()))

    def engine_move(self) -> list[str]:
        """The engine to move plays (blocking): its move, or its failure, announced."""
        return self._recorded(lambda: self.lines(*self.play.engine_move()))

    def play_thought(self, thought: Thought) -> list[str]:
        """An engine's answer (thought in another thread) played here, announced."""
        return self._recorded(lambda: self.lines(*self.play.play_thought(thought)))

    def status(self) -> str:
        """Whose move it is, a pending offer, or the result."""
        return status_text(self.play.situation(), spoken=self.spoken)

    def introduction(self) -> str:
        """Who plays which side, and the time control, in one sentence."""
        play = self.play
        names = {side: engine.name for side, engine in play.engines.items()}
        return introduction(play.humans(), names, play.live.game.setup.control)


def _one(command: Command, what: str) -> str:
    if len(command.args) != 1:
        raise ValueError(f"{command.name}: give {what}")
    return command.args[0]

"""The full-screen terminal game (Textual): the board, live clocks that tick while a player
thinks (low time highlighted), the latest moves in SAN, the pending offer, the result with
its article, the messages (which get the free space of the screen and scroll with PageUp and
PageDown), and a line to type moves and commands into.

Textual was chosen for its widgets, its timers (clocks redrawn ten times a second) and its
test pilot, which drives the real application headless in tests; the accessible mode is a
plain line interface instead (see :mod:`chessarbiter.tui.accessible`).
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.widgets import Input, RichLog, Static

from chessarbiter.clock.records import Side
from chessarbiter.present.board import board_lines
from chessarbiter.present.clocks import format_ms
from chessarbiter.present.moves import move_list
from chessarbiter.session.play import Play, Thought
from chessarbiter.tui.console import Console

LOW_TIME_MS = 30_000
"""A display under this many milliseconds is shown as low time."""


KEYS: Final = (
    ("PageUp / PageDown", "scroll these messages"),
    ("ctrl+f", "flip the board"),
    ("ctrl+q", "save and quit"),
)
"""The keys of the full screen, listed by ``help``."""


class GameApp(App[None]):
    """One game at one terminal."""

    TITLE = "chessarbiter"
    CSS = """
    #top { height: auto; }
    #board { width: 20; height: 10; margin: 1 2 0 2; }
    #side { width: 1fr; height: 10; margin: 1 1 0 1; }
    .clock { height: 1; }
    .clock.running { text-style: bold; }
    .clock.low { color: red; text-style: bold; }
    #status { height: 2; margin-top: 1; }
    #moves { height: 1fr; }
    #log { height: 1fr; border: round $primary; overflow-x: hidden; scrollbar-gutter: stable; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "leave", "save and quit"),
        Binding("ctrl+f", "flip", "flip board"),
        Binding("pageup", "scroll_log(-1)", "scroll the messages up", show=False),
        Binding("pagedown", "scroll_log(1)", "scroll the messages down", show=False),
    ]

    def __init__(self, play: Play, *, orientation: Side = Side.WHITE,
                 unicode: bool = True) -> None:
        super().__init__()
        self.play = play
        self.talk = Console(play, unicode=unicode)  # (``console`` is Textual's own)
        self.talk.keys = list(KEYS)
        self.orientation = orientation
        self.thinking = False
        self.leaving = False

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Static(id="board")
            with Vertical(id="side"):
                yield Static(id="top-clock", classes="clock")
                yield Static(id="bottom-clock", classes="clock")
                yield Static(id="status")
                yield Static(id="moves")
        yield RichLog(id="log", wrap=True, min_width=20)
        yield Input(placeholder="your move (Nf3, e2e4) or a command: help", id="entry")

    def on_mount(self) -> None:
        self.say([f"chessarbiter: {self.talk.introduction()}", *self.talk.start(),
                  "type help for the commands; PageUp and PageDown scroll these messages"])
        if self.stopped():
            return
        self.redraw()
        self.call_after_refresh(self.redraw)  # the move list now knows its height
        self.set_interval(0.1, self.tick)
        self.query_one("#entry", Input).focus()
        self.engine_if_due()

    def say(self, lines: list[str]) -> None:
        """Add lines to the messages; a reply taller than the pane shows from its start."""
        log = self.query_one("#log", RichLog)
        start = len(log.lines)
        for line in lines:
            log.write(line, scroll_end=False)
        if len(log.lines) - start > log.scrollable_content_region.height:
            log.scroll_to(y=start, animate=False, immediate=True)
        else:
            log.scroll_end(animate=False, immediate=True)

    def action_scroll_log(self, pages: int) -> None:
        log = self.query_one("#log", RichLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def stopped(self) -> bool:
        """End the application if the game has stopped (its record failed)."""
        if self.play.failure is None:
            return False
        if not self.leaving:
            self.action_leave()
        return True

    def tick(self) -> None:
        try:
            lines = self.talk.tick()
            if lines:
                self.say(lines)
                if self.stopped():
                    return
                self.redraw()
            else:
                self.draw_clocks()
        except NoMatches:  # the screen is being taken down
            pass

    def on_resize(self) -> None:
        self.call_after_refresh(self.redraw)

    def draw_clocks(self) -> None:
        clocks = self.play.live.clocks()
        game = self.play.live.game
        top, bottom = self.orientation.opponent, self.orientation
        for widget_id, side in (("#top-clock", top), ("#bottom-clock", bottom)):
            widget = self.query_one(widget_id, Static)
            name = side.name.lower()
            if clocks is None:
                widget.update(f"{name}: no clock")
                continue
            ms = clocks[side]
            running = not game.is_over and game.to_move is side
            widget.update(f"{'▶' if running else ' '} {name:5} {format_ms(ms)}")
            widget.set_class(running, "running")
            widget.set_class(ms < LOW_TIME_MS, "low")

    def redraw(self) -> None:
        self.talk.width = self.query_one("#log", RichLog).scrollable_content_region.width or None
        pos = self.play.live.game.position()
        self.query_one("#board", Static).update(
            "\n".join(board_lines(pos, orientation=self.orientation,
                                  unicode=self.talk.unicode))
        )
        self.draw_clocks()
        self.query_one("#status", Static).update(self.talk.status())
        moves = self.query_one("#moves", Static)
        moves.update(move_list(self.play.live.game.position(), moves.size.height or 12))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        reply = self.talk.handle(event.value)
        self.say([f"> {event.value}", *reply.lines])
        if reply.flip:
            self.action_flip()
        if reply.quit:
            self.action_leave()
            return
        self.redraw()
        self.engine_if_due()

    def engine_if_due(self) -> None:
        if not self.thinking and self.play.engine_to_move() is not None:
            self.thinking = True
            self.query_one("#status", Static).update(self.talk.status() + " …")
            self.run_worker(self._engine_thread, thread=True, exit_on_error=False)

    def _engine_thread(self) -> None:
        """Think in the worker; the answer is played in the application's thread."""
        thought = self.play.think()
        self.call_from_thread(self._engine_done, thought)

    def _engine_done(self, thought: Thought | None) -> None:
        self.thinking = False
        if thought is not None:
            self.say(self.talk.play_thought(thought))
        if self.stopped():
            return
        self.redraw()
        self.engine_if_due()

    def action_flip(self) -> None:
        self.orientation = self.orientation.opponent
        self.redraw()

    def action_leave(self) -> None:
        self.leaving = True
        self.play.close()
        self.exit(return_code=0 if self.play.failure is None else 1)

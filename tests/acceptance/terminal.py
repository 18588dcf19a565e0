"""A real terminal: a command run in a tmux session of a tmux server of its own (its own
socket, started with the installed program's environment), read from the screen and typed
into as a person types."""

from __future__ import annotations

import re
import shlex
import subprocess
import uuid
from collections.abc import Mapping
from pathlib import Path

from tests.acceptance.processes import WAIT_S, Proc, processes, wait_until

EXITED = re.compile(r"\[exited (\d+)\]")


class Terminal:
    """``command`` running in a 110x36 terminal; after it ends the screen shows
    ``[exited CODE]``."""

    def __init__(self, command: list[str], cwd: Path, env: Mapping[str, str]) -> None:
        self.socket = f"ca-acc-{uuid.uuid4().hex[:8]}"
        self._env = dict(env)
        shell = shlex.join(command) + '; echo "[exited $?]"; sleep 600'
        self._tmux("new-session", "-d", "-s", "t", "-x", "110", "-y", "36", "-c", str(cwd),
                   shell)
        self.shell = int(self._tmux("display-message", "-p", "-t", "t", "#{pane_pid}").strip())
        self.socket_path = Path(self._tmux("display-message", "-p", "#{socket_path}").strip())
        self.program = command[0]

    def _tmux(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], env=self._env,
                             capture_output=True, text=True, timeout=30)
        assert out.returncode == 0, f"tmux {args[0]}: {out.stderr}"
        return out.stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-J", "-t", "t")

    def wait_for(self, pattern: str, timeout_s: float = WAIT_S) -> re.Match[str]:
        """The first match of the regular expression ``pattern`` on the screen, waited for."""
        found: list[re.Match[str]] = []

        def shown() -> bool:
            match = re.search(pattern, self.screen())
            if match:
                found.append(match)
            return match is not None

        try:
            wait_until(shown, f"{pattern!r} on the screen", timeout_s)
        except AssertionError as exc:
            raise AssertionError(f"{exc}; the screen:\n{self.screen()}") from None
        return found[0]

    def keys(self, *keys: str) -> None:
        """Press keys named as tmux names them (``Enter``, ``C-c``)."""
        self._tmux("send-keys", "-t", "t", *keys)

    def type(self, line: str, echo: str | None = None) -> None:
        """Type ``line``, then Enter once it shows: as the pattern ``echo``, or by default at
        the end of the screen's last line (keys in one burst would read as a paste, whose
        line break an input field drops)."""
        self._tmux("send-keys", "-t", "t", "-l", line)
        if echo is None:
            wait_until(lambda: self.last_line().endswith(line),
                       f"{line!r} typed at the prompt; the screen:\n{self.screen()}")
        else:
            self.wait_for(echo)
        self.keys("Enter")

    def last_line(self) -> str:
        lines = [line.rstrip() for line in self.screen().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def program_process(self) -> Proc:
        """The command's process (a child of the terminal's shell)."""
        found: list[Proc] = []

        def started() -> bool:
            found[:] = [p for p in processes().values()
                        if p.ppid == self.shell and self.program in p.cmdline]
            return bool(found)

        wait_until(started, f"{self.program} running in the terminal")
        return found[0]

    def left_behind(self) -> list[Proc]:
        """Processes of the terminal's session still running the installed program's Python
        (the command and anything it started), once it has ended."""
        venv = str(Path(self.program).parent)
        return [p for p in processes().values()
                if p.session == self.shell and p.pid != self.shell and venv in p.cmdline]

    def exit_code(self, timeout_s: float = WAIT_S) -> int:
        """The command's exit code, once the screen shows it."""
        return int(self.wait_for(EXITED.pattern, timeout_s).group(1))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], env=self._env,
                       capture_output=True, timeout=30)
        self.socket_path.unlink(missing_ok=True)

"""Long-running commands as processes: their output read as it comes, bounded waits on what
they show, signals, and the process tree left behind (read from ``/proc``)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

WAIT_S = 60.0
POLL_S = 0.05
EXIT_S = 20.0
"""How long a command may take to stop after a signal."""


@dataclass(frozen=True)
class Proc:
    """A process as ``/proc`` shows it."""

    pid: int
    ppid: int
    session: int
    state: str
    cmdline: str


def processes() -> dict[int, Proc]:
    """Every live process (zombies excluded: they are dead, waiting to be reaped)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                errors="replace").strip()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] in "ZX":
            continue
        pid = int(entry.name)
        found[pid] = Proc(pid, int(fields[1]), int(fields[3]), fields[0], cmdline)
    return found


def descendants(pid: int) -> list[Proc]:
    """The live processes below ``pid`` in the process tree."""
    table = processes()
    below: list[Proc] = []
    parents = {pid}
    while True:
        more = [p for p in table.values() if p.ppid in parents and p not in below]
        if not more:
            return below
        below.extend(more)
        parents = {p.pid for p in more}


def cpu_s(pid: int) -> float:
    """The CPU time ``pid`` has used (user and system)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_until(condition: Callable[[], object], what: str, timeout_s: float = WAIT_S) -> None:
    """Poll ``condition`` until it is true; ``AssertionError`` naming ``what`` after
    ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout_s} s: {what}")
        time.sleep(POLL_S)


def no_orphans(alive: Callable[[], list[Proc]], what: str) -> None:
    """Wait (bounded) until ``alive()`` is empty; kill what is left and fail otherwise."""
    try:
        wait_until(lambda: not alive(), f"the processes of {what} ended", timeout_s=EXIT_S)
    except AssertionError:
        left = alive()
        for proc in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
        raise AssertionError(f"{what} left processes running: "
                             f"{[(p.pid, p.cmdline) for p in left]}") from None


class Running:
    """A command started in a session of its own (so what it starts can be found), its
    output collected as it comes."""

    def __init__(self, command: list[str], cwd: Path, env: Mapping[str, str],
                 stdin: bool = False) -> None:
        self.command = command
        self.process = subprocess.Popen(
            command, cwd=cwd, env=dict(env), text=True, start_new_session=True,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=1)
        self._out: list[str] = []
        self._err: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                         for stream, into in ((self.process.stdout, self._out),
                                              (self.process.stderr, self._err))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def stdout(self) -> str:
        return "".join(self._out)

    @property
    def stderr(self) -> str:
        return "".join(self._err)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, text: str, timeout_s: float = WAIT_S) -> None:
        """Wait until ``text`` appears on stdout (failing early if the command ends)."""
        def shown() -> bool:
            if text in self.stdout:
                return True
            if self.process.poll() is not None:
                for reader in self._readers:
                    reader.join(timeout=5)
                if text in self.stdout:
                    return True
                raise AssertionError(f"the command ended ({self.process.returncode}) before "
                                     f"showing {text!r}:\n{self.stdout[-2000:]}\n"
                                     f"{self.stderr[-2000:]}")
            return False

        wait_until(shown, f"{text!r} on stdout; so far:\n{self.stdout[-2000:]}", timeout_s)

    def members(self) -> list[Proc]:
        """The live processes of its session: itself and everything it started."""
        return [p for p in processes().values() if p.session == self.pid]

    def stop(self, signum: int) -> int:
        """Send ``signum`` and return the exit code once it has ended (bounded); every
        process it started must have ended too. SIGINT goes to the whole process group, as
        Ctrl-C at a terminal sends it; any other signal to the command's process alone, as
        ``kill PID`` sends it."""
        if signum == signal.SIGINT:
            os.killpg(self.pid, signum)
        else:
            self.process.send_signal(signum)
        try:
            code = self.process.wait(timeout=EXIT_S)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running {EXIT_S} s after signal {signum}; "
                                 f"stderr:\n{self.stderr[-2000:]}") from None
        for reader in self._readers:
            reader.join(timeout=5)
        no_orphans(self.members, " ".join(self.command))
        return code

    def close(self) -> None:
        """Kill whatever is left of it (the test's clean-up)."""
        for proc in self.members():
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
        self.process.wait(timeout=EXIT_S)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()

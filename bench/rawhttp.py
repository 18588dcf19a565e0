"""A lean HTTP/1.1 client for the load benches (``load_server.py`` and its noisy
neighbour): raw asyncio streams, one keep-alive connection per client, requests one at a
time, JSON or form-encoded bodies, answers with a Content-Length or chunked. A general
client (httpx) costs the bench more CPU per request than the server spends answering it,
and on a small machine the bench's CPU is taken from the server it measures."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.parse
from collections.abc import AsyncIterator
from typing import Any, NamedTuple

JSON = b"application/json"
FORM = b"application/x-www-form-urlencoded"


class Answer(NamedTuple):
    status: int
    body: bytes
    headers: dict[bytes, bytes]
    """Names in lower case."""

    def json(self) -> Any:
        return json.loads(self.body)


class RawConnection:
    """One HTTP/1.1 keep-alive connection, requests one at a time (reopened when the server
    closed it, said it would, or it stayed idle long enough for the server to)."""

    IDLE = 4.0  # reopen rather than reuse after this long (servers close idle ones at ~5 s)

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self._io: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._used = 0.0
        self._host = f"Host: {host}:{port}\r\n".encode()

    @classmethod
    def to(cls, url: str) -> RawConnection:
        """A connection to the server of ``url`` (``http://host:port``)."""
        parsed = urllib.parse.urlsplit(url)
        return cls(parsed.hostname or "127.0.0.1", parsed.port or 80)

    def _reusable(self) -> bool:
        return (self._io is not None and not self._io[0].at_eof()
                and time.monotonic() - self._used < self.IDLE)

    def _head(self, method: str, path: str, token: str | None, body: bytes,
              kind: bytes) -> bytes:
        head = [f"{method} {path} HTTP/1.1\r\n".encode(), self._host]
        if token is not None:
            head.append(f"Authorization: Bearer {token}\r\n".encode())
        if method == "POST":
            head.append(b"Content-Length: %d\r\n" % len(body))
            if body:
                head.append(b"Content-Type: " + kind + b"\r\n")
        head.append(b"\r\n")
        head.append(body)
        return b"".join(head)

    async def request(self, method: str, path: str, token: str | None = None,
                      data: dict[str, object] | None = None,
                      form: dict[str, str] | None = None,
                      timeout: float | None = None) -> Answer:
        """``method path`` with ``data`` as JSON or ``form`` form-encoded, ``token`` as a
        Bearer token; at most ``timeout`` seconds (``TimeoutError``). A reused connection
        the server closed before answering is reopened and the request sent once more."""
        if form is not None:
            body, kind = urllib.parse.urlencode(form).encode(), FORM
        else:
            body, kind = (json.dumps(data).encode() if data else b""), JSON
        message = self._head(method, path, token, body, kind)
        try:
            async with (asyncio.timeout(timeout) if timeout is not None
                        else contextlib.nullcontext()):
                if self._reusable():
                    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
                        return await self._exchange(message)
                    await self.close()
                return await self._exchange(message)
        except BaseException:
            await self.close()  # in an unknown state: the next request opens a new one
            raise

    async def _exchange(self, message: bytes) -> Answer:
        io = self._io if self._reusable() else None
        if io is None:
            await self.close()
            io = self._io = await asyncio.open_connection(self.host, self.port)
        reader, writer = io
        writer.write(message)
        status, headers = await read_head(reader)
        if b"chunked" in headers.get(b"transfer-encoding", b""):
            body = b"".join([c async for c in chunks(reader)])
        else:
            body = await reader.readexactly(int(headers.get(b"content-length", b"0")))
        if headers.get(b"connection", b"").lower() == b"close":
            await self.close()
        self._used = time.monotonic()
        return Answer(status, body, headers)

    @contextlib.asynccontextmanager
    async def stream(self, path: str, token: str) -> AsyncIterator[AsyncIterator[bytes]]:
        """``GET path`` on a connection of its own: the body's NDJSON lines as they come."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(self._head("GET", path, token, b"", JSON))
            status, headers = await read_head(reader)
            if status != 200:
                raise RuntimeError(f"GET {path}: {status}")
            chunked = b"chunked" in headers.get(b"transfer-encoding", b"")
            yield ndjson(chunks(reader) if chunked else _raw(reader))
        finally:
            writer.close()

    async def close(self) -> None:
        if self._io is not None:
            self._io[1].close()
            self._io = None


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[bytes, bytes]]:
    """The status and the headers (names in lower case) of an answer."""
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("the server closed the connection")
    status = int(status_line.split(None, 2)[1])
    headers: dict[bytes, bytes] = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            return status, headers
        name, _, value = line.partition(b":")
        headers[name.strip().lower()] = value.strip()


async def chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """A chunked body's chunks."""
    while True:
        size = int((await reader.readline()).split(b";")[0], 16)
        if size == 0:
            await reader.readline()
            return
        data = await reader.readexactly(size + 2)
        yield data[:-2]


async def _raw(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    while data := await reader.read(65536):
        yield data


async def ndjson(parts: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """NDJSON lines (keep-alive empty lines left out) out of a body's parts."""
    rest = b""
    async for part in parts:
        rest += part
        *whole, rest = rest.split(b"\n")
        for line in whole:
            if line.strip():
                yield line


async def post_ok(client: RawConnection, path: str, token: str | None = None,
                  form: dict[str, str] | None = None, timeout: float = 60.0) -> Any:
    """``POST path`` that must succeed: its JSON answer (``RuntimeError`` naming the path,
    the status and the start of the body otherwise)."""
    answer = await client.request("POST", path, token, form=form, timeout=timeout)
    if answer.status != 200:
        raise RuntimeError(f"POST {path}: {answer.status} {answer.body[:200]!r}")
    return answer.json()

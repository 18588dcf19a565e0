"""Running ``chessarbiter check`` (the parser is in ``check_cmd``): the audit of every game,
printed as text or JSON, with a summary."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Final, TextIO

from chessarbiter.arbiter.audit import CLAIM, ERROR, NOTE, WARNING
from chessarbiter.cli.check_parts import (
    Options,
    Part,
    Report,
    audit_part,
    parts,
    stream_reports,
)

_PROGRESS_EVERY_S = 0.5
SHOWN_PER_CODE: Final = 5
"""Findings of one kind printed for a game in text; a line counts the rest."""


def audit_files(args: argparse.Namespace) -> int:
    """Audit every game of every file; print text or JSON; 1 if any game breaks the Laws."""
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    summary = _Summary()
    options = Options(strict=args.strict, letters=args.letters)
    out = sys.stdout
    if args.json:
        out.write('{"games": [')
    pool: ProcessPoolExecutor | None = None
    try:
        for path in args.files:
            if args.jobs > 1 and pool is None:
                pool = ProcessPoolExecutor(args.jobs)
            count = 0
            last = time.monotonic()
            try:
                for report in _reports(path, options, pool, args.jobs):
                    count += 1
                    summary.add(path, report)
                    if args.json:
                        out.write(("\n" if summary.games == 1 else ",\n")
                                  + json.dumps(_game_json(path, count, report), indent=1,
                                               ensure_ascii=False))
                    else:
                        _print_game(path, count, report, args.quiet, out)
                    if progress and time.monotonic() - last > _PROGRESS_EVERY_S:
                        last = time.monotonic()
                        print(f"\r{path}: {count:,} games", end="", file=sys.stderr, flush=True)
            except OSError as exc:
                summary.unreadable.append(f"{path}: {exc.strerror or exc}")
                print(f"chessarbiter check: error: cannot read {path}: {exc.strerror or exc}",
                      file=sys.stderr)
            if progress:
                print(f"\r{path}: {count:,} games", file=sys.stderr, flush=True)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    result = summary.json()
    if args.json:
        out.write('\n],\n"summary": ')
        json.dump(result, out, indent=1, ensure_ascii=False)
        print("}", file=out)
    else:
        _print_summary(result, out)
    return 1 if summary.with_errors or summary.unreadable else 0


def _reports(
    path: str, options: Options, pool: ProcessPoolExecutor | None, jobs: int
) -> Iterator[Report]:
    """The reports of a file's games in file order: read as one stream without a pool, else
    cut into parts audited ``jobs`` at a time (a few more read ahead)."""
    with open(path, encoding="utf-8", errors="replace", newline="") as stream:
        if pool is None:
            yield from stream_reports(stream, options)
            return
        source = parts(stream)
        pending: deque[tuple[Part, Future[tuple[list[Report], bool]] | None]] = deque()
        exhausted = False
        while True:
            while not exhausted and len(pending) <= 2 * jobs:
                part = next(source, None)
                if part is None:
                    exhausted = True
                else:
                    pending.append((part, None))
            if not pending:
                return
            if len(pending) > 1:  # a file of one part is audited here, without processes
                for at, (part, future) in enumerate(pending):
                    if future is None and part.rest is None:
                        pending[at] = (part, pool.submit(audit_part, part, options))
            part, future = pending.popleft()
            reports, open_comment = future.result() if future else audit_part(part, options)
            while open_comment:
                # the last game runs on into the next part: read the two as one
                if not pending and not exhausted:
                    following = next(source, None)
                    if following is None:
                        exhausted = True
                    else:
                        pending.append((following, None))
                if not pending:
                    break
                following, later = pending.popleft()
                if later is not None:
                    later.cancel()
                part = Part(part.text + following.text, part.first_line, following.rest)
                reports, open_comment = audit_part(part, options)
            yield from reports


def _title(report: Report) -> str:
    tags = report.tags
    event = ", ".join(v for v in (tags.get("Event"), tags.get("Round")) if v and v != "?")
    players = f"{tags.get('White', '?')} - {tags.get('Black', '?')}"
    return f"{players} ({event})" if event else players


def _print_game(path: str, index: int, report: Report, quiet: bool, out: TextIO) -> None:
    if quiet and not any(f.severity in (ERROR, WARNING) for f in report.findings):
        return
    status = "ERROR" if _errors(report) else "ok"
    ending = f", {report.ending}" if report.ending else ""
    print(f"{path}:{report.line}: game {index}: {_title(report)}: {report.result} "
          f"({report.plies} plies{ending}) {status}", file=out)
    shown: dict[str, int] = {}
    for finding in report.findings:
        count = shown[finding.code] = shown.get(finding.code, 0) + 1
        if count <= SHOWN_PER_CODE:
            print(f"  {finding.severity:7} {finding.code}: {finding.message}", file=out)
    for code, count in shown.items():
        if count > SHOWN_PER_CODE:
            print(f"  {'':7} {code}: and {count - SHOWN_PER_CODE} more (--json lists every one)",
                  file=out)


def _errors(report: Report) -> bool:
    return any(f.severity == ERROR for f in report.findings)


def _game_json(path: str, index: int, report: Report) -> dict[str, Any]:
    return {
        "file": path,
        "index": index,
        "line": report.line,
        "tags": report.tags,
        "result": report.result,
        "plies": report.plies,
        "ending": report.ending or None,
        "ok": not _errors(report),
        "findings": [
            {"severity": f.severity, "code": f.code, "message": f.message,
             "ply": f.ply or None, "move": f.move or None}
            for f in report.findings
        ],
    }


class _Summary:
    """The counts of the summary, kept as the reports go by."""

    def __init__(self) -> None:
        self.files: set[str] = set()
        self.unreadable: list[str] = []
        self.games = 0
        self.with_errors = 0
        self.counts = {WARNING: 0, NOTE: 0, CLAIM: 0}
        self.codes: dict[str, int] = {}

    def add(self, path: str, report: Report) -> None:
        self.files.add(path)
        self.games += 1
        self.with_errors += _errors(report)
        for severity in {f.severity for f in report.findings} & self.counts.keys():
            self.counts[severity] += 1
        for finding in report.findings:
            self.codes[finding.code] = self.codes.get(finding.code, 0) + 1

    def json(self) -> dict[str, Any]:
        return {
            "files": len(self.files) + len(self.unreadable),
            "unreadable_files": self.unreadable,
            "games": self.games,
            "games_with_errors": self.with_errors,
            "games_with_warnings": self.counts[WARNING],
            "games_with_void_moves": self.counts[NOTE],
            "claimable_draws": self.counts[CLAIM],
            "findings": dict(sorted(self.codes.items())),
        }


def _print_summary(summary: dict[str, Any], out: TextIO) -> None:
    print(f"\n{summary['games']} games in {summary['files']} files: "
          f"{summary['games_with_errors']} with errors, "
          f"{summary['games_with_warnings']} with warnings, "
          f"{summary['games_with_void_moves']} with void moves, "
          f"{summary['claimable_draws']} with a claimable draw", file=out)
    for code, count in summary["findings"].items():
        print(f"  {code}: {count}", file=out)
    if summary["games_with_errors"]:
        print(f"{ERROR}: the Laws are broken or a game could not be read", file=out)

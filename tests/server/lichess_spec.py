"""lichess' own OpenAPI description (``shared/clients/lichess-api/specs``, verbatim) as a
validator of this server's answers: an operation's response schema, its ``$ref``s resolved
from the specification's files by ``jsonschema_rs`` (a maintained JSON Schema validator)."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema_rs
import yaml  # type: ignore[import-untyped]

SPECS = Path(__file__).resolve().parents[2].parent / "shared" / "clients" / "lichess-api" / "specs"


@functools.cache
def _load(uri: str) -> Any:
    path = Path(uri.removeprefix("file://").split("#")[0])
    return yaml.safe_load(path.read_text())


def _tag_file(path: str) -> Path:
    ref = str(_load((SPECS / "lichess-api.yaml").as_uri())["paths"][path]["$ref"])
    return (SPECS / ref).resolve()


@functools.cache
def validator(method: str, path: str, status: int, media: str) -> Any:
    """The validator of lichess' ``path`` (as the specification writes it, e.g.
    ``/api/challenge/{username}``) answering ``method`` with ``status`` in ``media``."""
    tag = _tag_file(path)
    answers = _load(tag.as_uri())[method]["responses"]
    if str(status) not in answers and status == 400:  # an error lichess does not list
        return error_validator()
    schema = answers[str(status)]["content"][media]["schema"]
    base = tag.as_uri()
    if media == "application/x-ndjson" and "$ref" in schema:
        target = (tag.parent / schema["$ref"]).resolve()
        whole = _load(target.as_uri())
        if whole.get("type") == "array":  # a stream written as an array: a line is an item
            schema, base = {"anyOf": [whole, whole["items"]]}, target.as_uri()  # or all
    return jsonschema_rs.validator_for(schema, base_uri=base, retriever=_load)


@functools.cache
def error_validator() -> Any:
    """lichess' ``Error`` schema (``{"error": "..."}``)."""
    path = SPECS / "schemas" / "Error.yaml"
    return jsonschema_rs.validator_for(_load(path.as_uri()), base_uri=path.as_uri(),
                                       retriever=_load)


def violations(method: str, path: str, status: int, body: bytes, media: str) -> list[str]:
    """What in ``body`` (JSON, or NDJSON: every non-empty line) breaks lichess' schema."""
    check = validator(method, path, status, media)
    texts = [line for line in body.split(b"\n") if line.strip()] \
        if media == "application/x-ndjson" else [body]
    found = []
    for text in texts:
        data = json.loads(text)
        found += [f"{method.upper()} {path} {status}: {e.instance_path}: {e.message}"
                  for e in check.iter_errors(data)]
    return found

"""Locates the shared third-party corpus; tests fail with a clear message when it is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def corpus_path(*parts: str) -> Path:
    """Return a path inside ../shared/corpus, failing the test loudly if it is absent."""
    path = CORPUS.joinpath(*parts)
    if not path.exists():
        pytest.fail(
            f"test corpus file missing: {path} (the corpus must sit at ../shared/corpus "
            "beside the checkout)",
            pytrace=False,
        )
    return path

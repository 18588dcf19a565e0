"""The tuner (``bench/tune_eval.py``) counts the evaluation's terms with the evaluation's own
functions: its features times the weights give :func:`evaluate` back, with the shipped
weights and with weights that make every term count (a child process, so that the changed
weights stay there)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from chessarbiter.core.position import Position
from chessarbiter.engines.evaluation import TEMPO, evaluate
from tests.engines.helpers import random_positions

ROOT = Path(__file__).resolve().parents[2]
TUNER = ROOT / "bench" / "tune_eval.py"


def load_tuner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tune_eval", TUNER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def with_pawns(count: int, seed: int) -> list[Position]:
    """Random positions where both sides have pawns (no mop-up term, as the tuner samples)."""
    return [p for p in random_positions(count, seed) if p.pieces[1] and p.pieces[9]]


@pytest.mark.parametrize("pos", with_pawns(30, seed=11), ids=lambda p: p.fen())
def test_the_features_times_the_weights_are_the_evaluation(pos: Position) -> None:
    tuner = load_tuner()
    keys, weights = tuner.flatten()
    index = {key: i for i, key in enumerate(keys)}
    white = sum(weights[i] * c for i, c in tuner.features(pos, index))
    expected = evaluate(pos) - TEMPO
    assert white == pytest.approx(expected if pos.turn == 0 else -expected, abs=1)


CHILD = """
import importlib, importlib.util, sys
from chessarbiter.engines import weights
weights.MOBILITY = ((0, 0, 4, 5, 2, 1, 0), (0, 0, 3, 6, 4, 2, 0))
weights.KING_ATTACK = ((0, 0, 7, 5, 3, 9, 0), (0, 0, 1, 2, 3, 4, 0))
weights.BACKWARD = (-9, -13)
from chessarbiter.engines import evaluation
evaluation = importlib.reload(evaluation)
spec = importlib.util.spec_from_file_location("tune_eval", sys.argv[1])
tuner = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tuner)
from tests.engines.helpers import random_positions
keys, values = tuner.flatten()
index = {key: i for i, key in enumerate(keys)}
worst = 0.0
for pos in random_positions(60, seed=5):
    if not (pos.pieces[1] and pos.pieces[9]):
        continue
    expected = evaluation.evaluate(pos) - evaluation.TEMPO
    expected = expected if pos.turn == 0 else -expected
    white = sum(values[i] * c for i, c in tuner.features(pos, index))
    worst = max(worst, abs(white - expected))
print(worst)
"""


def test_every_term_counts_alike_once_weighed(tmp_path: Path) -> None:
    """Mobility, king-zone attacks and backward pawns weigh 0 in the shipped weights (so the
    evaluation skips them): weighed, the tuner's counts still give the evaluation back. The
    child runs the sources without their compiled modules (a compiled evaluation keeps the
    weights it was built with)."""
    sources = tmp_path / "src"
    shutil.copytree(ROOT / "src", sources, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(TUNER)], capture_output=True, text=True, timeout=120,
        env=os.environ | {"PYTHONPATH": os.pathsep.join([str(sources), str(ROOT)])})
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout) <= 1


def test_stockfish_centipawns_become_an_expected_score_on_the_elo_curve() -> None:
    tuner = load_tuner()
    assert tuner.expected_score(0) == 0.5
    assert tuner.expected_score(400) == pytest.approx(10 / 11)
    assert tuner.expected_score(-200) == pytest.approx(1 - tuner.expected_score(200))
    assert tuner.expected_score(tuner.MATE_CP) > 0.9999


def test_the_label_cache_keeps_each_fen_with_its_nodes(tmp_path: Path) -> None:
    tuner = load_tuner()
    cache = tmp_path / "labels.tsv"
    with cache.open("a", encoding="utf-8") as out:
        tuner.append_label(out, 5000, "8/8/8/8/8/8/8/K1k5 w - - 0 1", -37)
        tuner.append_label(out, 9000, "8/8/8/8/8/8/8/K1k5 w - - 0 1", 12)
        tuner.append_label(out, 5000, "8/8/8/8/8/8/8/K1k5 b - - 0 1", 250)
    assert tuner.read_labels(cache, 5000) == {"8/8/8/8/8/8/8/K1k5 w - - 0 1": -37,
                                              "8/8/8/8/8/8/8/K1k5 b - - 0 1": 250}
    assert tuner.read_labels(cache, 9000) == {"8/8/8/8/8/8/8/K1k5 w - - 0 1": 12}
    assert tuner.read_labels(tmp_path / "none.tsv", 5000) == {}


STOCKFISH = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
WHITE_UP_A_QUEEN = "4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 1"
BLACK_UP_A_ROOK = "r3k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1"


@pytest.mark.skipif(STOCKFISH is None, reason="needs Debian's stockfish")
def test_stockfish_labels_are_white_s_scores_and_a_second_run_reads_the_cache(
        tmp_path: Path) -> None:
    """Scores from White's side whoever moves; the second labelling searches nothing (its
    program does not exist)."""
    assert STOCKFISH is not None
    tuner = load_tuner()
    cache = tmp_path / "labels.tsv"
    fens = [WHITE_UP_A_QUEEN, BLACK_UP_A_ROOK, WHITE_UP_A_QUEEN]
    labels = tuner.label(fens, STOCKFISH, 2000, 2, cache)
    assert labels[WHITE_UP_A_QUEEN] > 200
    assert labels[BLACK_UP_A_ROOK] < -200
    assert len(cache.read_text(encoding="utf-8").splitlines()) == 2
    assert tuner.label(fens, str(tmp_path / "no-such-program"), 2000, 2, cache) == labels


def test_written_weights_read_back_as_the_values_in_the_same_shapes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--write``: the file written holds the rounded values, annotated as ``weights.py``
    (the piece-square tables' empty first table included)."""
    tuner = load_tuner()
    keys, values = tuner.flatten()
    target = tmp_path / "weights.py"
    monkeypatch.setattr(tuner, "WEIGHTS_PY", target)
    tuner.write_weights(keys, [v + 0.4 for v in values], "Test weights.")
    namespace: dict[str, object] = {}
    exec(target.read_text(encoding="utf-8"), namespace)
    for group in tuner.GROUPS:
        assert namespace[group] == getattr(tuner.weights, group)
    text = target.read_text(encoding="utf-8")
    assert "PST: Final[tuple[tuple[tuple[int, ...], ...], ...]] = (" in text
    assert "DOUBLED: Final = (" in text

"""What the Playwright tests share: Debian's chromium (the importing test module is skipped
when it is missing; Playwright itself is a test dependency), where screenshots go, the page
size and the longest wait."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize, expect

CHROMIUM = shutil.which("chromium")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)",
                allow_module_level=True)

ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"
VIEWPORT: ViewportSize = {"width": 1100, "height": 780}
WAIT_MS = 20_000
"""The longest wait for the pages (generous: a loaded machine; passing tests wait far less)."""
expect.set_options(timeout=WAIT_MS)

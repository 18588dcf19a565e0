"""axe-core for the Playwright tests: the pinned npm package installed once into a temporary
folder (the tests that use it are skipped, saying why, when npm cannot install it), and an
audit of a page as it stands. The script is added to the page by Playwright, in a browser
context that bypasses the page's Content Security Policy (``script-src 'self'``): only the
audits' contexts do."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Final

from playwright.sync_api import Page

AXE_VERSION: Final = "4.10.3"
"""The axe-core release the pages are audited with (pinned: its rules change between
releases)."""

BLOCKING: Final = frozenset({"critical", "serious"})


def install_axe(folder: Path) -> tuple[str | None, str]:
    """``axe.min.js`` of the pinned release, installed with npm into ``folder``; else None and
    why not."""
    npm = shutil.which("npm")
    if npm is None:
        return None, "npm is not installed: axe-core cannot be fetched"
    done = subprocess.run(
        [npm, "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(folder),
         f"axe-core@{AXE_VERSION}"],
        capture_output=True, text=True, timeout=300, check=False)
    script = folder / "node_modules" / "axe-core" / "axe.min.js"
    if done.returncode != 0 or not script.is_file():
        return None, (f"npm could not install axe-core@{AXE_VERSION}: "
                      f"{(done.stderr or done.stdout).strip()[-300:]}")
    return script.read_text(encoding="utf-8"), ""


def audit(page: Page, source: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it stands: rule id, impact, the first nodes."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=source)
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
               .map(v => ({id: v.id, impact: v.impact, help: v.help,
                           nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))""")
    return found

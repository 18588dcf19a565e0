# Sourced by the other scripts: creates (once) and activates the project's virtual environment,
# installing the package with its test tools. Safe to run on a fresh machine. The install
# compiles the hot modules with mypyc (setup.py), so it is redone whenever pyproject.toml,
# setup.py or a compiled module's source changes; when compiling fails (no C compiler), the
# package is installed as pure Python instead, with a warning. CHESSARBITER_PURE=1 asks for
# the pure-Python install.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
pure="${CHESSARBITER_PURE:-0}"
sources() {
    # what the install depends on: the build files and the sources setup.py compiles
    (cd "$root" && cat pyproject.toml setup.py src/chessarbiter/core/*.py \
        src/chessarbiter/laws/deadpos/*.py src/chessarbiter/engines/*.py) | sha1sum | cut -c1-12
}
stamp="$venv/.installed-$pure-$(sources)"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" || {
        echo "python3 -m venv failed; installing Debian's python3-venv" >&2
        if command -v apt-get >/dev/null; then
            apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        fi
        python3 -m venv "$venv"
    }
fi
if [ ! -f "$stamp" ]; then
    "$venv/bin/python" -m pip install -q --upgrade pip
    # compiled modules left by an earlier install would shadow the sources
    find "$root/src" -name '*.so' -delete
    rm -rf "$venv/dist"
    # the package built (unless pure) as the wheel a user's `pip install .` builds, from a copy
    # of the sources while they are installed editable beside it (the compile takes both cores
    # for a minute or more; the install mostly waits on pip); then the wheel's compiled modules
    # placed beside their sources (as an in-place build would) with the build's manifest. The
    # acceptance tests install that same wheel when it still holds today's sources
    # (tests/acceptance/venvs.py), instead of compiling a second time.
    if [ "$pure" != 1 ]; then
        copy="$(mktemp -d)"
        cp "$root"/{pyproject.toml,setup.py,README.md,LICENSE} "$copy"/
        tar -C "$root" --exclude=__pycache__ --exclude='*.so' --exclude='*.egg-info' \
            --exclude=compiled.txt -cf - src | tar -C "$copy" -xf -
        "$venv/bin/python" -m pip wheel -q --no-deps -w "$venv/dist" "$copy" &
        building=$!
    fi
    CHESSARBITER_PURE=1 "$venv/bin/python" -m pip install -q -e "$root[test]"
    if [ "$pure" != 1 ]; then
        if wait "$building"; then
            "$venv/bin/python" - "$venv/dist" "$root/src" <<'UNPACK'
import sys, zipfile
from pathlib import Path
(wheel,) = Path(sys.argv[1]).glob("chessarbiter-*.whl")
with zipfile.ZipFile(wheel) as packed:
    for name in packed.namelist():
        if name.endswith(".so"):
            packed.extract(name, sys.argv[2])
UNPACK
            cp "$copy/src/chessarbiter/compiled.txt" "$root/src/chessarbiter/compiled.txt"
        else
            echo "warning: compiling the hot modules failed; installing pure Python (slower)" >&2
            rm -rf "$venv/dist" "$root/src/chessarbiter/compiled.txt"
        fi
        rm -rf "$copy"
    fi
    rm -f "$venv"/.installed-*
    touch "$stamp"
fi
# shellcheck disable=SC1091
source "$venv/bin/activate"
cd "$root"

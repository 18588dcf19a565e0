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
    if [ "$pure" = 1 ]; then
        CHESSARBITER_PURE=1 "$venv/bin/python" -m pip install -q -e "$root[test]"
    elif ! "$venv/bin/python" -m pip install -q -e "$root[test]"; then
        echo "warning: compiling the hot modules failed; installing pure Python (slower)" >&2
        find "$root/src" -name '*.so' -delete
        CHESSARBITER_PURE=1 "$venv/bin/python" -m pip install -q -e "$root[test]"
    fi
    rm -f "$venv"/.installed-*
    touch "$stamp"
fi
# shellcheck disable=SC1091
source "$venv/bin/activate"
cd "$root"

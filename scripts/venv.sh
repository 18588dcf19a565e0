# Sourced by the other scripts: creates (once) and activates the project's virtual environment,
# installing the package with its test tools. Safe to run on a fresh machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
stamp="$venv/.installed-$(sha1sum "$root/pyproject.toml" | cut -c1-12)"
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
    "$venv/bin/python" -m pip install -q -e "$root[test]"
    rm -f "$venv"/.installed-*
    touch "$stamp"
fi
# shellcheck disable=SC1091
source "$venv/bin/activate"
cd "$root"

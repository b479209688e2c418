# shellcheck shell=bash
# Sourced by scripts/test and scripts/demo: cd to the repo root, then call `bootstrap EXTRAS` to make
# sure .venv exists and holds this project installed editable with those extras (e.g. `bootstrap test`).
# Set PYTHON to choose the interpreter; by default python3.11, else python3 (3.11 or newer either way).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bootstrap_fail() {
    echo "bootstrap: $*" >&2
    exit 1
}

bootstrap_python() {
    local candidate version
    for candidate in ${PYTHON:-python3.11 python3}; do
        version=$("$candidate" -c 'import sys; print(sys.version.split()[0])' 2>/dev/null) || continue
        if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
            echo "$candidate"
            return
        fi
        bootstrap_fail "$candidate is Python $version; this project needs Python 3.11 or newer"
    done
    bootstrap_fail "no working ${PYTHON:-python3.11 or python3} found; install Python 3.11+ (Debian: apt-get install python3 python3-venv)"
}

bootstrap_create_venv() {
    local python
    python=$(bootstrap_python) || exit 1
    echo "bootstrap: creating .venv with $python ($("$python" -V 2>&1))" >&2
    if "$python" -m venv .venv 2>/dev/null; then
        return
    fi
    rm -rf .venv
    if [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
        echo "bootstrap: the venv module is unusable; installing the Debian package python3-venv" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
    fi
    "$python" -m venv .venv || {
        rm -rf .venv
        bootstrap_fail "'$python -m venv' failed; on Debian install python3-venv (apt-get install python3-venv)"
    }
}

# bootstrap EXTRAS: create .venv if needed, then install the project editable with EXTRAS ("" for none)
# unless a stamp says this pyproject.toml + EXTRAS is already installed. One stamp per EXTRAS, so that
# scripts/test and scripts/demo do not reinstall each other's set.
bootstrap() {
    local extras=$1 stamp hash
    local spec=".${extras:+[$extras]}"
    if [[ ! -x .venv/bin/python ]]; then
        bootstrap_create_venv
    fi
    stamp=".venv/.bootstrap-${extras:-base}.stamp"
    hash=$( (cat pyproject.toml && echo "extras=$extras") | sha256sum | cut -d' ' -f1)
    if [[ -f $stamp && $(<"$stamp") == "$hash" ]]; then
        return
    fi
    echo "bootstrap: pip install -e '$spec' into .venv" >&2
    .venv/bin/python -m pip install -qq --disable-pip-version-check -e "$spec"
    echo "$hash" >"$stamp"
}

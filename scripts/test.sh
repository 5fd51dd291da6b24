#!/usr/bin/env bash
# Install Meadow and its test tools into .venv, then run every check: lint, format, tests
# (with the doctests of the package). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'

# Debian's packages the tests need: Chromium for the browser tests (Playwright's own
# download does not work here), nginx for the container recipe's proxy in front.
as_root=""
[ "$(id -u)" -ne 0 ] && as_root="sudo"
for package in chromium nginx; do
  if [ ! -x "/usr/bin/$package" ] && [ ! -x "/usr/sbin/$package" ]; then
    $as_root apt-get install -y -q "$package" >/dev/null ||
      { $as_root apt-get update -q >/dev/null && $as_root apt-get install -y -q "$package" >/dev/null; }
  fi
done

# axe-core, which the browser tests load into pages to check accessibility (the version is
# pinned in tests/web/axe/package-lock.json).
if command -v npm >/dev/null; then
  npm ci --prefix tests/web/axe --no-audit --no-fund --loglevel=error >/dev/null
fi

.venv/bin/ruff check .
.venv/bin/ruff format --check .

status=0
# One worker more than the cores: the contract suite plays thousands of games, and the server
# and browser tests spend about a third of their time waiting on a server, a browser or a
# database, which a third worker fills (2 cores: 16 min instead of 19, docs/benchmarks.md).
# Worksteal: a worker that runs out of tests takes the other's rather than idling.
workers=$(( $(nproc) + 1 ))
.venv/bin/python -m pytest -n "$workers" --dist worksteal "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests; a test run without tests is a failure" >&2
  exit 1
fi
exit "$status"

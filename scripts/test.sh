#!/usr/bin/env bash
# Install Meadow and its test tools into .venv, then run every check: lint, format, tests
# (with the doctests of the package). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'

.venv/bin/ruff check .
.venv/bin/ruff format --check .

status=0
# Both cores: the contract suite plays thousands of games.
.venv/bin/python -m pytest -n auto "$@" || status=$?
if [ "$status" -eq 5 ]; then
  echo "pytest collected no tests; a test run without tests is a failure" >&2
  exit 1
fi
exit "$status"

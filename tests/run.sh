#!/usr/bin/env bash
# The project's test command: installs what the tests need, then runs them against ../shared.
# Usage: bash tests/run.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check torch==2.13.0 -e ".[test]"
if ! command -v chromium >/dev/null 2>&1; then   # the HTML report is checked in a real headless browser
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; else sudo apt-get update -qq && sudo apt-get install -y -qq chromium >/dev/null; fi
fi
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec python -m pytest "$@"

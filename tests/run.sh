#!/usr/bin/env bash
# The project's test command: installs what the tests need, then runs them against ../shared.
# Usage: bash tests/run.sh [pytest args...]
# Installs from the package index: torch 2.13.0 (CPU), this package and its test extras. The HTML
# report test needs a headless chromium: when it is missing, under CI=true this script installs
# Debian's package with apt-get (as root, or through sudo) without asking; otherwise it asks on a
# terminal, or prints the command to run and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check torch==2.13.0 -e ".[test]"
if ! command -v chromium >/dev/null 2>&1; then   # the HTML report is checked in a real headless browser
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo "
  install="${sudo_}apt-get update -qq && ${sudo_}apt-get install -y -qq chromium"
  if [ "${CI:-}" != "true" ]; then
    if [ -t 0 ]; then
      read -r -p "chromium is missing (the HTML report test needs it). Run '$install' now? [y/N] " answer
      [[ "$answer" =~ ^[Yy] ]] || { echo "not installed; run: $install (or CI=true bash tests/run.sh)" >&2; exit 2; }
    else
      echo "error: chromium is missing (the HTML report test needs it); run: $install   (or: CI=true bash tests/run.sh)" >&2
      exit 2
    fi
  fi
  eval "$install" >/dev/null
fi
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec python -m pytest "$@"

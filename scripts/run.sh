#!/usr/bin/env bash
# The main job: set everything up (idempotent), then run the demo on torchnative.
#   scripts/run.sh [demo options]     (see: .venv/bin/python demo.py --help)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python demo.py "$@"

#!/usr/bin/env bash
# The main job: set everything up (idempotent), then stream a chat reply from
# SmolLM2-135M-Instruct on torchnative, offline.
#   scripts/run.sh [--prompt TEXT] [--dtype float32|bfloat16] [--max-new-tokens N] [--sample]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python tools/chat.py "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Codec core throughput: writer and reader on 2M generated events.
set -euo pipefail
cd "$(dirname "$0")/../.."
echo "== codec core (tests/bench/bench-codec, 2M events, one core)"
"${BUILD_DIR:-build}/tests/bench/bench-codec" "${BENCH_CODEC_EVENTS:-2000000}"

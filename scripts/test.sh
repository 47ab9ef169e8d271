#!/usr/bin/env bash
# The test command (README, and CI through .ci/run): the whole workspace's tests.
# Dependencies are compiled optimised even here (see [profile.dev.package."*"]), so the suite is fast.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_PROGRESS=1
cargo test --workspace --locked "$@"

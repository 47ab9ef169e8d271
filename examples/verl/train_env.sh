#!/usr/bin/env bash
# The smallest verl GRPO run on a gauntlet environment, played by gauntlet's verl agent loop.
#
# Needs a GPU machine with verl and a rollout engine (`pip install "verl[vllm]"`) and gauntlet
# (`pip install .` from this repository). Every row is one episode; verl's rollout plays it for
# many turns with the `gauntlet` agent loop, which sets the episode return as the reward, so no
# reward function is involved for these rows. See docs/verl.md.
set -euo pipefail
ENV="${ENV:-guess_number}"          # any name from gauntlet.list_envs(): wordle, sokoban_play, tic_tac_toe, ...
LEVEL="${LEVEL:-1}"
MODEL="${MODEL:-Qwen/Qwen2.5-0.5B-Instruct}"
DATA="${DATA:-$HOME/data/gauntlet}"

# 1. Rows: 1024 training episodes (seeds 0..1023) and 64 held-out ones (seeds from 1000000).
python - "$ENV" "$LEVEL" "$DATA" <<'PY'
import os, sys
import gauntlet.verl as g
env, level, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(out, exist_ok=True)
g.write_agent_rows(f"{out}/{env}_train.parquet", env, size=1024, seed=0, level=level)
g.write_agent_rows(f"{out}/{env}_val.parquet", env, size=64, seed=1_000_000, level=level)
PY
# 2. The agent-loop config shipped inside the package (registers `gauntlet`).
AGENT_LOOP_CONFIG="$(python -c 'import gauntlet.verl as g; print(g.AGENT_LOOP_CONFIG)')"

# 3. GRPO: 8 episodes per seed; response_length bounds a whole episode (replies + observations).
python -m verl.trainer.main_ppo \
  algorithm.adv_estimator=grpo \
  data.train_files="$DATA/${ENV}_train.parquet" \
  data.val_files="$DATA/${ENV}_val.parquet" \
  data.train_batch_size=32 \
  data.max_prompt_length=1024 \
  data.max_response_length=4096 \
  data.return_raw_chat=True \
  actor_rollout_ref.model.path="$MODEL" \
  actor_rollout_ref.actor.optim.lr=1e-6 \
  actor_rollout_ref.actor.ppo_mini_batch_size=32 \
  actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
  actor_rollout_ref.actor.use_kl_loss=False \
  actor_rollout_ref.rollout.name=vllm \
  actor_rollout_ref.rollout.mode=async \
  actor_rollout_ref.rollout.n=8 \
  actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
  actor_rollout_ref.rollout.gpu_memory_utilization=0.5 \
  actor_rollout_ref.rollout.prompt_length=1024 \
  actor_rollout_ref.rollout.response_length=4096 \
  actor_rollout_ref.rollout.calculate_log_probs=True \
  actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \
  actor_rollout_ref.rollout.agent.agent_loop_config_path="$AGENT_LOOP_CONFIG" \
  actor_rollout_ref.rollout.agent.default_agent_loop=gauntlet \
  trainer.n_gpus_per_node=1 \
  trainer.nnodes=1 \
  trainer.total_epochs=1 \
  trainer.test_freq=10 \
  trainer.save_freq=-1 \
  trainer.logger=console \
  trainer.project_name=gauntlet \
  trainer.experiment_name="$ENV-grpo" \
  "$@"

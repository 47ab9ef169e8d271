"""TRL end to end on the CPU, with the real `trl`, `transformers` and `torch` from PyPI.

`GRPOTrainer` runs two optimisation steps on gauntlet rows with gauntlet's reward functions, and
two on a multi-turn environment through `gauntlet.trl.GauntletSpec`'s `environment_factory`; each
test checks that the rewards gauntlet returned are the ones the trainer logged.

The policy is a tiny Llama built here with SmolLM2's tokenizer (from the GGUF scripts/test.sh
caches) and the Qwen2.5 chat template TRL knows how to parse tool calls from. For the
environment, a few supervised steps first teach it to answer with one tool call (`stand` in
blackjack), so episodes really end through TRL's tool loop and rewards differ between seeds.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("datasets")

from transformers import AutoTokenizer, LlamaConfig, LlamaForCausalLM  # noqa: E402
from transformers.utils import get_json_schema  # noqa: E402
from trl import GRPOConfig, GRPOTrainer  # noqa: E402
from trl.chat_template_utils import qwen2_5_chat_template  # noqa: E402

import gauntlet  # noqa: E402
import gauntlet.trl  # noqa: E402

GGUF = os.environ.get("GAUNTLET_SMOLLM2_GGUF", "")
TOOL_CALL = '<tool_call>\n{"name": "stand", "arguments": {}}\n</tool_call><|im_end|>'


@pytest.fixture(scope="module")
def tokenizer():
    if not GGUF or not Path(GGUF).is_file():
        pytest.skip("no SmolLM2 GGUF: set GAUNTLET_SMOLLM2_GGUF (scripts/test.sh fetches it)")
    tok = AutoTokenizer.from_pretrained(str(Path(GGUF).parent), gguf_file=Path(GGUF).name)
    tok.chat_template = qwen2_5_chat_template
    return tok


def tiny_model(tok) -> LlamaForCausalLM:
    torch.manual_seed(0)
    cfg = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        tie_word_embeddings=True,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
    )
    return LlamaForCausalLM(cfg)


def config(tmp_path: Path, **kw) -> GRPOConfig:
    return GRPOConfig(
        output_dir=str(tmp_path),
        per_device_train_batch_size=4,
        num_generations=4,
        max_steps=2,
        logging_steps=1,
        learning_rate=1e-3,
        report_to="none",
        use_cpu=True,
        bf16=False,
        gradient_checkpointing=False,
        save_strategy="no",
        seed=0,
        **kw,
    )


def logged(trainer: GRPOTrainer, key: str) -> list[float]:
    return [h[key] for h in trainer.state.log_history if key in h]


def test_grpo_trains_on_gauntlet_rows_with_gauntlet_rewards(tokenizer, tmp_path):
    calls: list[tuple[list[float], list[float]]] = []

    def gauntlet_reward(prompts, completions, **kw):
        rewards = gauntlet.trl.reward(prompts, completions, **kw)
        errors = gauntlet.trl.format_error(prompts, completions, **kw)
        calls.append((rewards, errors))
        return rewards

    def gauntlet_format_error(prompts, completions, **kw):
        return gauntlet.trl.format_error(prompts, completions, **kw)

    spec = gauntlet.trl.GauntletSpec("countdown", level=1, size=16)
    assert spec.environment_factory is None and spec.reward_funcs == [gauntlet.trl.reward]
    trainer = GRPOTrainer(
        model=tiny_model(tokenizer),
        args=config(tmp_path, max_completion_length=8),
        train_dataset=spec.train_dataset,
        reward_funcs=[gauntlet_reward, gauntlet_format_error],
        processing_class=tokenizer,
    )
    trainer.train()
    assert trainer.state.global_step == 2
    assert len(calls) == 2
    means = [sum(r) / len(r) for r, _ in calls]
    errors = [sum(e) / len(e) for _, e in calls]
    assert logged(trainer, "rewards/gauntlet_reward/mean") == pytest.approx(means)
    assert logged(trainer, "rewards/gauntlet_format_error/mean") == pytest.approx(errors)
    # Eight random tokens never hold an <answer> block: the verifier saw no answer, every time.
    assert errors == [1.0, 1.0]


def teach_tool_call(model, tok, spec) -> None:
    """A few supervised steps so the tiny model answers every prompt with the `stand` tool call."""
    env = spec.environment_factory()
    tools = [get_json_schema(getattr(env, t)) for t in env.action_tools]
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    target = tok(TOOL_CALL, add_special_tokens=False)["input_ids"]
    examples = []
    for seed in range(4):
        messages = [{"role": "user", "content": spec.train_dataset[0]["prompt"][0]["content"] + env.reset(seed=seed)}]
        text = tok.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False)
        prompt = tok(text, add_special_tokens=False)["input_ids"]
        examples.append((prompt, target))
    model.train()
    for step in range(150):
        prompt, target = examples[step % len(examples)]
        ids = torch.tensor([prompt + target])
        labels = torch.tensor([[-100] * len(prompt) + target])
        loss = model(input_ids=ids, labels=labels).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert loss.item() < 0.05, f"the tiny model did not learn the tool call (loss {loss.item():.3f})"


def test_grpo_trains_on_an_environment_through_environment_factory(tokenizer, tmp_path):
    spec = gauntlet.trl.GauntletSpec("blackjack", level=1, size=8)
    returns: list[float] = []
    dispatched: list[tuple[int, str, bool]] = []  # (rollout step, action, whether it was played)

    class Recorded(spec.environment_factory):
        def get_reward(self) -> float:
            value = super().get_reward()
            returns.append(value)
            return value

        def _play(self, action: str) -> str:
            # Every tool method ends here: record what TRL's tool loop dispatched.
            dispatched.append((len(returns) // 4, action, not self.done))
            return super()._play(action)

    model = tiny_model(tokenizer)
    teach_tool_call(model, tokenizer, spec)
    kwargs = spec.kwargs()
    kwargs["environment_factory"] = Recorded
    trainer = GRPOTrainer(
        model=model,
        args=config(tmp_path, max_completion_length=64, max_tool_calling_iterations=2, temperature=0.7),
        processing_class=tokenizer,
        **kwargs,
    )
    trainer.train()
    assert trainer.state.global_step == 2
    assert len(returns) == 8, returns
    per_step = [sum(returns[i : i + 4]) / 4 for i in (0, 4)]
    assert logged(trainer, "rewards/Recorded/mean") == pytest.approx(per_step)
    # The tool calls went through TRL's parser into the environment's tool methods and ended
    # episodes: stand settles the hand, and each step's group shares one seed, so its four
    # returns agree. TRL's `tools/call_frequency` (tool calls per completion, in this TRL's
    # GRPOTrainer._generate) counts exactly the calls the methods received, step by step; a call
    # after the end raises inside the method, which TRL counts in `tools/failure_frequency`.
    frequency = logged(trainer, "tools/call_frequency")
    assert len(frequency) == 2 and min(frequency) > 0, frequency
    assert frequency == pytest.approx([sum(step == k for step, _, _ in dispatched) / 4 for k in (0, 1)])
    assert {action for _, action, _ in dispatched} == {"stand"}
    played = [k for k, _, live in dispatched if live]
    assert all(played.count(k) >= 1 for k in (0, 1)), dispatched
    failures = [sum(step == k and not live for step, _, live in dispatched) for k in (0, 1)]
    calls = [sum(step == k for step, _, _ in dispatched) for k in (0, 1)]
    assert logged(trainer, "tools/failure_frequency") == pytest.approx(
        [f / c for f, c in zip(failures, calls, strict=True)]
    )
    assert all(len(set(returns[i : i + 4])) == 1 for i in (0, 4)), returns

"""The `gauntlet` verl agent loop, driven through verl's own classes (the real `verl` from PyPI).

verl's `RLHFDataset` reads rows written by `gauntlet.verl.write_agent_rows`, and verl's
`AgentLoopWorker` (configured from verl's own `ppo_trainer` config, with the shipped agent-loop
config file) runs them: it instantiates the loop from its registry by the rows' `agent_name`,
pads the outputs and assembles the `DataProto` the trainer consumes. Generation goes through an
`LLMServerClient` whose `generate(prompt_ids) -> TokenOutput` calls a model server:

- `test_served_model`: SmolLM2-135M-Instruct served by `gauntlet serve policy` (OpenAI
  compatible). The client turns the token prompt back into ChatML messages and checks that the
  server renders exactly the same prompt ids; the server returns the sampled token ids and their
  log-probs.
- `test_oracle_replies`: a client that replies with the environment's oracle action, so whole
  episodes end in success and the returns are non-zero.
- `test_issue_32_the_agent_loop_shows_the_runners_conversation`: a client that replies what
  `gauntlet.EpisodeRunner` (the runner `gauntlet train` plays on) replied, so the loop's
  conversation can be compared with the runner's, byte for byte, on guess_number, frozen_lake and
  hangman (tests/python/test_episode_kernel.py does the same for the TRL/verifiers drivers).

Each output is checked token by token: the mask is 1 exactly on the tokens the server sampled
(with their log-probs) and 0 on the chat-template tokens of the environment's messages
(re-tokenised here), and the reward is the return of replaying the decoded replies in
`gauntlet.make` directly.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import threading
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("verl.experimental.agent_loop", reason="needs verl (scripts/test.sh makes venv-verl)")

import numpy as np
from hydra import compose, initialize_config_dir
from transformers import AutoConfig, AutoTokenizer
from verl import DataProto
from verl.experimental.agent_loop import AgentLoopWorker
from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn
from verl.workers.rollout.llm_server import LLMServerClient
from verl.workers.rollout.replica import TokenOutput

import gauntlet
import gauntlet.verl
from gauntlet.envs import advance_to_seat, seat_view

ROOT = Path(__file__).resolve().parents[2]
GGUF = os.environ.get("GAUNTLET_SMOLLM2_GGUF", "")
CHATML = re.compile(r"<\|im_start\|>(\w+)\n(.*?)<\|im_end\|>\n", re.DOTALL)


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory) -> Path:
    """SmolLM2's tokenizer and config.json as a Hugging Face folder (what verl's model config
    loads), converted from the GGUF once and cached next to it (reading the GGUF takes a while)."""
    if not GGUF or not Path(GGUF).is_file():
        pytest.skip("no SmolLM2 GGUF: set GAUNTLET_SMOLLM2_GGUF (scripts/test.sh fetches it)")
    cached = Path(GGUF).parent / "hf-tokenizer"
    if not (cached / "tokenizer.json").is_file():
        tmp = Path(str(cached) + f".part{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        gguf = Path(GGUF)
        AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name).save_pretrained(tmp)
        config = AutoConfig.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        config.architectures = ["LlamaForCausalLM"]  # verl's model config wants exactly one
        config.save_pretrained(tmp)
        shutil.rmtree(cached, ignore_errors=True)
        os.replace(tmp, cached)
    return cached


def verl_config(model: Path, response_length: int, **overrides: object):
    """verl's own PPO trainer config with the shipped agent-loop config and a small rollout."""
    import verl

    settings = {
        "actor_rollout_ref.model.path": str(model),
        "actor_rollout_ref.rollout.name": "vllm",
        "actor_rollout_ref.rollout.prompt_length": 1024,
        "actor_rollout_ref.rollout.response_length": response_length,
        "actor_rollout_ref.rollout.calculate_log_probs": True,
        "actor_rollout_ref.rollout.agent.agent_loop_config_path": gauntlet.verl.AGENT_LOOP_CONFIG,
        "data.max_prompt_length": 1024,
        "data.max_response_length": response_length,
        **overrides,
    }
    folder = os.path.join(os.path.dirname(verl.__file__), "trainer", "config")
    with initialize_config_dir(config_dir=folder, version_base=None):
        return compose("ppo_trainer", overrides=[f"{k}={v}" for k, v in settings.items()])


def batch_of(config, tokenizer, files: list[Path], n: int) -> DataProto:
    """The rollout batch verl's trainer builds: RLHFDataset items, collated, `n` per prompt."""
    dataset = RLHFDataset([str(f) for f in files], tokenizer, config.data)
    batch = DataProto.from_single_dict(collate_fn([dataset[i] for i in range(len(dataset))]))
    return batch.repeat(repeat_times=n, interleave=True)


def run_worker(config, client: LLMServerClient, batch: DataProto) -> DataProto:
    worker = AgentLoopWorker(config, llm_client=client)
    return asyncio.run(worker.generate_sequences(batch))


class PolicyServerClient(LLMServerClient):
    """verl's token-in/token-out client over `gauntlet serve policy`'s chat completions: the
    prompt ids are turned back into ChatML messages; the server's `prompt_token_ids` must equal
    them, and its sampled `token_ids` and log-probs are returned."""

    def __init__(self, config, url: str, tokenizer):
        super().__init__(config, load_balancer_handle=None)
        self.url, self.tokenizer = url, tokenizer
        self.calls: dict[str, list[list[int]]] = {}  # request id -> the sampled ids of each turn
        self.logprobs: dict[str, list[list[float]]] = {}  # request id -> their log-probs
        self.retokenised = 0  # later prompts the server tokenised differently (same text)
        self.errors = 0  # first prompts it tokenised differently, or prompts with other text

    def _post(self, body: dict) -> dict:
        req = urllib.request.Request(
            self.url + "/chat/completions", json.dumps(body).encode(), {"content-type": "application/json"}
        )
        with urllib.request.urlopen(req, timeout=120) as r:
            return json.load(r)

    async def generate(self, request_id, *, prompt_ids, sampling_params, **kwargs) -> TokenOutput:
        text = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        assert text.endswith("<|im_start|>assistant\n"), text[-200:]
        messages = [{"role": r, "content": c} for r, c in CHATML.findall(text)]
        assert (
            "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
            + ("<|im_start|>assistant\n")
            == text
        ), "the prompt is not a ChatML conversation"
        turns = self.calls.setdefault(request_id, [])
        body = {
            "model": "smol",
            "messages": messages,
            "max_tokens": int(sampling_params["max_tokens"]),
            "temperature": float(sampling_params["temperature"]),
            "top_p": float(sampling_params["top_p"]),
            "seed": list(self.calls).index(request_id) * 100 + len(turns),
            "logprobs": True,
            "return_token_ids": True,
        }
        reply = await asyncio.get_running_loop().run_in_executor(None, self._post, body)
        served = reply["prompt_token_ids"]
        if served != list(prompt_ids):
            # Only a sampled reply may differ: re-tokenising its text need not give the sampled ids.
            self.retokenised += 1
            self.errors += bool(not turns or self.tokenizer.decode(served) != self.tokenizer.decode(prompt_ids))
        choice = reply["choices"][0]
        logprobs = [t["logprob"] for t in choice["logprobs"]["content"]]
        turns.append(choice["token_ids"])
        self.logprobs.setdefault(request_id, []).append(logprobs)
        return TokenOutput(token_ids=choice["token_ids"], log_probs=logprobs)


class OracleClient(LLMServerClient):
    """Replies `<answer>{oracle action}</answer><|im_end|>` from a replica of each episode."""

    def __init__(self, config, tokenizer):
        super().__init__(config, load_balancer_handle=None)
        self.tokenizer = tokenizer
        self.replicas: dict[str, tuple] = {}
        self.calls: dict[str, list[list[int]]] = {}
        self.logprobs: dict[str, list[list[float]]] = {}

    async def generate(self, request_id, *, prompt_ids, sampling_params, **kwargs) -> TokenOutput:
        text = self.tokenizer.decode(prompt_ids, skip_special_tokens=False)
        if request_id not in self.replicas:
            extra = json.loads(re.findall(r"<\|im_start\|>system\n(\{.*?\})<\|im_end\|>", text)[0])
            env = gauntlet.make(extra["env"], level=extra["level"])
            env.reset(seed=extra["seed"])
            advance_to_seat(env, extra["seat"])
            self.replicas[request_id] = (env, extra["seat"])
        env, seat = self.replicas[request_id]
        if request_id in self.calls:
            env.step(self.tokenizer.decode(self.calls[request_id][-1], skip_special_tokens=True))
            advance_to_seat(env, seat)
        ids = self.tokenizer.encode(f"<answer>{env.oracle_action()}</answer><|im_end|>", add_special_tokens=False)
        logprobs = [-0.25 - 0.01 * k for k in range(len(ids))]
        self.calls.setdefault(request_id, []).append(ids)
        self.logprobs.setdefault(request_id, []).append(logprobs)
        return TokenOutput(token_ids=ids, log_probs=logprobs)


def runs(mask: list[int]) -> list[tuple[int, int, int]]:
    """(value, start, end) of each run of equal mask values."""
    out, start = [], 0
    for i in range(1, len(mask) + 1):
        if i == len(mask) or mask[i] != mask[start]:
            out.append((mask[start], start, i))
            start = i
    return out


def check_sample(out: DataProto, i: int, tokenizer, client, request_id: str) -> dict:
    """Check sample `i` of a rollout against the replies the server sampled for `request_id`;
    returns its fields."""
    replies, reply_logprobs = client.calls[request_id], client.logprobs[request_id]
    b, nt = out.batch, out.non_tensor_batch
    plen = b["prompts"].shape[1]
    attention = b["attention_mask"][i].tolist()
    prompt = [t for t, a in zip(b["prompts"][i].tolist(), attention[:plen], strict=True) if a]
    n = sum(attention[plen:])
    response = b["responses"][i].tolist()[:n]
    mask = b["response_mask"][i].tolist()[:n]
    logprobs = b["rollout_log_probs"][i].tolist()[:n]
    assert n > 0 and prompt and b["input_ids"][i].tolist()[plen - len(prompt) : plen + n] == prompt + response
    assert not any(b["response_mask"][i].tolist()[n:]), "padding must be masked"
    extra = {k: nt[k][i] for k in ("turn_scores", "anchors", "turn_spans", "actions", "returns", "extra_info")}
    model_runs = [(s, e) for v, s, e in runs(mask) if v == 1]
    assert [list(s) for s in model_runs] == [list(s) for s in extra["turn_spans"]]
    assert len(model_runs) == len(replies) == len(extra["actions"])
    # Mask 1 exactly on the sampled tokens, with their log-probs.
    for (s, e), sampled, sampled_logprobs in zip(model_runs, replies, reply_logprobs, strict=True):
        assert response[s:e] == sampled[: e - s]
        assert logprobs[s:e] == pytest.approx(sampled_logprobs[: e - s], rel=1e-6, abs=1e-7)
    # Mask 0 exactly on the environment's messages as the chat template renders them.
    for v, s, e in runs(mask):
        if v == 0:
            text = tokenizer.decode(response[s:e], skip_special_tokens=False)
            assert re.fullmatch(
                r"(<\|im_end\|>)?\n<\|im_start\|>user\n.*<\|im_end\|>\n<\|im_start\|>assistant\n", text, re.DOTALL
            ), text
            closing = text.startswith("<|im_end|>")
            body = tokenizer.encode(text[len("<|im_end|>") :] if closing else text, add_special_tokens=False)
            assert response[s + closing : e] == body, "environment tokens are not the template's tokenisation"
            assert all(lp == 0.0 for lp in logprobs[s:e])
    return {"prompt": prompt, "response": response, "mask": mask, "n": n, **extra}


def replay(sample: dict, tokenizer) -> float:
    """Replay the decoded replies in `gauntlet.make` directly; checks per-turn rewards and anchors
    and returns the model seat's return."""
    info = sample["extra_info"]
    env = gauntlet.make(info["env"], level=info["level"])
    env.reset(seed=info["seed"])
    seat = info["seat"]
    advance_to_seat(env, seat)
    for (s, e), action, score, anchor in zip(
        sample["turn_spans"], sample["actions"], sample["turn_scores"], sample["anchors"], strict=True
    ):
        assert tokenizer.decode(sample["response"][s:e], skip_special_tokens=True) == action
        assert seat_view(env, seat)[1] == anchor
        before = env.returns()[seat]
        env.step(action)
        advance_to_seat(env, seat)
        assert env.returns()[seat] - before == pytest.approx(score)
    assert env.returns() == pytest.approx(list(sample["returns"]))
    return env.returns()[seat]


@pytest.fixture(scope="module")
def tokenizer(model_dir):
    return AutoTokenizer.from_pretrained(str(model_dir))


@pytest.fixture(scope="module")
def policy_server():
    """`gauntlet serve policy` with SmolLM2 (the GGUF) on a free port; yields its /v1 URL."""
    if not GGUF or not Path(GGUF).is_file():
        pytest.skip("no SmolLM2 GGUF: set GAUNTLET_SMOLLM2_GGUF (scripts/test.sh fetches it)")
    candidates = [os.environ.get("GAUNTLET_BIN"), ROOT / "target/debug/gauntlet", ROOT / "target/release/gauntlet"]
    binary = next((str(c) for c in candidates if c and Path(c).is_file()), shutil.which("gauntlet"))
    if binary is None:
        pytest.skip("gauntlet CLI not built (cargo build -p gauntlet, or set GAUNTLET_BIN)")
    proc = subprocess.Popen(
        [binary, "serve", "policy", "--model", f"gguf:{GGUF}", "--port", "0", "--name", "smol"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stderr.readline()
        assert "listening on " in line, f"policy server did not start: {line!r}"
        threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep its log pipe drained
        yield line.split("listening on ")[1].split()[0]
    finally:
        proc.kill()
        proc.wait()


def test_served_model(model_dir, tokenizer, policy_server, tmp_path):
    """SmolLM2 behind gauntlet's OpenAI-compatible server plays a single-agent environment and a
    game (as seat 1 against the scripted opponent) for several turns, two rollouts per row."""
    files = [tmp_path / "guess.jsonl", tmp_path / "ttt.jsonl"]
    assert gauntlet.verl.write_agent_rows(files[0], "guess_number", 1, seed=5) == 1
    assert gauntlet.verl.write_agent_rows(files[1], "tic_tac_toe", 1, seat=1) == 1
    loop_config = write_loop_config(tmp_path, max_turns=3, max_tokens_per_turn=16)
    config = verl_config(model_dir, 512, **{"actor_rollout_ref.rollout.agent.agent_loop_config_path": loop_config})
    client = PolicyServerClient(config, policy_server, tokenizer)
    out = run_worker(config, client, batch_of(config, tokenizer, files, n=2))
    assert len(out) == 4 and set(out.non_tensor_batch["agent_name"]) == {"gauntlet"}
    assert client.errors == 0, "the server rendered other prompts than the agent loop sent"
    request_ids = list(client.calls)
    assert len(request_ids) == 4
    turns = []
    for i in range(4):
        sample = check_sample(out, i, tokenizer, client, match_calls(client.calls, out, i, tokenizer))
        reward = out.batch["rm_scores"][i].tolist()
        assert reward[sample["n"] - 1] == pytest.approx(replay(sample, tokenizer))
        assert sum(reward) == reward[sample["n"] - 1]
        turns.append(len(sample["turn_spans"]))
    assert max(turns) >= 2, f"episodes should last several turns, got {turns}"


def match_calls(calls: dict, out: DataProto, i: int, tokenizer) -> str:
    """The request id of the trajectory that produced sample `i` (matched by its actions)."""
    actions = list(out.non_tensor_batch["actions"][i])
    for request_id, replies in calls.items():
        if [tokenizer.decode(r, skip_special_tokens=True) for r in replies] == actions:
            return request_id
    raise AssertionError(f"no server trajectory matches sample {i}: {actions}")


def write_loop_config(folder: Path, **settings: object) -> str:
    """The shipped agent-loop config with some settings changed (the file itself is checked to
    be what verl loads in test_oracle_replies)."""
    text = Path(gauntlet.verl.AGENT_LOOP_CONFIG).read_text()
    for key, value in settings.items():
        text, count = re.subn(rf"(?m)^(\s+{key}:) .*$", rf"\g<1> {value}", text)
        assert count == 1, key
    path = folder / "agent_loop.yaml"
    path.write_text(text)
    return str(path)


def test_oracle_replies(model_dir, tokenizer, tmp_path):
    """Whole episodes with the oracle's replies, through the shipped agent-loop config as is: a
    single-agent environment ends in success, and a game seat plays to the end."""
    files = []
    for name, seat in (("guess_number", 0), ("tic_tac_toe", 1)):
        files.append(tmp_path / f"{name}.parquet")
        marker = json.dumps({"env": name, "seed": 0, "level": 1, "seat": seat})  # for OracleClient
        gauntlet.verl.write_agent_rows(files[-1], name, 1, seed=0, seat=seat, system=marker)
    config = verl_config(model_dir, 2048)
    client = OracleClient(config, tokenizer)
    out = run_worker(config, client, batch_of(config, tokenizer, files, n=1))
    for i, (name, seat) in enumerate((("guess_number", 0), ("tic_tac_toe", 1))):
        request_id = next(k for k in client.calls if client.replicas[k][0].name == name)
        sample = check_sample(out, i, tokenizer, client, request_id)
        returns, _, _ = gauntlet.play_episode(name, 0, 1, "oracle")
        assert replay(sample, tokenizer) == returns[seat] == out.batch["rm_scores"][i].sum().item()
        assert len(sample["turn_spans"]) >= 2
    assert out.non_tensor_batch["success"][0] is True
    assert out.non_tensor_batch["score"].tolist() == out.batch["rm_scores"].sum(-1).tolist()
    assert np.all(out.non_tensor_batch["__num_turns__"] >= 4)


class ScriptedClient(LLMServerClient):
    """Replies with a fixed list of responses, one per turn (`<|im_end|>` closes each), and keeps
    the prompt ids of every call."""

    def __init__(self, config, tokenizer, replies: list[str]):
        super().__init__(config, load_balancer_handle=None)
        self.tokenizer, self.replies = tokenizer, replies
        self.prompts: list[list[int]] = []

    async def generate(self, request_id, *, prompt_ids, sampling_params, **kwargs) -> TokenOutput:
        reply = self.replies[len(self.prompts)]
        self.prompts.append(list(prompt_ids))
        ids = self.tokenizer.encode(reply + "<|im_end|>", add_special_tokens=False)
        return TokenOutput(token_ids=ids, log_probs=[-0.5] * len(ids))


@pytest.mark.parametrize(("name", "level"), [("guess_number", 2), ("frozen_lake", 2), ("hangman", 1)])
def test_issue_32_the_agent_loop_shows_the_runners_conversation(model_dir, tokenizer, tmp_path, name, level):
    """Issue 32: verl's agent loop renders the episode as the runner `gauntlet train` plays on
    (`gauntlet.EpisodeRunner`) does: fed the runner's replies, every user message the model sees,
    in the prompt and as the masked environment tokens, is the runner's byte for byte."""
    run = gauntlet.EpisodeRunner(name, 5, level)
    replies = []
    while (seat := run.to_act()) is not None:
        replies.append(run.oracle_response())
        run.submit(seat, replies[-1])
    episode = run.finish()
    assert episode["success"] and len(replies) >= 3
    users = [m["content"] for m in episode["conversations"][0] if m["role"] == "user"]
    assert len(users) == len(replies)

    rows = tmp_path / "rows.jsonl"
    gauntlet.verl.write_agent_rows(rows, name, 1, seed=5, level=level, system="Play.")
    config = verl_config(model_dir, 4096)
    client = ScriptedClient(config, tokenizer, replies)
    out = run_worker(config, client, batch_of(config, tokenizer, [rows], n=1))
    assert len(client.prompts) == len(replies)
    assert list(out.non_tensor_batch["actions"][0]) == replies
    assert out.batch["rm_scores"][0].sum().item() == episode["returns"][0]

    def decode(ids: list[int]) -> str:
        return tokenizer.decode(ids, skip_special_tokens=False, clean_up_tokenization_spaces=False)

    # What the model was shown before its last reply: the whole conversation as ChatML.
    last = decode(client.prompts[-1])
    shown = [(role, content) for role, content in CHATML.findall(last)]
    assert shown[0] == ("system", "Play.")
    assert [c for r, c in shown if r == "user"] == users
    assert [c for r, c in shown if r == "assistant"] == replies[:-1]
    # The environment's messages in the response, token for token as the template renders them.
    sample = check_sample(out, 0, tokenizer, _Turns(client, tokenizer), "scripted")
    env_runs = [(s, e) for v, s, e in runs(sample["mask"]) if v == 0]
    assert len(env_runs) == len(users) - 1
    for (s, e), user in zip(env_runs, users[1:], strict=True):
        text = decode(sample["response"][s:e]).removeprefix("<|im_end|>")
        assert text == f"\n<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


class _Turns:
    """`check_sample`'s view of a ScriptedClient: the sampled ids and log-probs of each turn."""

    def __init__(self, client: ScriptedClient, tokenizer):
        ids = [tokenizer.encode(r + "<|im_end|>", add_special_tokens=False) for r in client.replies]
        self.calls = {"scripted": ids}
        self.logprobs = {"scripted": [[-0.5] * len(i) for i in ids]}

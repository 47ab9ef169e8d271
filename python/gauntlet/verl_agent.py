"""A verl agent loop that plays gauntlet's multi-turn environments and games inside verl's rollout.

Registered as ``gauntlet`` (rows select it with ``agent_name: gauntlet``); importing this module
needs the ``verl`` package. verl loads it from the agent-loop config this package ships
(:data:`gauntlet.verl.AGENT_LOOP_CONFIG` is its path)::

    actor_rollout_ref.rollout.agent.agent_loop_config_path=/path/to/gauntlet/verl_agent_loop.yaml

Rows come from :func:`gauntlet.verl.agent_rows` (or :func:`gauntlet.verl.write_agent_rows`):
``extra_info`` names the environment (``env``), ``seed``, ``level`` and ``seat``. One run plays
one episode from that seed:

1. reset the environment, let the scripted opponent move for the other seats, and start the
   conversation from the row's ``prompt`` (the first observation is appended as a user message
   unless the row already ends with it);
2. tokenise with the model's chat template through verl's Continuous Token builder, generate
   with verl's server manager (``max_tokens`` per turn bounded by what is left of
   ``rollout.response_length``), keep the sampled tokens with mask 1 and their log-probs;
3. decode the reply, ``env.step`` it (the environment reads the last ``<answer>`` block), let the
   opponents answer, and append the feedback and the new observation as a user message whose
   tokens get mask 0 and log-prob 0;
4. repeat until the episode ends, ``max_turns`` replies were played, or the response budget is
   spent.

The output's ``reward_score`` is the episode return of the model's seat, so verl writes it at the
last token (``rm_scores``) and needs no reward function for these rows. ``extra_fields`` carry
what step-level estimators (GiGPO) need: ``turn_scores`` (the seat's reward per reply),
``anchors`` (the history-free state key each reply was made in), ``turn_spans`` (each reply's
``[start, end)`` in the response tokens), plus ``actions`` (the replies' text), ``returns`` (every
seat's), ``success`` and ``reward_extra_info`` with the keys :func:`gauntlet.verl.compute_score`
logs (``score``, ``task``, ``level``, ``correct``, ``format_error``), so gauntlet's single-turn
and multi-turn rows mix in one batch.

Tokenisation: a reply that stopped at the length limit (no EOS) is closed with the tokenizer's
EOS token (mask 0) before the next user message. Models whose chat template is ChatML but whose
``model_type`` verl does not map to its ChatML builder (SmolLM2 is ``llama``) get verl's ChatML
(``qwen``) boundary handling, which inserts the newline the template puts after ``<|im_end|>``
(mask 0); ``chat_family`` in the agent-loop config overrides this.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import (
    AgentLoopBase,
    AgentLoopMetrics,
    AgentLoopOutput,
    _agent_loop_registry,
    register,
)
from verl.utils.profiler import simple_timer
from verl.utils.tokenizer.continuous_token_wiring import create_continuous_token_builder

from .envs import Env, GameEnv, advance_to_seat, make, render_user_message, seat_view
from .errors import BadRowError
from .verl import AGENT_NAME, PREFIX

__all__ = ["GauntletAgentLoop"]

logger = logging.getLogger(__name__)


def _episode_spec(kwargs: Mapping[str, Any]) -> tuple[str, int, int, int]:
    """(environment, seed, level, seat) from a row's ``extra_info`` (or top-level columns, or a
    ``gauntlet/<env>`` ``data_source``)."""
    extra = kwargs.get("extra_info")
    extra = extra if isinstance(extra, Mapping) else {}

    def field(key: str, default: Any = None) -> Any:
        value = extra.get(key)
        return kwargs.get(key, default) if value is None else value

    name = field("env")
    source = kwargs.get("data_source")
    if name is None and isinstance(source, str) and source.startswith(PREFIX):
        name = source[len(PREFIX) :]
    if not isinstance(name, str) or not name:
        err = BadRowError("a row for the `gauntlet` agent loop needs `extra_info.env` (write rows with agent_rows)")
        err.field = "extra_info.env"
        raise err
    try:
        return name, int(field("seed", 0)), int(field("level", 1)), int(field("seat", 0))
    except (TypeError, ValueError) as e:
        err = BadRowError(f"`extra_info.seed`, `level` and `seat` must be integers: {e}")
        err.field = "extra_info"
        raise err from None


def _is_chatml(tokenizer: Any) -> bool:
    template = getattr(tokenizer, "chat_template", None)
    return isinstance(template, str) and "<|im_start|>" in template and "<|im_end|>" in template


class _Episode:
    """The conversation's token stream and what each reply earned (one run's state)."""

    def __init__(self, messages: list[dict[str, Any]], prompt_ids: list[int]):
        self.messages = messages
        self.runtime_ids = list(prompt_ids)
        self.prompt_len = len(prompt_ids)
        self.mask: list[int] = []
        self.logprobs: list[float] | None = None
        self.turn_scores: list[float] = []
        self.anchors: list[str] = []
        self.turn_spans: list[list[int]] = []
        self.actions: list[str] = []
        self.format_errors = 0


def _register(cls: type[AgentLoopBase]) -> type[AgentLoopBase]:
    """verl's ``@register``, unless an agent-loop config already named the loop: verl imports this
    module while instantiating that entry, and the plain decorator would replace the entry (and
    its settings) with a bare one."""
    return cls if AGENT_NAME in _agent_loop_registry else register(AGENT_NAME)(cls)


@_register
class GauntletAgentLoop(AgentLoopBase):
    """Plays one gauntlet environment or game episode per row (see the module doc).

    Keyword arguments (the agent-loop config's entries): ``max_turns`` (most replies per episode,
    default 64), ``max_tokens_per_turn`` (default: whatever is left of the response budget),
    ``chat_family`` (verl's Continuous Token family; ``auto`` picks ChatML handling for ChatML
    templates verl does not recognise)."""

    def __init__(
        self,
        *args: Any,
        max_turns: int = 64,
        max_tokens_per_turn: int | None = None,
        chat_family: str = "auto",
        **kwargs: Any,
    ):
        kwargs.pop("name", None)  # the config entry's own key
        kwargs.pop("tools", None)  # verl passes its tool list to every loop; environments act in text
        super().__init__(*args, **kwargs)
        self.max_turns = int(max_turns)
        self.max_tokens_per_turn = int(max_tokens_per_turn) if max_tokens_per_turn else None
        self.response_length = int(self.rollout_config.response_length)
        # The token that ends an assistant turn: ChatML's <|im_end|>, else EOS.
        im_end = self.tokenizer.convert_tokens_to_ids("<|im_end|>") if _is_chatml(self.tokenizer) else None
        self._close_id = im_end if isinstance(im_end, int) else self.tokenizer.eos_token_id
        self._turn_ends = {t for t in (self._close_id, self.tokenizer.eos_token_id) if t is not None}
        family = chat_family
        if family == "auto" and type(self.continuous_token_builder).__name__ == "ContinuousTokenBuilder":
            family = "qwen" if _is_chatml(self.tokenizer) else "auto"
        if family != "auto":
            self.continuous_token_builder = create_continuous_token_builder(
                self.tokenizer,
                model_family=family,
                hf_model_type=kwargs.get("hf_model_type"),
                chat_template_kwargs=self.apply_chat_template_kwargs,
                mm_processor_kwargs=self.mm_processor_kwargs,
                processor=self.processor,
            )

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        """Play the episode the row names; see the module doc for the output's fields."""
        name, seed, level, seat = _episode_spec(kwargs)
        env = make(name, level=level)
        if not 0 <= seat < env.num_seats:
            err = BadRowError(f"`extra_info.seat` must be in 0..{env.num_seats - 1} for `{env.name}`, got {seat}")
            err.field = "extra_info.seat"
            raise err
        env.reset(seed=seed, options={"level": level})
        advance_to_seat(env, seat)
        observation, anchor = seat_view(env, seat)
        prompt = kwargs.get("raw_prompt", kwargs.get("prompt"))
        messages = [dict(m) for m in (prompt if prompt is not None else [])]
        if not (messages and messages[-1].get("role") == "user" and messages[-1].get("content") == observation):
            messages.append({"role": "user", "content": observation})
        metrics: dict[str, Any] = {}
        ep = _Episode(messages, await self.ct_build_initial_tokens(messages))
        full_determinism = getattr(self.rollout_config, "full_determinism", False)
        request_id = f"det-{int(kwargs.get('priority', 0))}" if full_determinism else uuid4().hex
        while env.to_act() is not None and len(ep.turn_spans) < self.max_turns:
            budget = self.response_length - len(ep.mask)
            if budget <= 0:
                break
            text = await self._reply(ep, request_id, sampling_params, budget, metrics)
            ep.anchors.append(anchor)
            before = env.returns()[seat]
            _, _, _, _, info = env.step(text)
            ep.format_errors += int(bool(info.get("format_error")))
            advance_to_seat(env, seat)
            ep.turn_scores.append(env.returns()[seat] - before)
            ep.messages.append({"role": "assistant", "content": text})
            if env.to_act() is None:
                break
            observation, anchor = seat_view(env, seat)
            message = info.get("message") or ""
            # The episode kernel's one rendering, as `gauntlet train` shows it.
            feedback = render_user_message(message, observation)
            if not await self._observe(ep, {"role": "user", "content": feedback}):
                break
        return self._output(ep, env, name, level, seat, metrics)

    async def _reply(
        self, ep: _Episode, request_id: str, sampling_params: dict[str, Any], budget: int, metrics: dict[str, Any]
    ) -> str:
        """Sample one reply, append its tokens (mask 1, with log-probs) and return its text."""
        limit = min(budget, self.max_tokens_per_turn) if self.max_tokens_per_turn else budget
        params = {**sampling_params, "max_tokens": limit}
        with simple_timer("generate_sequences", metrics):
            out = await self.server_manager.generate(
                request_id=request_id, prompt_ids=ep.runtime_ids, sampling_params=params
            )
        token_ids = list(out.token_ids)[:limit]
        logprobs = list(out.log_probs)[:limit] if out.log_probs else None
        if logprobs is not None and ep.logprobs is None and not ep.mask:
            ep.logprobs = []
        merge, ep.mask, aligned = await self.ct_merge_assistant_token(
            ep.runtime_ids,
            token_ids,
            ep.mask,
            ep.logprobs,
            assistant_logprobs=logprobs if ep.logprobs is not None else None,
        )
        ep.runtime_ids = merge.token_ids
        if ep.logprobs is not None:
            ep.logprobs = aligned
        end = len(ep.mask)
        ep.turn_spans.append([end - len(token_ids), end])
        text = self.tokenizer.decode(token_ids, skip_special_tokens=True)
        ep.actions.append(text)
        return text

    async def _observe(self, ep: _Episode, message: dict[str, Any]) -> bool:
        """Append the environment's message (mask 0); False when it does not fit the budget."""
        if self._close_id is not None and ep.runtime_ids and ep.runtime_ids[-1] not in self._turn_ends:
            # The reply hit its length limit: close the assistant turn as the template would.
            ep.runtime_ids.append(self._close_id)
            ep.mask.append(0)
            if ep.logprobs is not None:
                ep.logprobs.append(0.0)
        previous = list(ep.messages)
        ep.messages.append(message)
        merge, mask, logprobs = await self.ct_merge_context_msg(
            previous, ep.messages, ep.runtime_ids, ep.mask, ep.logprobs
        )
        if len(mask) >= self.response_length:
            return False
        ep.runtime_ids, ep.mask = merge.token_ids, mask
        if ep.logprobs is not None:
            ep.logprobs = logprobs
        return True

    def _output(
        self, ep: _Episode, env: Env | GameEnv, name: str, level: int, seat: int, metrics: dict[str, Any]
    ) -> AgentLoopOutput:
        n = self.response_length
        response_ids = ep.runtime_ids[ep.prompt_len :]
        returns = env.returns()
        score = float(returns[seat])
        over = env.to_act() is None
        others = [r for i, r in enumerate(returns) if i != seat]
        success = bool(env.success()) if seat == 0 else over and all(returns[seat] > r for r in others)
        extra = {
            "turn_scores": ep.turn_scores,
            "tool_rewards": [],
            "anchors": ep.anchors,
            "turn_spans": ep.turn_spans,
            "actions": ep.actions,
            "returns": returns,
            "success": success,
            "reward_extra_info": {
                "score": score,
                "task": name,
                "level": level,
                "correct": float(success),
                "format_error": float(ep.format_errors > 0),
            },
        }
        return AgentLoopOutput(
            prompt_ids=ep.runtime_ids[: ep.prompt_len],
            response_ids=response_ids[:n],
            response_mask=ep.mask[:n],
            response_logprobs=ep.logprobs[:n] if ep.logprobs is not None else None,
            reward_score=score,
            num_turns=len(ep.messages),
            metrics=AgentLoopMetrics(**{k: v for k, v in metrics.items() if k in AgentLoopMetrics.model_fields}),
            extra_fields=extra,
        )

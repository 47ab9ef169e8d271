#!/usr/bin/env python3
"""Query `gauntlet serve policy` with the official `openai` client (pip install openai).

    gauntlet serve policy --model runs/default            # or gguf:SmolLM2-135M-Instruct.Q4_1.gguf
    python3 examples/openai_client.py http://127.0.0.1:8000/v1 default

It lists the models, asks for a completion with per-token log-probs (and, through `extra_body`,
vLLM's `return_token_ids` extension, which the server supports), streams the same request and
checks that the pieces add up to the same text, then shows that a wrong model name raises
`openai.NotFoundError`. Every check is an assertion, so the script doubles as a compatibility
test (gauntlet's test suite runs it against SmolLM2); it prints `all checks passed` at the end.
Keep `max_tokens` small on a CPU.
"""

import sys

import openai
from openai import OpenAI


def main(base_url: str, model: str) -> None:
    client = OpenAI(base_url=base_url, api_key="unused-unless-the-server-has---api-key", max_retries=0)

    ids = [m.id for m in client.models.list().data]
    assert model in ids, f"{model!r} not in {ids}"
    print("models:", ids)

    messages = [
        {"role": "system", "content": "You are a concise assistant."},
        {"role": "user", "content": "What is the capital of France?"},
    ]
    request = dict(model=model, messages=messages, max_tokens=8, temperature=0, seed=1)

    # Whole answer, with log-probs and the token-id extension.
    r = client.chat.completions.create(**request, logprobs=True, top_logprobs=2, extra_body={"return_token_ids": True})
    choice = r.choices[0]
    assert r.object == "chat.completion" and r.model == model
    assert choice.message.role == "assistant" and isinstance(choice.message.content, str)
    assert choice.finish_reason in ("stop", "length"), choice.finish_reason
    entries = choice.logprobs.content
    assert len(entries) == r.usage.completion_tokens > 0, (len(entries), r.usage)
    assert r.usage.total_tokens == r.usage.prompt_tokens + r.usage.completion_tokens
    for e in entries:
        assert isinstance(e.token, str) and isinstance(e.bytes, list) and e.logprob <= 0, e
        assert len(e.top_logprobs) == 2 and e.top_logprobs[0].logprob >= e.top_logprobs[1].logprob, e
    # Greedy: the sampled token is the most likely one.
    assert all(abs(e.logprob - e.top_logprobs[0].logprob) < 1e-6 for e in entries)
    # The tokens' bytes spell the text (an end-of-turn token may follow it).
    spelled = b"".join(bytes(e.bytes) for e in entries)
    assert spelled.startswith(choice.message.content.encode()), (spelled, choice.message.content)
    extra = r.model_extra or {}
    token_ids = (choice.model_extra or {}).get("token_ids")
    assert len(token_ids) == len(entries) and len(extra["prompt_token_ids"]) == r.usage.prompt_tokens
    print("answer:", repr(choice.message.content), "logprobs:", [round(e.logprob, 3) for e in entries])

    # The same request streamed: the pieces add up to the same text.
    text, finish, usage = "", None, None
    stream = client.chat.completions.create(**request, stream=True, stream_options={"include_usage": True})
    for chunk in stream:
        assert chunk.object == "chat.completion.chunk"
        if chunk.usage is not None:
            usage = chunk.usage
        for c in chunk.choices:
            text += c.delta.content or ""
            finish = c.finish_reason or finish
    assert text == choice.message.content, (text, choice.message.content)
    assert finish == choice.finish_reason and usage.completion_tokens == r.usage.completion_tokens
    print("streamed:", repr(text))

    try:
        client.chat.completions.create(**{**request, "model": "no-such-model"})
        raise AssertionError("an unknown model must fail")
    except openai.NotFoundError as e:
        assert "no-such-model" in str(e), e  # noqa: PT017 (a script, not a pytest test)
    try:
        client.chat.completions.create(**request, top_p=1.5)
        raise AssertionError("a bad top_p must fail")
    except openai.BadRequestError as e:
        assert "top_p" in str(e), e  # noqa: PT017 (a script, not a pytest test)
    print("all checks passed")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])

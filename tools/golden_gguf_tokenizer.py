"""Golden token ids of chat-templated prompts for SmolLM2-135M-Instruct, from Hugging Face.

gauntlet rebuilds a GGUF file's tokenizer itself (`gauntlet_model::gguf`); this script asks
Hugging Face `transformers`/`tokenizers` for the ids of the same rendered prompts, so the Rust
test `gguf::tests::smollm2_chat_prompts_tokenize_like_hugging_face` can pin gauntlet to them.

    python tools/golden_gguf_tokenizer.py ~/.cache/gauntlet/smollm2/SmolLM2-135M-Instruct.Q4_1.gguf \
        crates/gauntlet-model/tests/fixtures/smollm2_chat_ids.json

Needs `transformers`, `tokenizers` and `gguf` (pip). The output is JSON:
`[{"messages": [...], "add_generation_prompt": bool, "text": str, "ids": [int]}]`.
"""

import json
import os
import sys

from transformers import AutoTokenizer

CONVERSATIONS = [
    ([{"role": "user", "content": "What is the capital of France?"}], True),
    ([{"role": "user", "content": "Solve 12+30. Answer in <answer></answer> tags."}], True),
    (
        [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "Decrypt this Caesar cipher: KHOOR ZRUOG"},
            {"role": "assistant", "content": "<answer>HELLO WORLD</answer>"},
            {"role": "user", "content": "Again:\n  WKH  FDW\tVDW 1234567"},
        ],
        True,
    ),
    (
        [
            {"role": "user", "content": "Grid:\n.#.\n#..\n\nMove: up, down, left or right?"},
            {"role": "assistant", "content": "right"},
            {"role": "user", "content": "You moved right. Ünïcödé → ✓ 3.14159"},
            {"role": "assistant", "content": "<answer>down</answer>"},
        ],
        False,
    ),
]


def main() -> None:
    gguf, out = sys.argv[1], sys.argv[2]
    tok = AutoTokenizer.from_pretrained(os.path.dirname(gguf), gguf_file=os.path.basename(gguf))
    rows = []
    for messages, gen in CONVERSATIONS:
        text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=gen)
        ids = tok.backend_tokenizer.encode(text, add_special_tokens=False).ids
        rows.append({"messages": messages, "add_generation_prompt": gen, "text": text, "ids": ids})
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(rows, f, ensure_ascii=False, indent=1)
        f.write("\n")
    os.replace(tmp, out)


if __name__ == "__main__":
    main()

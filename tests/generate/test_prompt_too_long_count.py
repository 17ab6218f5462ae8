"""Samples whose prompt did not fit the model's context are counted apart in the report: they
are the setup's failures, not the model's."""

from __future__ import annotations

import polars as pl

from ibench.run.summary import prompts_too_long


def test_prompts_too_long_are_counted_from_the_verdict_messages():
    verdicts = pl.DataFrame({"message": [
        "no code block (generation failed: prompt too long: 2419 tokens, the context window (max_model_len) is 2048)",
        "no code block",
        "case 001: WA: wrong answer",
        "no code block (generation failed: prompt too long: 5000 tokens, the context window (max_model_len) is 4096)",
        "no code block (generation failed: HTTP 500)",
    ]})
    assert prompts_too_long(verdicts) == 2
    assert prompts_too_long(pl.DataFrame({"verdict": ["OK"]})) == 0

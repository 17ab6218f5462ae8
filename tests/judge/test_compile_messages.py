"""A compiler's first error explains the rest: a long diagnostic keeps its beginning and its end."""

from __future__ import annotations


def test_long_compiler_output_keeps_the_first_error(judge, guess_task):
    # One distinct error per line; the first names `first_missing`, the last `last_missing`.
    body = "\n".join(f"int v{i} = undeclared_{i};" for i in range(400))
    src = f"int a = first_missing;\n{body}\nint z = last_missing;\nint main() {{}}\n"
    r = judge.judge(guess_task, src)
    assert r.verdict.value == "CE"
    msg = r.compile.message
    assert "first_missing" in msg and "last_missing" in msg, msg[:300]
    assert "bytes left out" in msg and len(msg) < 4200

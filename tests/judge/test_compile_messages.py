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


def test_a_second_include_of_the_precompiled_header_compiles(judge, guess_task):
    """g++ compiles a program that includes <bits/stdc++.h> twice; with the precompiled header
    it once failed ("bits/stdc++.h: No such file or directory": GCC re-reads the header from the
    folder of the .gch), a CE that plain g++ would never give."""
    from judge_fixtures import solver

    src = solver().replace("using namespace std;", "using namespace std;\n#include <bits/stdc++.h>\n#include <vector>")
    r = judge.judge(guess_task, src)
    assert r.verdict.value == "OK", (r.verdict, r.compile.message)

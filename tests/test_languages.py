"""ibench/languages.py is the only list of languages: every module that depends on the language
reads it, none keeps a list of its own, and the prompt wording it holds stays what existing runs'
generation keys were made from."""

from __future__ import annotations

import ast
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from ibench import languages
from ibench.languages import LANGUAGES

REPO = Path(__file__).resolve().parents[1]
NAMES = set(LANGUAGES)


def test_every_module_reads_the_registry():
    from ibench.generate import prompt
    from ibench.generate.extract import extract_code
    from ibench.generate.feedback import _time_factor
    from ibench.generate.reference import ReferenceBackend
    from ibench.judge.executors import EXECUTORS, executor_class, language_of
    from ibench.generate.base import GenerationRequest
    from ibench.tasks.checks import SOLUTION_LANGUAGES
    from ibench.tasks.load import load_task

    task = load_task(REPO / "tasks" / "guess-the-number")  # known solutions in every language
    assert set(prompt.LANGUAGES) == NAMES
    assert list(EXECUTORS) == list(LANGUAGES)
    assert set(SOLUTION_LANGUAGES.values()) == NAMES
    assert SOLUTION_LANGUAGES == {ext: lang.name for lang in LANGUAGES.values() for ext in lang.extensions}
    for name, lang in LANGUAGES.items():
        cls = EXECUTORS[name]
        assert (cls.language, cls.extensions, cls.time_factor) == (name, lang.extensions, lang.time_factor)
        assert f"{cls.__module__}:{cls.__name__}" == lang.executor
        assert Path(sys.modules[cls.__module__].__file__).parent == REPO / "ibench" / "judge" / "executors"
        info = prompt.language_info(name)
        assert (info.name, info.fence, info.flush) == (lang.title, lang.fence, lang.flush)
        assert _time_factor(name) == lang.time_factor
        for spelling in (name, *lang.aliases, name.upper()):
            assert executor_class(spelling) is cls
        for ext in lang.extensions:
            assert language_of(f"solution{ext}") == name
        for tag in lang.fence_tags:
            assert extract_code(f"```{tag}\nX\n```\n", name).code == "X\n"
        # the reference model replays the known solutions of the language, in the fence the prompt asks for
        backend = ReferenceBackend(language=name)
        sols = backend.solutions(task)
        assert sols and all(s.path.suffix in lang.extensions for s in sols)
        req = GenerationRequest(task=task, messages=[{"role": "user", "content": "x"}], indices=[0], seed=1)
        assert next(iter(backend.generate([req]))).response.startswith(f"```{lang.fence}\n")
    assert language_of("a.rs") is None


def test_no_module_keeps_a_list_of_its_own():
    """A literal (tuple, list, set, dict keys) that names two or more languages, by name, alias,
    fence tag or extension, anywhere in ibench/ but languages.py, is a second list."""
    spelled: dict[str, str] = {}
    for lang in LANGUAGES.values():
        for s in (lang.name, *lang.aliases, *lang.fence_tags, *lang.extensions):
            spelled[s] = lang.name
    found = []
    for path in sorted((REPO / "ibench").rglob("*.py")):
        if path == REPO / "ibench" / "languages.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
                elts = node.keys if isinstance(node, ast.Dict) else node.elts
                langs = {spelled[e.value] for e in elts
                         if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value in spelled}
                if len(langs) >= 2:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} {sorted(langs)}")
    assert not found, "languages listed outside ibench/languages.py:\n" + "\n".join(found)


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add(("." * node.level) + (node.module or ""))
    return out


def test_the_registry_is_a_floor_and_tasks_and_generate_stand_on_it():
    imports = _imports(REPO / "ibench" / "languages.py")
    assert not [m for m in imports if m.startswith(("ibench", "."))], imports
    for package in ("tasks", "generate"):
        for path in sorted((REPO / "ibench" / package).rglob("*.py")):
            bad = [m for m in _imports(path) if m.startswith("ibench.judge.executors")]
            assert not bad, f"{path.relative_to(REPO)} imports {bad}: the language list is ibench.languages"


# The prompt's words for each language are part of every generation key (the rendered prompt is
# hashed): a change here re-keys, and regenerates, every sample of existing runs in that
# language. If the change is meant, update the digest and say so in the change's notes.
WORDING_DIGEST = "54eab5faf319cd19"


def test_the_prompt_wording_of_existing_languages_is_unchanged():
    rows = [[lang.name, lang.title, lang.flush, lang.fence] for lang in LANGUAGES.values()
            if lang.name in ("cpp", "python", "java", "go")]
    digest = hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:16]
    assert digest == WORDING_DIGEST, rows


def test_lookup_names_the_languages_there_are():
    assert languages.lookup("C++").name == "cpp"
    try:
        languages.lookup("rust")
    except ValueError as e:
        assert str(e) == "language 'rust' is not supported; available: cpp, python, java, go"
    else:
        raise AssertionError("rust is no language of the registry")


def test_a_new_language_is_one_row_and_one_executor_file(tmp_path):
    """A row added to the registry (here before anything else of ibench is imported, as an
    edit of languages.py would be) reaches the prompt, extraction, the reference model, the task
    checks and the judge's choice of executor; the executor class is found from the row alone."""
    (tmp_path / "shexec.py").write_text(
        "from ibench.judge.executors.base import CompiledExecutor\n"
        "class ShExecutor(CompiledExecutor):\n"
        "    language = 'sh'\n"
        "    key_tag = 'sh'\n"
        "    source_name = 'solution.sh'\n")
    script = f"""
import sys
sys.path.insert(0, {str(tmp_path)!r})
from ibench import languages
row = languages.Language("sh", "POSIX sh", "nothing to flush", fence_tags=("sh", "shell"), extensions=(".sh",),
                         time_factor=3.0, aliases=("shell",), toolchain="sh", executor="shexec:ShExecutor")
languages.LANGUAGES[row.name] = row
languages.ALIASES.update({{a: row.name for a in row.aliases}})
languages.BY_EXTENSION.update({{e: row.name for e in row.extensions}})

from ibench.generate.extract import extract_code
from ibench.generate.feedback import _time_factor
from ibench.generate.prompt import language_info
from ibench.generate.reference import ReferenceBackend
from ibench.judge.executors import EXECUTORS, executor_class, language_of
from ibench.tasks.checks import SOLUTION_LANGUAGES
assert language_info("sh").name == "POSIX sh"
assert extract_code("```shell\\necho hi\\n```\\n", "sh").code == "echo hi\\n"
assert _time_factor("shell") == 3.0
assert SOLUTION_LANGUAGES[".sh"] == "sh" and language_of("a.sh") == "sh"
cls = executor_class("SHELL")
assert cls is EXECUTORS["sh"] and (cls.language, cls.extensions, cls.time_factor) == ("sh", (".sh",), 3.0)
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]

"""Familiarity (LiveOIBench Figures 3 and 9): how probable a model finds each task's statement and
known accepted solutions, against how well it does on the task — a contamination check.

``python -m ibench.results familiarity RUN [--backend openai|vllm] [--base-url URL] [--model ID]``
asks the model's own backend for the log-probability of every token of each text:

- **OpenAI-compatible server**: ``POST /completions`` with ``echo: true``, ``logprobs: 0`` and
  ``max_tokens: 1``: the prompt's tokens come back with their log-probabilities (the one
  generated token is cut off by its text offset). A server that refuses or answers without
  them gets a clear refusal (exit 2), never a made-up number.
- **vLLM** (in this process): ``SamplingParams(max_tokens=1, prompt_logprobs=0)``, each prompt
  token's log-probability read by its token id.

The backend, base URL and model default to the run's own (its saved config's ``model``). Per text:
mean token probability (the paper's measure, the mean of exp(log p)) and mean log-probability, over
the tokens after the first (the first has no context). Stored beside the run's store as
``<run>/familiarity.csv`` (with the backend and model), so the figure can be made again without
asking; ``--reuse`` reads it instead of asking. Correlated per task with pass@1: Pearson (Fisher-z
interval) and Spearman (bootstrap interval over tasks). Files in ``--out`` (default
``<run>/familiarity_report``): ``familiarity_tasks.csv``, ``familiarity_correlation.csv``, figure
``familiarity``."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from ibench.results.analyses.common import AnalysisError, Run, console, open_runs, save, show, write_csv

STORE_FILE = "familiarity.csv"


class FamiliarityRefused(AnalysisError):
    """The backend does not give prompt log-probabilities."""


# -- the texts ----------------------------------------------------------------------------------------
def texts(run: Run) -> list[tuple[str, str, str]]:
    """(task, kind, text): each task's statement and its known accepted solutions (any language)."""
    from ibench.tasks.load import load_task

    root = run.tasks_dir or Path(str((run.log.summary.get("meta") or {}).get("tasks_dir") or ""))
    out = []
    for tid in sorted(run.frame["task_id"].unique().to_list()):
        if not (root / tid).is_dir():
            continue
        try:
            task = load_task(root / tid)
        except Exception as e:  # noqa: BLE001 - a task folder that no longer loads: say which and why
            raise AnalysisError(f"task {tid}: {root / tid} does not load ({e})") from None
        out.append((tid, "statement", task.statement()))
        for s in task.solutions:
            if s.expected == "OK":
                out.append((tid, f"solution:{s.path.name}", s.path.read_text(errors="replace")))
    if not out:
        raise AnalysisError(f"{run.log.run_dir}: none of its tasks is in {root} (give the tasks folder with --tasks)")
    return out


def measure(logprobs: Sequence[float]) -> dict[str, float | int]:
    """Mean token probability and mean log-probability of a text's tokens after the first."""
    lps = [float(x) for x in logprobs[1:] if x is not None and math.isfinite(float(x))]
    if not lps:
        return {"tokens": 0, "mean_prob": float("nan"), "mean_logprob": float("nan")}
    return {"tokens": len(lps), "mean_prob": sum(math.exp(x) for x in lps) / len(lps),
            "mean_logprob": sum(lps) / len(lps)}


# -- the backends -------------------------------------------------------------------------------------
def openai_logprobs(base_url: str, model: str, api_key: str | None = None,
                    timeout_s: float = 300.0) -> Callable[[str], list[float]]:
    """A function from a text to its tokens' log-probabilities, asked of an OpenAI-compatible
    ``/completions`` endpoint with echo; :class:`FamiliarityRefused` where the server will not."""
    import httpx

    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    client = httpx.Client(base_url=base_url.rstrip("/"), headers=headers, timeout=timeout_s)

    def ask(text: str) -> list[float]:
        body = {"model": model, "prompt": text, "max_tokens": 1, "echo": True, "logprobs": 0, "temperature": 0.0}
        try:
            r = client.post("/completions", json=body)
        except httpx.HTTPError as e:
            raise FamiliarityRefused(f"{base_url}: no answer ({type(e).__name__}: {e})") from None
        if r.status_code != 200:
            raise FamiliarityRefused(f"{base_url} refuses prompt log-probabilities (POST /completions with echo and "
                                     f"logprobs: HTTP {r.status_code}: {r.text[:300]})")
        try:
            lp = r.json()["choices"][0]["logprobs"]
            values = list(lp["token_logprobs"])
            offsets = lp.get("text_offset")
        except (ValueError, KeyError, IndexError, TypeError):
            raise FamiliarityRefused(f"{base_url} answered /completions with echo but without the prompt's token "
                                     f"log-probabilities (choices[0].logprobs.token_logprobs): {r.text[:300]}") from None
        if offsets and len(offsets) == len(values):
            values = [v for v, off in zip(values, offsets) if off < len(text)]
        elif values:
            values = values[:-1]  # the one generated token
        return values

    return ask


def vllm_logprobs(llm: Any, sampling_params: Any = None) -> Callable[[str], list[float]]:
    """The same from a vLLM engine (``vllm.LLM``): each prompt token's log-probability by its id."""
    if sampling_params is None:
        from vllm import SamplingParams

        sampling_params = SamplingParams(max_tokens=1, prompt_logprobs=0, temperature=0.0)

    def read(out: Any) -> list[float]:
        if out.prompt_logprobs is None:
            raise FamiliarityRefused("the vLLM engine returned no prompt_logprobs")
        return [float("nan") if entry is None else float(entry[tok].logprob)
                for tok, entry in zip(out.prompt_token_ids, out.prompt_logprobs)]

    def ask(text: str) -> list[float]:
        (out,) = llm.generate([text], sampling_params, use_tqdm=False)
        return read(out)

    def ask_all(texts: Sequence[str]) -> list[list[float]]:  # one batch: the engine schedules them together
        return [read(out) for out in llm.generate(list(texts), sampling_params, use_tqdm=False)]

    def close() -> None:
        # Stop the engine's processes while the interpreter is whole: left to exit-time finalizers,
        # vLLM's engine monitor thread runs its clean-up during interpreter shutdown and the process
        # can abort ("terminate called without an active exception", exit -6) after its report.
        core = getattr(getattr(llm, "llm_engine", None), "engine_core", None)
        if core is not None and hasattr(core, "shutdown"):
            core.shutdown()

    ask.many = ask_all  # type: ignore[attr-defined]
    ask.close = close  # type: ignore[attr-defined]
    return ask


def backend_from_run(run: Run, args: argparse.Namespace) -> tuple[str, Callable[[str], list[float]]]:
    """(a description, the asking function) from the flags, else the run's saved model config."""
    import os

    model_cfg = (run.log.config.get("model") or {}) if isinstance(run.log.config, dict) else {}
    if not model_cfg:
        from omegaconf import OmegaConf

        hydra = run.log.run_dir / ".hydra" / "config.yaml"
        if hydra.is_file():
            model_cfg = dict(OmegaConf.to_container(OmegaConf.load(hydra), resolve=False).get("model") or {})  # type: ignore[union-attr]
    target = str(model_cfg.get("_target_", ""))
    kind = args.backend or ("vllm" if "vllm" in target else "openai" if "openai" in target else "")
    model = args.model or model_cfg.get("model")
    if kind == "openai":
        base = args.base_url or model_cfg.get("base_url")
        if not base or not model:
            raise FamiliarityRefused("familiarity needs an OpenAI-compatible server: --base-url and --model (the run's "
                                     "own config names none)")
        key_env = args.api_key_env or model_cfg.get("api_key_env")
        return f"openai {base} {model}", openai_logprobs(str(base), str(model),
                                                         os.environ.get(str(key_env)) if key_env else None)
    if kind == "vllm":
        if not model:
            raise FamiliarityRefused("familiarity with vLLM needs --model (weights folder or id)")
        try:
            from vllm import LLM
        except ImportError:
            raise FamiliarityRefused("vLLM is not installed here (pip install -e '.[vllm]' on a GPU node)") from None
        return f"vllm {model}", vllm_logprobs(LLM(model=str(model), **dict(model_cfg.get("engine_kwargs") or {})))
    raise FamiliarityRefused(f"the run's model ({target or 'unknown'}) has no log-probabilities to ask: the reference "
                             "model replays files; give --backend openai --base-url URL --model ID, or --backend vllm")


# -- the study ----------------------------------------------------------------------------------------
def collect(run: Run, ask: Callable[[str], list[float]], backend: str) -> list[dict[str, Any]]:
    """Every text's measures; in one batch where the backend takes one (vLLM)."""
    items = texts(run)
    many = getattr(ask, "many", None)
    values = many([t for _, _, t in items]) if many else [ask(t) for _, _, t in items]
    return [{"task_id": tid, "kind": kind, "backend": backend, **measure(v)} for (tid, kind, _), v in zip(items, values)]


def fisher_ci(r: float, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    if n < 4 or not math.isfinite(r) or abs(r) >= 1:
        return None
    from statistics import NormalDist

    z, se = math.atanh(r), 1 / math.sqrt(n - 3)
    q = NormalDist().inv_cdf(0.5 + confidence / 2)
    return math.tanh(z - q * se), math.tanh(z + q * se)


def _corr(x: np.ndarray, y: np.ndarray) -> float:
    if x.std() == 0 or y.std() == 0:
        return float("nan")
    return float(np.corrcoef(x, y)[0, 1])


def _rank(x: np.ndarray) -> np.ndarray:
    order = x.argsort(kind="stable")
    ranks = np.empty(len(x))
    ranks[order] = np.arange(len(x))
    for v in np.unique(x):  # ties share their mean rank
        ranks[x == v] = ranks[x == v].mean()
    return ranks


def correlations(xs: Sequence[float], ys: Sequence[float], resamples: int = 1000, confidence: float = 0.95,
                 seed: int = 0) -> dict[str, Any]:
    """Pearson with its Fisher-z interval, Spearman with a bootstrap interval over the pairs."""
    x, y = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    pr = _corr(x, y)
    sr = _corr(_rank(x), _rank(y))
    rng = np.random.default_rng(seed)
    boot = []
    for _ in range(resamples if len(x) > 3 else 0):
        idx = rng.integers(0, len(x), len(x))
        v = _corr(_rank(x[idx]), _rank(y[idx]))
        if math.isfinite(v):
            boot.append(v)
    a = (1 - confidence) / 2
    sci = (float(np.quantile(boot, a)), float(np.quantile(boot, 1 - a))) if len(boot) > 10 else None
    pci = fisher_ci(pr, len(x), confidence)
    return {"n": len(x), "pearson": pr, "pearson_low": pci[0] if pci else None, "pearson_high": pci[1] if pci else None,
            "spearman": sr, "spearman_low": sci[0] if sci else None, "spearman_high": sci[1] if sci else None}


def task_rows(run: Run, measured: list[dict[str, Any]]) -> list[dict[str, Any]]:
    passes = {t: float(g["ok"].mean()) for (t,), g in run.frame.group_by("task_id")}  # type: ignore[arg-type]
    out = []
    for tid in sorted({m["task_id"] for m in measured}):
        st = [m for m in measured if m["task_id"] == tid and m["kind"] == "statement"]
        so = [m for m in measured if m["task_id"] == tid and m["kind"].startswith("solution") and m["tokens"]]
        out.append({"task_id": tid, "pass@1": passes.get(tid),
                    "statement_prob": st[0]["mean_prob"] if st else None,
                    "solution_prob": sum(m["mean_prob"] for m in so) / len(so) if so else None})
    return out


def analyse(run: Run, measured: list[dict[str, Any]], out_dir: Path, con: Any, figures: bool = True) -> dict[str, Path]:
    rows = task_rows(run, measured)
    corr = []
    for kind in ("statement_prob", "solution_prob"):
        pts = [(r[kind], r["pass@1"]) for r in rows if r[kind] is not None and r["pass@1"] is not None
               and math.isfinite(r[kind])]
        if len(pts) >= 2:
            corr.append({"text": kind.split("_")[0], **correlations([p[0] for p in pts], [p[1] for p in pts])})
    show(con, f"Familiarity of {run.label}: mean token probability per task and pass@1", rows)
    show(con, "Familiarity against pass@1 over tasks (Pearson: Fisher-z 95% CI; Spearman: bootstrap 95% CI)", corr)
    files = {"familiarity_tasks_csv": write_csv(rows, out_dir / "familiarity_tasks.csv")}
    if corr:
        files["familiarity_correlation_csv"] = write_csv(corr, out_dir / "familiarity_correlation.csv")
    if figures:
        from ibench.results.figstyle import panels, title

        fig, axes = panels(2, sharey=True)
        for ax, kind in zip(axes, ("statement_prob", "solution_prob")):
            have = [r for r in rows if r[kind] is not None]
            ax.scatter([r[kind] for r in have], [r["pass@1"] for r in have], s=24)
            ax.set_xlabel(f"mean token probability of the {kind.split('_')[0]}")
            ax.set_ylabel("pass@1")
            c = next((x for x in corr if x["text"] == kind.split("_")[0]), None)
            title(ax, f"{kind.split('_')[0]}s" + (f": Pearson {c['pearson']:.2f}, Spearman {c['spearman']:.2f}" if c else ""))
        png, pdf = save(fig, out_dir, "familiarity")
        files.update(familiarity_png=png, familiarity_pdf=pdf)
    return files


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ibench.results familiarity", description=__doc__.split("\n\n")[0])
    ap.add_argument("run", help="a run folder")
    ap.add_argument("--backend", choices=("openai", "vllm"), help="default: the run's own")
    ap.add_argument("--base-url", help="an OpenAI-compatible server (default: the run's)")
    ap.add_argument("--model", help="the model id (openai) or weights (vllm); default: the run's")
    ap.add_argument("--api-key-env", help="environment variable holding the API key (default: the run's)")
    ap.add_argument("--tasks", help="the tasks folder (default: the one the run recorded)")
    ap.add_argument("--reuse", action="store_true", help=f"read the run's {STORE_FILE} instead of asking")
    ap.add_argument("--out", help="output folder (default <run>/familiarity_report)")
    ap.add_argument("--no-figures", action="store_true")
    args = ap.parse_args(list(sys.argv[1:] if argv is None else argv))
    con = console()
    try:
        (run,) = open_runs([args.run], args.tasks)[:1]
        stored = run.log.run_dir / STORE_FILE
        if args.reuse:
            import csv

            if not stored.is_file():
                raise AnalysisError(f"--reuse: {stored} does not exist (run without --reuse first)")
            measured: list[dict[str, Any]] = [{**r, "tokens": int(r["tokens"]), "mean_prob": float(r["mean_prob"]),
                                               "mean_logprob": float(r["mean_logprob"])}
                                              for r in csv.DictReader(open(stored))]
        else:
            backend, ask = backend_from_run(run, args)
            try:
                measured = collect(run, ask, backend)
            finally:
                getattr(ask, "close", lambda: None)()
            write_csv(measured, stored)
        files = analyse(run, measured, Path(args.out) if args.out else run.log.run_dir / "familiarity_report", con,
                        not args.no_figures)
    except AnalysisError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    con.print("wrote " + ", ".join(str(p) for p in [stored, *files.values()]), highlight=False, markup=False, soft_wrap=True)
    return 0

"""Stopping a run cleanly: SIGTERM (Slurm's warning before the time limit) is raised in the main
thread like Ctrl-C, so the launch flushes the store and finishes W&B as interrupted; a second
signal waits while that happens. The re-run resumes (:mod:`ibench.run.pipeline`)."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator


class Terminated(KeyboardInterrupt):
    """SIGTERM (Slurm sends it before the time limit), raised in the main thread like Ctrl-C."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by SIGINT / SIGTERM after its results were flushed and W&B finished."""

    def __init__(self, signum: int, judged: int, expected: int, run_dir: Path) -> None:
        self.signum, self.judged, self.expected, self.run_dir = signum, judged, expected, run_dir
        self.exit_code = 128 + int(signum)
        super().__init__(self.line())

    def line(self) -> str:
        name = signal.Signals(self.signum).name
        return (f"interrupted ({name}): {self.judged} of {self.expected} sample(s) judged and stored in "
                f"{self.run_dir}; run the same command again to resume (nothing judged is redone)")


_last_signal: int | None = None


def _on_term(signum: int, _frame: Any) -> None:
    global _last_signal
    _last_signal = signum
    raise Terminated(signum)


def signum_of(exc: BaseException) -> int:
    """The signal behind an interrupt. Ray's blocking calls (``ray.wait``/``ray.get``) catch
    the :class:`Terminated` our handler raises inside them and raise a plain KeyboardInterrupt
    instead, so the signal the handler last saw counts when the exception has none."""
    signum = getattr(exc, "signum", None)
    if signum:
        return int(signum)
    return int(_last_signal or signal.SIGINT)


_term_handler_active = False


@contextmanager
def interrupt_signals() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` in the main thread while the run goes (unless someone
    else, e.g. submitit, already handles it); SIGINT raises KeyboardInterrupt as usual."""
    global _term_handler_active, _last_signal
    _last_signal = None
    installed = False
    prev: Any = None
    if threading.current_thread() is threading.main_thread():
        prev = signal.getsignal(signal.SIGTERM)
        if prev in (signal.SIG_DFL, None):
            signal.signal(signal.SIGTERM, _on_term)
            installed = _term_handler_active = True
    try:
        yield
    finally:
        if installed:
            _term_handler_active = False
            signal.signal(signal.SIGTERM, prev)


def reclaim_sigterm() -> None:
    """ray.init installs its own fatal-signal handler for SIGTERM (a stack dump, then death):
    put ours back once the cluster is up."""
    if _term_handler_active and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_term)


@contextmanager
def signals_ignored() -> Iterator[None]:
    """While results are flushed after an interrupt, a second Ctrl-C / TERM waits its turn."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    prev = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s in prev:
        signal.signal(s, signal.SIG_IGN)
    try:
        yield
    finally:
        for s, h in prev.items():
            signal.signal(s, h)

"""The results side: what a run leaves on disk and everything read from it.

``store`` (the typed run log: samples, verdicts, cases; crash-safe parquet, resume) →
``metrics`` (pass@k, refine@k, failure taxonomy, bootstrap CIs) → ``report`` (the run's tables
and files), ``wandb_sink`` (the same to W&B), and the readers of finished runs: ``reader``
(:func:`load`), ``runs`` (``show``/``compare``/``sample``), ``sweep``, ``study`` (the paper's
supplementary studies) and ``contest`` (LiveOIBench's human comparison).

``python -m ibench.results show|compare|sample|sweep|study ...`` is the command line.
"""

from ibench.results.reader import ResultsError, RunResults, load

__all__ = ["ResultsError", "RunResults", "load"]

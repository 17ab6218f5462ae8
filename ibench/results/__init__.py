"""The results side: what a run leaves on disk and everything read from it.

``store`` (the typed run log: samples, verdicts, cases; crash-safe parquet, resume) →
``metrics`` (pass@k, refine@k, failure taxonomy, bootstrap CIs) → ``report`` (the run's tables
and files), ``wandb_sink`` (the same to W&B). A finished run is read back through one reader,
``runlog`` (:class:`RunLog`, :func:`load`), by ``runs`` (``show``/``compare``/``sample``),
``sweep``, ``study`` (the paper's supplementary studies), ``contest`` (LiveOIBench's human
comparison) and the ``viewer``.

``python -m ibench.results show|compare|sample|sweep|study ...`` is the command line.
"""

from ibench.results.runlog import ResultsError, RunLog, load

__all__ = ["ResultsError", "RunLog", "load"]

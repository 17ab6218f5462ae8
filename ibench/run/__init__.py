"""The run: what one evaluation is and how it goes, from the command line to the summary.

``python -m ibench.launch`` is the entry point; this package is everything behind it:

- :mod:`~ibench.run.config`: the structured configs behind ``conf/`` and the run folders' names;
- :mod:`~ibench.run.spec`, :mod:`~ibench.run.keys`: the typed record of what a run is
  (:class:`~ibench.run.spec.RunSpec`) and every key its records carry;
- :mod:`~ibench.run.check`, :mod:`~ibench.run.overrides`, :mod:`~ibench.run.preflight`: the
  command line (every job of a sweep) and every setting, checked before anything starts;
- :mod:`~ibench.run.selection`, :mod:`~ibench.run.resume`: which tasks; ``resume=PATH``;
- :mod:`~ibench.run.plan`, :mod:`~ibench.run.pipeline`: the rounds, planned from the store, and
  generation streaming into judging;
- :mod:`~ibench.run.progress`, :mod:`~ibench.run.interrupts`: counts and bars; clean stops;
- :mod:`~ibench.run.driver`, :mod:`~ibench.run.summary`: one run from its checked settings to its
  report; :mod:`~ibench.run.folders`: which folder it writes; :mod:`~ibench.run.multirun`: what
  a sweep sets up before its jobs.

Nothing is imported here, so importing one module of the run imports only what it needs.
"""

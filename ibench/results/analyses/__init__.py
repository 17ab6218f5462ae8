"""The analyses of runs on disk beyond the summary (issue 31): time-limit sensitivity
(:mod:`.timelimit`), token efficiency (:mod:`.efficiency`), parallel vs sequential scaling and
subtask positions (:mod:`.scaling`), cost (:mod:`.cost`), error bars across seeds
(:mod:`.seeds`), code similarity to the known solutions (:mod:`.similarity`, by
:mod:`.winnow`), and the judge's stability (:mod:`.rejudge`). ``python -m ibench.results
analyse WHAT RUN...`` (:mod:`.cli`) and ``python -m ibench.results rejudge RUN --times K``;
docs/ANALYSES.md."""

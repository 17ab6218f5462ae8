import sys

from ibench.results.runs import main

if sys.argv[1:2] == ["analyse"]:  # the analyses of issue 31 (ibench.results.analyses)
    from ibench.results.analyses.cli import main as analyse_main

    sys.exit(analyse_main(sys.argv[2:]))
if sys.argv[1:2] == ["rejudge"]:  # judge a run's stored samples again: the judge's stability
    from ibench.results.analyses.rejudge import main as rejudge_main

    sys.exit(rejudge_main(sys.argv[2:]))
if sys.argv[1:2] == ["familiarity"]:  # statement and solution log-probabilities against pass@1
    from ibench.results.analyses.familiarity import main as familiarity_main

    sys.exit(familiarity_main(sys.argv[2:]))
sys.exit(main())

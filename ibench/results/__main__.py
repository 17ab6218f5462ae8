import sys

from ibench.results.runs import main

argv = sys.argv[1:]
if argv[:1] == ["view"]:  # the results viewer (ibench.results.viewer)
    from ibench.results.viewer import main as view_main

    sys.exit(view_main(argv[1:]))
if argv[:1] == ["behaviors"]:  # reasoning-behavior analysis (ibench.results.behaviors)
    from ibench.results.behaviors import main as behaviors_main

    sys.exit(behaviors_main(argv[1:]))
sys.exit(main())

import sys

from ibench.results.runs import main

sys.exit(main())

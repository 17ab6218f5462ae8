import sys

from ibench.results.cli import main

sys.exit(main())

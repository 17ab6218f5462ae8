"""`python -m ibench.tasks ...` (see :mod:`ibench.tasks.cli`)."""

import os
import sys

from .cli import main

try:
    code = main()
except BrokenPipeError:  # output piped into e.g. `head` and closed early: not an error of ours
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    code = 1
raise SystemExit(code)

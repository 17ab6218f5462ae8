# Python 3: indexes past the end of a list before its first answer: RE (exit status 1), although
# the interactor only sees the solver's output end.
import sys

games, _budget = map(int, sys.stdin.readline().split())
n = int(sys.stdin.readline())  # n >= 1, so [1][n] is always out of range
print("!", [1][n], flush=True)

# Python 3: the same three-way binary search as ok_binary_search.cpp (the judge doubles Python's
# CPU-time limit, SPEC §4).
import sys


def main() -> None:
    readline = sys.stdin.readline
    games, _budget = map(int, readline().split())
    for _ in range(games):
        lo, hi = 1, int(readline())
        while True:
            mid = (lo + hi) // 2
            print("?", mid, flush=True)
            reply = readline().strip()
            if reply == "=":
                print("!", mid, flush=True)
                break
            if reply not in ("<", ">"):
                return  # -1: the interactor has stopped
            if reply == "<":
                hi = mid - 1
            else:
                lo = mid + 1


main()

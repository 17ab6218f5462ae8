// Go: answers every game correctly, then indexes past a slice: panic, exit 2, RE.
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)

	var games, budget int64
	fmt.Fscan(in, &games, &budget)
	for g := int64(0); g < games; g++ {
		var n int64
		if _, err := fmt.Fscan(in, &n); err != nil || n == -1 {
			return
		}
		lo, hi := int64(1), n
		for lo < hi {
			mid := lo + (hi-lo)/2
			fmt.Fprintf(out, "? %d\n", mid)
			out.Flush()
			var r string
			fmt.Fscan(in, &r)
			if r == "-1" || r == "" {
				return
			}
			if r == "=" {
				lo, hi = mid, mid
				break
			}
			if r == "<" {
				hi = mid - 1
			} else {
				lo = mid + 1
			}
		}
		fmt.Fprintf(out, "! %d\n", lo)
		out.Flush()
	}
	var a []int
	idx := int(games)
	fmt.Fprintln(os.Stderr, a[idx])
}

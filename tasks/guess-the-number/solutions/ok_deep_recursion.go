// Go: recursion 10^6 deep before the search; the goroutine stack grows on the heap, well
// within the memory limit.
package main

import (
	"bufio"
	"fmt"
	"os"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	if depth(1000000) != 1000000 {
		return
	}
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

}

func depth(k int) int {
	if k == 0 {
		return 0
	}
	return depth(k-1) + 1
}

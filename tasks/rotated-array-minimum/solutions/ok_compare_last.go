// Go: binary search against the last element (a_i > a_n exactly before the minimum), the same
// as ok_compare_last.cpp; bufio flushed after every query.
package main

import (
	"bufio"
	"fmt"
	"os"
)

var in = bufio.NewReader(os.Stdin)
var out = bufio.NewWriter(os.Stdout)

func ask(i int64) int64 {
	fmt.Fprintf(out, "? %d\n", i)
	out.Flush()
	var v int64
	if _, err := fmt.Fscan(in, &v); err != nil || v == -1 {
		os.Exit(0)
	}
	return v
}

func main() {
	var games, budget int64
	fmt.Fscan(in, &games, &budget)
	for g := int64(0); g < games; g++ {
		var n int64
		if _, err := fmt.Fscan(in, &n); err != nil || n == -1 {
			return
		}
		lo, hi := int64(1), n
		if n > 1 {
			last := ask(n)
			for lo < hi {
				mid := lo + (hi-lo)/2
				if ask(mid) > last {
					lo = mid + 1
				} else {
					hi = mid
				}
			}
		}
		fmt.Fprintf(out, "! %d\n", lo)
		out.Flush()
	}
}

// Go, naive: walks from position 1 until the value drops; far over the budget on large games
// (as qle_linear_scan.cpp).
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
		lo := int64(1)
		if n > 1 {
			prev := ask(1)
			for i := int64(2); i <= n; i++ {
				v := ask(i)
				if v < prev {
					lo = i
					break
				}
				prev = v
			}
		}
		fmt.Fprintf(out, "! %d\n", lo)
		out.Flush()
	}
}

// Go: the greedy of ok_max_heap.go, but it forgets the impossible case: when stuck it reports
// the stops made so far instead of -1 (as wa_never_impossible.cpp).
package main

import (
	"bufio"
	"container/heap"
	"fmt"
	"os"
)

type maxHeap []int64

func (h maxHeap) Len() int           { return len(h) }
func (h maxHeap) Less(i, j int) bool { return h[i] > h[j] }
func (h maxHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *maxHeap) Push(x any)        { *h = append(*h, x.(int64)) }
func (h *maxHeap) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	var n int
	var d, f int64
	fmt.Fscan(in, &n, &d, &f)
	x := make([]int64, n)
	fuel := make([]int64, n)
	for i := 0; i < n; i++ {
		fmt.Fscan(in, &x[i], &fuel[i])
	}
	passed := &maxHeap{}
	reach, stops, i := f, 0, 0
	for reach < d {
		for i < n && x[i] <= reach {
			heap.Push(passed, fuel[i])
			i++
		}
		if passed.Len() == 0 {
			break // should print -1
		}
		reach += heap.Pop(passed).(int64)
		stops++
	}
	fmt.Println(stops)
}

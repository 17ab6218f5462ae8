// Merge sort with the comparison reversed: returns the boxes from heaviest to lightest.
#include "boxes.h"
#include <vector>

static void msort(std::vector<int>& a, int lo, int hi, std::vector<int>& tmp) {
    if (hi - lo <= 1) return;
    int mid = lo + (hi - lo + 1) / 2;
    msort(a, lo, mid, tmp);
    msort(a, mid, hi, tmp);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) tmp[k++] = compare(a[i], a[j]) > 0 ? a[i++] : a[j++];  // reversed
    while (i < mid) tmp[k++] = a[i++];
    while (j < hi) tmp[k++] = a[j++];
    for (k = lo; k < hi; k++) a[k] = tmp[k];
}

std::vector<int> sort_boxes(int n) {
    std::vector<int> a(n), tmp(n);
    for (int i = 0; i < n; i++) a[i] = i + 1;
    msort(a, 0, n, tmp);
    return a;
}

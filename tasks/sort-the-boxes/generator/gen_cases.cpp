// Generator for sort-the-boxes: gen <seed> [--mode non] --n N [--order O]
// Orders: random, sorted (box i has the i-th lightest weight), reversed, merge (a worst case
// for top-down merge sort: every merge interleaves), organ (light boxes in the middle).
#include "testlib.h"
#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>
using namespace std;

// Ranks that make every merge of a top-down merge sort (split ceil/floor) interleave fully.
static void merge_worst(vector<int>& ranks) {
    if (ranks.size() <= 1) return;
    vector<int> left, right;
    for (size_t k = 0; k < ranks.size(); k++) (k % 2 == 0 ? left : right).push_back(ranks[k]);
    merge_worst(left);
    merge_worst(right);
    ranks = left;
    ranks.insert(ranks.end(), right.begin(), right.end());
}

int main(int argc, char* argv[]) {
    registerGen(argc, argv, 1);
    string mode = opt<string>("mode", "non");
    int n = opt<int>("n");
    string order = opt<string>("order", "random");
    ensuref(mode == "non", "only non-adaptive cases");
    ensuref(1 <= n && n <= 1000, "n out of range");
    vector<int> rank(n);  // rank[i] in 0..n-1: position of box i+1 in the sorted order
    for (int i = 0; i < n; i++) rank[i] = i;
    if (order == "random") rnd.shuffle(rank.begin(), rank.end());
    else if (order == "reversed") reverse(rank.begin(), rank.end());
    else if (order == "merge") merge_worst(rank);
    else if (order == "organ") {
        vector<int> idx(n);
        for (int i = 0; i < n; i++) idx[i] = i;
        stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return abs(2 * a - (n - 1)) < abs(2 * b - (n - 1)); });
        for (int k = 0; k < n; k++) rank[idx[k]] = k;
    }
    else if (order != "sorted") quitf(_fail, "unknown order %s", order.c_str());
    // Distinct weights: increasing random values assigned by rank.
    vector<int> weights(n);
    int cur = 0;
    for (int k = 0; k < n; k++) weights[k] = cur += rnd.next(1, 1000);
    printf("%d\n", n);
    for (int i = 0; i < n; i++) printf("%d%c", weights[rank[i]], i + 1 == n ? '\n' : ' ');
    return 0;
}

// Interface of the task "Sort the Boxes". Your solution implements sort_boxes; the grader
// provides compare. Do not define main, and do not use standard input/output yourself.
#pragma once
#include <vector>

// Compares boxes i and j (1 <= i, j <= n, i != j) on the balance:
// returns -1 if box i is lighter than box j, and 1 if it is heavier.
int compare(int i, int j);

// Returns all boxes 1..n ordered from the lightest to the heaviest.
std::vector<int> sort_boxes(int n);

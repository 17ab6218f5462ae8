// Hostile: a fork bomb. The sandbox must cap the process count and end every process it made;
// the run ends on the CPU limit (TLE) and no stray process may survive it.
#include <unistd.h>
int main() {
    while (1) fork();
}

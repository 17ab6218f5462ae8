// Java: the greedy of ok_max_heap.cpp (drive as far as the fuel allows, remember the depots
// passed, take the largest when stuck) with a PriorityQueue and a byte-buffer reader.
import java.io.*;
import java.util.*;

public class Main {
    static DataInputStream in = new DataInputStream(new BufferedInputStream(System.in, 1 << 16));

    static long next() throws IOException {
        int c = in.read();
        while (c != '-' && (c < '0' || c > '9')) c = in.read();
        boolean neg = c == '-';
        if (neg) c = in.read();
        long v = 0;
        while (c >= '0' && c <= '9') {
            v = v * 10 + (c - '0');
            c = in.read();
        }
        return neg ? -v : v;
    }

    public static void main(String[] args) throws IOException {
        int n = (int) next();
        long d = next(), f = next();
        long[] x = new long[n], fuel = new long[n];
        for (int i = 0; i < n; i++) {
            x[i] = next();
            fuel[i] = next();
        }
        PriorityQueue<Long> passed = new PriorityQueue<>(Collections.reverseOrder());
        long reach = f;
        int stops = 0, i = 0;
        while (reach < d) {
            while (i < n && x[i] <= reach) passed.add(fuel[i++]);
            if (passed.isEmpty()) {
                System.out.println(-1);
                return;
            }
            reach += passed.poll();
            stops++;
        }
        System.out.println(stops);
    }
}

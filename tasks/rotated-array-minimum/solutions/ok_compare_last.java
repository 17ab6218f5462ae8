// Java: binary search against the last element (a_i > a_n exactly before the minimum), the same
// as ok_compare_last.cpp; a reader of whole lines and a PrintWriter flushed after every query.
import java.io.*;
import java.util.*;

public class Main {
    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    static PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
    static StringTokenizer tok = new StringTokenizer("");

    static long next() throws IOException {
        while (!tok.hasMoreTokens()) {
            String line = in.readLine();
            if (line == null) return -1;
            tok = new StringTokenizer(line);
        }
        return Long.parseLong(tok.nextToken());
    }

    static long ask(long i) throws IOException {
        out.println("? " + i);
        out.flush();
        long v = next();
        if (v == -1) System.exit(0);
        return v;
    }

    public static void main(String[] args) throws IOException {
        long games = next();
        next();
        for (long g = 0; g < games; g++) {
            long n = next();
            if (n == -1) return;
            long lo = 1, hi = n;
            if (n > 1) {
                long last = ask(n);
                while (lo < hi) {
                    long mid = lo + (hi - lo) / 2;
                    if (ask(mid) > last) lo = mid + 1; else hi = mid;
                }
            }
            out.println("! " + lo);
            out.flush();
        }
    }
}

// Java: recursion 10^6 deep before the search (about 100 MB of stack): the main thread's stack
// is the memory limit (-Xss), as C++'s is.
import java.io.*;
import java.util.*;

public class Main {
    static BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
    static PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
    static StringTokenizer tok = new StringTokenizer("");

    static String next() throws IOException {
        while (!tok.hasMoreTokens()) {
            String line = in.readLine();
            if (line == null) return "-1";
            tok = new StringTokenizer(line);
        }
        return tok.nextToken();
    }

    static long depth(int k, long acc) {
        if (k == 0) return acc;
        long r = depth(k - 1, acc + 1);
        return r;
    }

    public static void main(String[] args) throws IOException {
        if (depth(1_000_000, 0) != 1_000_000) return;
        long games = Long.parseLong(next());
        next();
        for (long g = 0; g < games; g++) {
            long n = Long.parseLong(next());
            if (n == -1) return;
            long lo = 1, hi = n;
            while (lo < hi) {
                long mid = lo + (hi - lo) / 2;
                out.println("? " + mid);
                out.flush();
                String r = next();
                if (r.equals("-1")) return;
                if (r.equals("=")) { lo = hi = mid; break; }
                if (r.equals("<")) hi = mid - 1; else lo = mid + 1;
            }
            out.println("! " + lo);
            out.flush();
        }
        
    }
}

class Deep {}

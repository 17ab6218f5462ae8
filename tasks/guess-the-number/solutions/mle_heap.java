// Java: keeps 8 MB arrays until the heap (-Xmx = the 256 MB limit) is full: OutOfMemoryError, MLE.
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

    public static void main(String[] args) throws IOException {
        List<long[]> keep = new ArrayList<>();
        while (keep.size() >= 0) { long[] a = new long[1 << 20]; a[a.length - 1] = keep.size(); keep.add(a); }
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

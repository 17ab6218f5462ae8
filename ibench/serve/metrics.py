"""The gateway's own figures, in Prometheus' text format (``GET /metrics``): queue depth,
verdicts by label, verdicts per second, latency percentiles, judge errors. Ray Serve's own
metrics (replicas, handle queues, HTTP codes) are on Ray's metrics export port as usual."""

from __future__ import annotations

import time
from collections import Counter, deque

WINDOW_S = 60.0  # verdicts/s and latency percentiles over the last minute
KEEP = 10000  # latencies kept for the percentiles


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by the nearest-rank rule; 0 for no values."""
    if not values:
        return 0.0
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(-(-q * len(s) // 100)) - 1))
    return s[k]


class Metrics:
    def __init__(self) -> None:
        self.pending = 0  # submissions admitted, not yet answered (the queue depth)
        self.verdicts: Counter[str] = Counter()
        self.requests: Counter[str] = Counter()  # by endpoint and outcome
        self.rejected = 0  # 429s
        self.retries = 0  # submissions sent again after their replica died
        self._done: deque[tuple[float, float]] = deque(maxlen=KEEP)  # (finish time, latency s)
        self.started = time.time()

    def verdict(self, label: str, latency_s: float) -> None:
        self.verdicts[label] += 1
        self._done.append((time.time(), latency_s))

    def recent(self) -> tuple[float, list[float]]:
        now = time.time()
        lat = [lat for t, lat in self._done if now - t <= WINDOW_S]
        span = min(WINDOW_S, max(1e-9, now - self.started))
        return len(lat) / span, lat

    def snapshot(self) -> dict:
        rate, lat = self.recent()
        return {"pending": self.pending, "verdicts": dict(self.verdicts), "judge_errors": self.verdicts.get("SE", 0),
                "verdicts_per_s": round(rate, 3), "rejected": self.rejected, "retries": self.retries,
                "latency_s": {f"p{q}": round(percentile(lat, q), 4) for q in (50, 95, 99)}}

    def prometheus(self) -> str:
        rate, lat = self.recent()
        lines = [
            "# HELP ibench_serve_queue_depth Submissions admitted and not yet answered.",
            "# TYPE ibench_serve_queue_depth gauge", f"ibench_serve_queue_depth {self.pending}",
            "# HELP ibench_serve_verdicts_total Submissions answered, by verdict.",
            "# TYPE ibench_serve_verdicts_total counter",
        ]
        lines += [f'ibench_serve_verdicts_total{{verdict="{v}"}} {n}' for v, n in sorted(self.verdicts.items())]
        lines += [
            "# HELP ibench_serve_judge_errors_total Submissions answered SE (a judge error, after re-judging).",
            "# TYPE ibench_serve_judge_errors_total counter", f"ibench_serve_judge_errors_total {self.verdicts.get('SE', 0)}",
            f"# HELP ibench_serve_verdicts_per_second Verdicts per second over the last {WINDOW_S:g} s.",
            "# TYPE ibench_serve_verdicts_per_second gauge", f"ibench_serve_verdicts_per_second {rate:.4f}",
            f"# HELP ibench_serve_latency_seconds Submission latency (admitted to answered), last {WINDOW_S:g} s.",
            "# TYPE ibench_serve_latency_seconds summary",
        ]
        lines += [f'ibench_serve_latency_seconds{{quantile="{q / 100:g}"}} {percentile(lat, q):.6f}' for q in (50, 95, 99)]
        lines += [f"ibench_serve_latency_seconds_count {len(lat)}", f"ibench_serve_latency_seconds_sum {sum(lat):.6f}",
                  "# HELP ibench_serve_rejected_total Requests refused with 429 (back-pressure).",
                  "# TYPE ibench_serve_rejected_total counter", f"ibench_serve_rejected_total {self.rejected}",
                  "# HELP ibench_serve_retries_total Submissions sent again after their replica died.",
                  "# TYPE ibench_serve_retries_total counter", f"ibench_serve_retries_total {self.retries}",
                  "# HELP ibench_serve_requests_total HTTP requests, by endpoint and status.",
                  "# TYPE ibench_serve_requests_total counter"]
        lines += [f'ibench_serve_requests_total{{endpoint="{k.split(" ")[0]}",status="{k.split(" ")[1]}"}} {n}'
                  for k, n in sorted(self.requests.items())]
        return "\n".join(lines) + "\n"

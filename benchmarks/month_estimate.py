"""A full month on paper: fit measured (games, seconds) at three or more sizes, extrapolate.

Usage: ``python benchmarks/month_estimate.py --stage ingest 250000:1.9,500000:3.8,1000000:7.5
[--stage rate ...] [--month 92000000]``

For each stage the time is fitted as ``t = a * n ** b`` (least squares on the logarithms:
``b`` = 1 is linear growth, above 1 worse than linear) and as a straight line ``t = c + d *
n``; both are extrapolated to ``--month`` games (a real month of the open database is
about 92 M games) and printed with the fitted exponent, so the reader sees how far the
line is carried. Not a benchmark: it takes bench_db.py's figures as its input.

``--budget-hours H`` says whether the month fits in H hours on the machine measured (by the
worse of the two fits); when it does not, the run belongs on a Spark cluster, and the
command to give is printed (``db rate --engine spark --master spark://HOST:7077 --warehouse
DIR``, the warehouse on storage every executor reaches).

Figures of 2026-12-02 (``bench_db.py --data``; 2 cores under a load average of 11 to 16
from other work, so CPU seconds are the steadier input; wall in brackets)::

    --stage ingest 240000:8.42,480000:15.78,1000000:29.27        [50.4, 86.0, 122.5 s]
    --stage rate 2499799:9.92,4999815:17.62,9999788:34.75        [29.6, 51.0, 84.6 s]
    --stage compare 2499799:36.06,4999815:45.12,9999788:66.57    [91.8, 120.4, 171.1 s]

Rate's games are spread over 12 months (833k a month at 10 M); a real month holds all its
92 M games at once, so its step's joins and aggregates are 110 times larger than any
measured here and spill beyond the 500 MB limit: the fit is a floor for rate, not a bound.
"""

from __future__ import annotations

import argparse
import math


def fit_power(points: list[tuple[float, float]]) -> tuple[float, float]:
    """(a, b) of ``t = a * n ** b``, least squares on log t against log n."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    return math.exp(my - b * mx), b


def fit_line(points: list[tuple[float, float]]) -> tuple[float, float]:
    """(c, d) of ``t = c + d * n``, least squares."""
    mx = sum(n for n, _ in points) / len(points)
    my = sum(t for _, t in points) / len(points)
    d = sum((n - mx) * (t - my) for n, t in points) / sum((n - mx) ** 2 for n, _ in points)
    return my - d * mx, d


def main(argv: list[str] | None = None) -> None:
    """Fit each stage and print the month's estimate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--stage", nargs=2, action="append", metavar=("NAME", "N:SECONDS,..."))
    parser.add_argument("--month", type=float, default=92e6)
    parser.add_argument("--budget-hours", type=float, default=None)
    args = parser.parse_args(argv)
    total_power = total_line = 0.0
    for name, text in args.stage or []:
        points = [(float(n), float(t)) for n, t in (p.split(":") for p in text.split(","))]
        if len({n for n, _ in points}) < 2:
            parser.error(f"--stage {name}: give times at two sizes or more to fit a growth")
        a, b = fit_power(points)
        c, d = fit_line(points)
        power, line = a * args.month**b, c + d * args.month
        total_power, total_line = total_power + power, total_line + line
        print(
            f"{name}: t = {a:.3g} * n^{b:.3f} -> {power / 60:,.1f} min for {args.month:,.0f} "
            f"games; line t = {c:.3g} + {d:.3g} n -> {line / 60:,.1f} min"
        )
    print(f"all stages: {total_power / 60:,.1f} min (power fits), {total_line / 60:,.1f} (lines)")
    if args.budget_hours is not None:
        worst = max(total_power, total_line) / 3600
        if worst <= args.budget_hours:
            print(f"fits the {args.budget_hours:g} h budget on this machine ({worst:.1f} h)")
        else:
            print(
                f"over the {args.budget_hours:g} h budget ({worst:.1f} h): rate on a Spark "
                "cluster, lichess-elo db rate --db FILE --engine spark --master "
                "spark://HOST:7077 --warehouse DIR (DIR on storage every executor reaches)"
            )


if __name__ == "__main__":
    main()

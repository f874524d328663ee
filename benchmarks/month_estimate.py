"""A full month on paper: fit measured (games, seconds) at three or more sizes, extrapolate.

Usage: ``python benchmarks/month_estimate.py --stage ingest 250000:1.9,500000:3.8,1000000:7.5
[--stage rate ...] [--month 92000000]``

For each stage the time is fitted as ``t = a * n ** b`` (least squares on the logarithms:
``b`` = 1 is linear growth, above 1 worse than linear) and as a straight line ``t = c + d *
n``; both are extrapolated to ``--month`` games (a real month of the open database is
about 92 M games) and printed with the fitted exponent, so the reader sees how far the
line is carried. Not a benchmark: it takes bench_db.py's figures as its input.
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
    args = parser.parse_args(argv)
    total_power = total_line = 0.0
    for name, text in args.stage or []:
        points = [(float(n), float(t)) for n, t in (p.split(":") for p in text.split(","))]
        a, b = fit_power(points)
        c, d = fit_line(points)
        power, line = a * args.month**b, c + d * args.month
        total_power, total_line = total_power + power, total_line + line
        print(
            f"{name}: t = {a:.3g} * n^{b:.3f} -> {power / 60:,.1f} min for {args.month:,.0f} "
            f"games; line t = {c:.3g} + {d:.3g} n -> {line / 60:,.1f} min"
        )
    print(f"all stages: {total_power / 60:,.1f} min (power fits), {total_line / 60:,.1f} (lines)")


if __name__ == "__main__":
    main()

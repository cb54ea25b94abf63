#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mann-Whitney U test of two samples, as FuzzBench compares fuzzers.

    bench/mann_whitney.py "1.2 3.4 ..." "2.0 5.1 ..."

Prints U (of the first sample), the two-sided p-value (exact, over every
split of the pooled sample, when there are at most 200000 splits; else
the normal approximation with the tie correction) and the Vargha-Delaney
A12 effect size (the probability that a value of the first sample is
larger than one of the second, ties counting half).  Times of trials that
found nothing are passed as the cap: they tie at the top.
"""
import itertools
import math
import sys


def u_stat(a, b):
    u = 0.0
    for x in a:
        for y in b:
            u += 1.0 if x > y else 0.5 if x == y else 0.0
    return u


def die(msg):
    print("mann_whitney: " + msg, file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) != 3:
        die("want two quoted lists of numbers")
    try:
        a = [float(v) for v in sys.argv[1].split()]
        b = [float(v) for v in sys.argv[2].split()]
    except ValueError as e:
        die("not a number: %s" % e)
    if not a or not b:
        die("both samples need values")
    n1, n2 = len(a), len(b)
    u = u_stat(a, b)
    mean = n1 * n2 / 2.0
    pooled = a + b
    if math.comb(n1 + n2, n1) <= 200000:
        dev = abs(u - mean)
        hits = total = 0
        for idx in itertools.combinations(range(n1 + n2), n1):
            s = set(idx)
            x = [pooled[i] for i in idx]
            y = [pooled[i] for i in range(n1 + n2) if i not in s]
            total += 1
            if abs(u_stat(x, y) - mean) >= dev - 1e-9:
                hits += 1
        p = hits / total
        how = "exact"
    else:
        counts = {}
        for v in pooled:
            counts[v] = counts.get(v, 0) + 1
        n = n1 + n2
        ties = sum(t ** 3 - t for t in counts.values())
        var = n1 * n2 / 12.0 * ((n + 1) - ties / (n * (n - 1)))
        z = 0.0 if var <= 0 else (abs(u - mean) - 0.5) / math.sqrt(var)
        p = math.erfc(max(z, 0.0) / math.sqrt(2))
        how = "normal"
    print("U=%.1f p=%.4f (%s) A12=%.2f" % (u, p, how, u / (n1 * n2)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reference values for the experiment report's statistics, from SciPy.

Run once (needs numpy and scipy from PyPI) and commit the output:

    python3 scripts/stats-reference.py > Tests/Fixtures/statistics/scipy-reference.json

The Swift tests (StatisticsReferenceTests) read that file and compare their
own figures to these within 1e-6 (relative, or absolute below 1).
The samples are drawn here from a fixed seed and written into the fixture,
so the Swift side tests the same numbers.
"""
import json
import sys

import numpy as np
import scipy
from scipy import special, stats

rng = np.random.default_rng(20261124)
out = {"generator": "scripts/stats-reference.py", "scipy": scipy.__version__, "numpy": np.__version__}

out["incomplete_beta"] = [
    {"a": a, "b": b, "x": x, "value": float(special.betainc(a, b, x))}
    for a, b, x in [(0.5, 0.5, 0.3), (2, 3, 0.4), (10, 0.5, 0.9), (0.5, 10, 0.01), (200, 0.5, 0.99),
                    (399.5, 0.5, 0.995), (5, 5, 0.5), (1, 1, 0.7), (30, 20, 0.6), (0.1, 0.1, 0.999)]
]
out["incomplete_gamma"] = [
    {"a": a, "x": x, "p": float(special.gammainc(a, x)), "q": float(special.gammaincc(a, x))}
    for a, x in [(0.5, 0.1), (0.5, 3.0), (1, 1), (2.5, 10), (10, 3), (10, 30), (50, 45), (0.5, 20), (3, 0.001)]
]
out["student_t"] = [
    {"df": df, "t": t, "sf": float(stats.t.sf(t, df)), "cdf": float(stats.t.cdf(t, df))}
    for df, t in [(1, 1.0), (2.5, -0.7), (5, 2.571), (10, 3.5), (30.7, 1.96), (200, -2.2), (798.3, 0.1), (3, 12.0)]
]
out["student_t_quantile"] = [
    {"df": df, "p": p, "value": float(stats.t.ppf(p, df))}
    for df, p in [(1, 0.975), (2, 0.975), (4.5, 0.975), (10, 0.95), (29.3, 0.975), (100, 0.025), (797.8, 0.975), (5, 0.999)]
]
out["normal_quantile"] = [{"p": p, "value": float(stats.norm.ppf(p))} for p in [0.975, 0.5, 0.001, 0.9999, 0.3, 1e-10]]
out["chi_square"] = [
    {"df": df, "x": x, "sf": float(stats.chi2.sf(x, df))}
    for df, x in [(1, 3.84), (1, 10.83), (2, 5.99), (3, 0.5), (1, 0.0001), (5, 40), (1, 25)]
]

welch = []
for n1, n2, m1, m2, s1, s2, whole in [(20, 25, 1.5, 2.0, 1.0, 2.0, False), (400, 400, 1.5, 2.0, 1.5, 1.5, True),
                                       (3, 8, 0.0, 1.0, 1.0, 3.0, False), (1000, 700, -0.3, -0.2, 2.0, 1.0, True),
                                       (50, 50, 5, 5, 1, 1, False)]:
    a = rng.normal(m1, s1, n1)
    b = rng.normal(m2, s2, n2)
    if whole:
        a, b = np.round(a), np.round(b)
    r = stats.ttest_ind(b, a, equal_var=False)
    ci = r.confidence_interval(0.95)
    ma, mb = a.mean(), b.mean()
    va, vb = a.var(ddof=1) / n1, b.var(ddof=1) / n2
    lift = mb / ma - 1
    var_lift = vb / ma**2 + mb**2 * va / ma**4
    z = stats.norm.ppf(0.975)
    welch.append({"control": a.tolist(), "treatment": b.tolist(), "t": float(r.statistic), "p": float(r.pvalue),
                  "df": float(r.df), "ci_low": float(ci.low), "ci_high": float(ci.high),
                  "lift": float(lift), "lift_low": float(lift - z * var_lift ** 0.5),
                  "lift_high": float(lift + z * var_lift ** 0.5)})
out["welch"] = welch

proportions = []
for x1, n1, x2, n2 in [(80, 100, 90, 100), (400, 1000, 430, 1000), (5, 40, 12, 38), (3000, 5000, 3000, 5000), (1, 400, 9, 400)]:
    chi2, p, _, _ = stats.chi2_contingency([[x1, n1 - x1], [x2, n2 - x2]], correction=False)
    p1, p2 = x1 / n1, x2 / n2
    z = np.sign(p2 - p1) * chi2 ** 0.5
    se = (p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2) ** 0.5
    q = stats.norm.ppf(0.975)
    proportions.append({"x1": x1, "n1": n1, "x2": x2, "n2": n2, "z": float(z), "p": float(p),
                        "ci_low": float(p2 - p1 - q * se), "ci_high": float(p2 - p1 + q * se)})
out["two_proportion"] = proportions

gof = []
for observed, shares in [([550, 450], [0.5, 0.5]), ([510, 490], [0.5, 0.5]), ([300, 330, 370], [0.3, 0.3, 0.4]),
                         ([1000, 1100], [0.5, 0.5]), ([18, 2], [0.5, 0.5])]:
    total = sum(observed)
    expected = [total * s / sum(shares) for s in shares]
    r = stats.chisquare(observed, expected)
    gof.append({"observed": observed, "shares": shares, "statistic": float(r.statistic), "p": float(r.pvalue)})
out["chi_square_gof"] = gof

json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")

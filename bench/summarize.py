#!/usr/bin/env python3
"""Turns bench/overhead's JSON output into markdown tables of ivy's overhead.

Usage:
  build/bench/overhead --benchmark_format=json --benchmark_out=overhead.json \
      --benchmark_min_time=0.1 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
  python3 bench/summarize.py overhead.json > table.md
  python3 bench/summarize.py overhead.json --compare other.json   # run-to-run agreement
  python3 bench/summarize.py --change BEFORE.json... -- AFTER.json...   # a change's effect

Each benchmark case <backend>/<fn>/<n> reports, per variant (native, ivy, ns = the
backend's framework-specific namespace, bare = torch's call below autograd), <v>_ns (median
time per call of its interleaved blocks), <v>_allocs (heap allocations per call) and, for
the variants other than native, <v>_pair (median over rounds of the variant's block over the
native block of the same round). The overhead is <v>_pair - 1 (in ns: times the native
time); runs without <v>_pair fall back to the ratio of the two medians. For every backend
and size: function, native ns, ivy ns, overhead % and ns, allocations per call, and the
namespace column where timed; then the mean, median and max overhead per backend and size,
naming the functions above 1 %.
Only the Python standard library is used.
"""
import json
import statistics
import sys
from collections import defaultdict


def load(path):
    data = json.load(open(path))
    times = {}  # (backend, kind, fn, n) -> (ns, allocs)
    split = {}  # (backend, fn, n) -> whether both inputs start off a 32-byte boundary
    has_agg = any(b.get("run_type") == "aggregate" for b in data["benchmarks"])
    for b in data["benchmarks"]:
        # with repetitions, only the median aggregate; without, the single run
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if has_agg and b.get("run_type") != "aggregate":
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if len(parts) < 3:
            continue
        backend, fn, n = parts[0], parts[1], int(parts[2])
        if "in_split" in b:
            split[(backend, fn, n)] = b["in_split"]
        for kind in ("native", "ivy", "ns", "bare"):
            if f"{kind}_ns" in b:
                # (median ns, allocations per call, paired ratio or None in older runs)
                times[(backend, kind, fn, n)] = (b[f"{kind}_ns"], b.get(f"{kind}_allocs", float("nan")),
                                                 b.get(f"{kind}_pair"))
    return times, data.get("context", {}), split


def pct(times, be, kind, f, n):
    """Overhead of variant `kind` over native in % and in ns: from the paired ratio when the
    run has it, else from the two medians."""
    nat = times[(be, "native", f, n)][0]
    t, _, r = times[(be, kind, f, n)]
    if r is None:
        r = t / nat
    return (r - 1.0) * 100.0, (r - 1.0) * nat


def overheads(times, be, n):
    """{function: (overhead %, overhead ns)} for one backend and size."""
    out = {}
    for (b, kind, f, m) in times:
        if b == be and m == n and kind == "ivy" and (be, "native", f, n) in times:
            out[f] = pct(times, be, "ivy", f, n)
    return out


def compare(path_a, path_b):
    """Run-to-run agreement of two runs: summary figures of each and the spread of the
    per-function differences in overhead %."""
    ta, _, _ = load(path_a)
    tb, _, _ = load(path_b)
    print(f"Comparing {path_a} (A) with {path_b} (B)\n")
    print("| backend | elements | mean % A | mean % B | median % A | median % B | median ns A | median ns B "
          "| median abs diff (pct points) | 90th pct abs diff |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for be in sorted({k[0] for k in ta}):
        for n in sorted({k[3] for k in ta if k[0] == be}):
            oa, ob = overheads(ta, be, n), overheads(tb, be, n)
            common = sorted(set(oa) & set(ob))
            if not common:
                continue
            d = sorted(abs(oa[f][0] - ob[f][0]) for f in common)
            pa = [oa[f][0] for f in common]
            pb = [ob[f][0] for f in common]
            print(f"| {be} | {n} | {statistics.mean(pa):.2f} | {statistics.mean(pb):.2f} | {statistics.median(pa):.2f} | "
                  f"{statistics.median(pb):.2f} | {statistics.median(oa[f][1] for f in common):.1f} | "
                  f"{statistics.median(ob[f][1] for f in common):.1f} | {statistics.median(d):.2f} | "
                  f"{d[int(0.9 * (len(d) - 1))]:.2f} |")
    print()


def change(before, after, slower_ns=5.0):
    """A change's effect from interleaved runs of the build before and after it (several
    files each): per backend and size, the mean overhead % of each side (each function's
    median over its side's runs) and their difference; at the smallest size, the functions
    whose overhead in ns grew by more than `slower_ns`."""
    def side(paths):
        per = defaultdict(list)  # (be, n, f) -> [(pct, ns)]
        for path in paths:
            t, _, _ = load(path)
            for be in {k[0] for k in t}:
                for n in {k[3] for k in t if k[0] == be}:
                    for f, v in overheads(t, be, n).items():
                        per[(be, n, f)].append(v)
        return {k: (statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)) for k, v in per.items()}
    a, b = side(before), side(after)
    print(f"Before: {', '.join(before)}; after: {', '.join(after)}\n")
    print("| backend | elements | functions | mean % before | mean % after | change (pct points) |")
    print("|---|---:|---:|---:|---:|---:|")
    slower = []
    for be, n in sorted({(k[0], k[1]) for k in a}):
        common = sorted(f for (bb, nn, f) in a if bb == be and nn == n and (be, n, f) in b)
        if not common:
            continue
        ma = statistics.mean(a[(be, n, f)][0] for f in common)
        mb = statistics.mean(b[(be, n, f)][0] for f in common)
        print(f"| {be} | {n} | {len(common)} | {ma:.2f} | {mb:.2f} | {mb - ma:+.2f} |")
        if n == min(k[1] for k in a if k[0] == be):
            slower += [(b[(be, n, f)][1] - a[(be, n, f)][1], be, f) for f in common
                       if b[(be, n, f)][1] - a[(be, n, f)][1] > slower_ns]
    print()
    print(f"Functions at the smallest size whose overhead grew by more than {slower_ns:g} ns: " +
          (", ".join(f"{be}/{f} (+{d:.1f} ns)" for d, be, f in sorted(slower, reverse=True)) or "none"))


def main(path):
    times, ctx, split = load(path)
    print(f"Machine: {ctx.get('num_cpus')} CPUs at {ctx.get('mhz_per_cpu')} MHz, "
          f"build type {ctx.get('library_build_type')}, {ctx.get('date')}\n")
    backends = sorted({k[0] for k in times})
    for be in backends:
        sizes = sorted({k[3] for k in times if k[0] == be})
        fns = sorted({k[2] for k in times if k[0] == be and k[1] == "ivy"})
        print(f"## {be}\n")
        summary = []
        for n in sizes:
            print(f"### {be}, {n} elements\n")
            has_ns = any((be, "ns", f, n) in times for f in fns)
            has_bare = any((be, "bare", f, n) in times for f in fns)
            hdr = "| function | native ns | ivy ns | overhead % | overhead ns | allocs native | allocs ivy |"
            sep = "|---|---:|---:|---:|---:|---:|---:|"
            if has_ns:
                hdr += " namespace ns | namespace % |"
                sep += "---:|---:|"
            if has_bare:
                hdr += " native below autograd ns | ivy - that, ns |"
                sep += "---:|---:|"
            print(hdr)
            print(sep)
            over = {}
            ns_over = []
            ns_pct = []
            own = []
            for f in fns:
                if (be, "native", f, n) not in times or (be, "ivy", f, n) not in times:
                    continue
                nat, na, _ = times[(be, "native", f, n)]
                iv, ia, _ = times[(be, "ivy", f, n)]
                p, added = pct(times, be, "ivy", f, n)
                over[f] = p
                ns_over.append(added)
                row = f"| {f} | {nat:.1f} | {iv:.1f} | {p:.2f} | {added:.1f} | {na:.1f} | {ia:.1f} |"
                if has_ns:
                    if (be, "ns", f, n) in times:
                        t = times[(be, "ns", f, n)][0]
                        ns_pct.append(pct(times, be, "ns", f, n)[0])
                        row += f" {t:.1f} | {ns_pct[-1]:.2f} |"
                    else:
                        row += " | |"
                if has_bare:
                    if (be, "bare", f, n) in times:
                        t = times[(be, "bare", f, n)][0]
                        own.append(added - pct(times, be, "bare", f, n)[1])
                        row += f" {t:.1f} | {own[-1]:.1f} |"
                    else:
                        row += " | |"
                print(row)
            print()
            if over:
                vals = list(over.values())
                above = sorted(f for f, p in over.items() if p > 1.0)
                spread = f"{min(ns_pct):.2f} .. {max(ns_pct):.2f}" if ns_pct else "-"
                own_s = f"{statistics.median(own):.1f}" if own else "-"
                summary.append((n, statistics.mean(vals), statistics.median(vals), max(vals),
                                statistics.median(ns_over), own_s, spread, len(vals), above))
        print(f"### {be}: summary\n")
        print("| elements | mean % | median % | max % | median ns added | median ns over native below autograd "
              "| namespace % (min .. max) | functions above 1 % |")
        print("|---:|---:|---:|---:|---:|---:|---|---|")
        for n, mean, med, mx, nso, own_s, spread, count, above in summary:
            print(f"| {n} | {mean:.2f} | {med:.2f} | {mx:.2f} | {nso:.1f} | {own_s} | {spread} | "
                  f"{len(above)} of {count}: {', '.join(above) or '-'} |")
        print()
        offs = [(n, sorted(f"{f} ({v:.2f})" for (b, f, m), v in split.items() if b == be and m == n and v > 0))
                for n in sizes]
        if any(k == be for k, _, _ in split):
            print("Cases with input sets whose first two inputs both start off a 32-byte boundary (counter "
                  "`in_split`, the share of the sets; the loops then take their 128-bit or split-load forms): " +
                  "; ".join(f"{n}: {', '.join(fs) or '-'}" for n, fs in offs) + "\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 3 and args[1] == "--compare":
        compare(args[0], args[2])
    elif args and args[0] == "--change" and "--" in args:
        k = args.index("--")
        change(args[1:k], args[k + 1:])
    else:
        main(args[0] if args else "overhead.json")

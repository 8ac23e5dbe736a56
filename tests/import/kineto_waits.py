#!/usr/bin/env python3
"""Each rank's wait at each NCCL collective, from PyTorch profiler traces alone (no ShardLab code):
the independent check of the Kineto importer's waits (tests/import/test_kineto_import.cpp).

Kernels are paired across ranks by (process group, collective name, order); a rank's arrival is
its kernel's start on its trace's clock (baseTimeNanoseconds + ts), its wait the last member's
arrival minus its own. Prints the waits longer than --min-ms, with the kernel's position.

    python3 tests/import/kineto_waits.py tests/import/data/kineto/ddp2 [--min-ms 50]
"""
import argparse, gzip, json, os, sys

def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        return json.load(f)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folder')
    ap.add_argument('--min-ms', type=float, default=50)
    a = ap.parse_args()
    ranks = {}
    for name in sorted(os.listdir(a.folder)):
        d = load(os.path.join(a.folder, name))
        base = d.get('baseTimeNanoseconds', 0)
        calls = {}
        for e in d['traceEvents']:
            if e.get('cat') != 'kernel' or not e.get('name', '').startswith('nccl'):
                continue
            args = e.get('args', {})
            key = (args.get('Process Group Name'), args.get('Collective name'))
            calls.setdefault(key, []).append(base / 1e3 + e['ts'])  # µs
        for v in calls.values():
            v.sort()
        ranks[d['distributedInfo']['rank']] = calls
    n = len(ranks)
    for key in sorted(ranks[0]):
        count = min(len(ranks[r][key]) for r in range(n))
        for i in range(count):
            arrivals = [ranks[r][key][i] for r in range(n)]
            last = max(arrivals)
            for r in range(n):
                w = (last - arrivals[r]) / 1e3
                if w >= a.min_ms:
                    print(f'{key[1]} #{i} rank {r}: waits {w:.3f} ms for rank {arrivals.index(last)}')

if __name__ == '__main__':
    sys.exit(main())

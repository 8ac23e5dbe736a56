#!/usr/bin/env python3
"""Each rank's wait at each NCCL collective and send/receive, from PyTorch profiler traces alone
(no ShardLab code): the independent check of the Kineto importer's waits
(tests/import/test_kineto_import.cpp).

A rank is the one its collectives' record_param_comms names (its "Rank" in the group, through the
group's ranks; "init" counts), else distributedInfo's. Kernels are paired across the members of a
process group by (group, collective name, order); a send from a to b with b's receive from a by
order. A rank's arrival is its kernel's start on its trace's clock (baseTimeNanoseconds + ts), its
wait the last member's arrival minus its own; a send whose kernel ended before its receiver arrived
(NCCL buffered it) waited only until its own end. Prints the waits longer than --min-ms, in order of
time, with the kernel's position.

    python3 tests/import/kineto_waits.py tests/import/data/kineto/ddp2 [--min-ms 50]
"""
import argparse, gzip, json, os, sys


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt') as f:
        return json.load(f)


def ranks_of(text):
    return [int(x) for x in text.strip('[]').split(',') if x.strip()] if isinstance(text, str) else list(text)


def rank_of(d):
    for e in d['traceEvents']:
        a = e.get('args', {})
        if e.get('name') == 'record_param_comms' and a.get('Collective name') not in ('send', 'recv') and 'Rank' in a:
            members = ranks_of(a.get('Process Group Ranks', '[]'))
            if 0 <= a['Rank'] < len(members):
                return members[a['Rank']]
    return d['distributedInfo']['rank']


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folder')
    ap.add_argument('--min-ms', type=float, default=50)
    a = ap.parse_args()
    calls = {}    # (group, name) -> {rank: [arrival µs]}
    members = {}  # group -> ranks
    p2p = {}      # (group, src, dst, 'send'|'recv') -> [arrival µs]
    for name in sorted(os.listdir(a.folder)):
        d = load(os.path.join(a.folder, name))
        base = d.get('baseTimeNanoseconds', 0)
        me = rank_of(d)
        for e in d['traceEvents']:
            if e.get('cat') != 'kernel' or not e.get('name', '').startswith('nccl'):
                continue
            args = e.get('args', {})
            group, coll = args.get('Process Group Name'), args.get('Collective name')
            members[group] = ranks_of(args.get('Process Group Ranks', '[]'))
            t = base / 1e3 + e['ts']
            if coll == 'send':
                p2p.setdefault((group, me, args['Dst Rank'], 'send'), []).append((t, t + e['dur']))
            elif coll == 'recv':
                p2p.setdefault((group, args['Src Rank'], me, 'recv'), []).append((t, t + e['dur']))
            else:
                calls.setdefault((group, coll), {}).setdefault(me, []).append(t)
    waits = []
    for (group, coll), per in calls.items():
        ranks = members[group]
        if any(r not in per for r in ranks):
            continue
        for i in range(min(len(per[r]) for r in ranks)):
            arrivals = {r: sorted(per[r])[i] for r in ranks}
            last = max(arrivals, key=arrivals.get)
            for r in ranks:
                waits.append((arrivals[r], f'{coll} #{i} rank {r}', (arrivals[last] - arrivals[r]) / 1e3, last))
    for (group, src, dst, kind), sends in p2p.items():
        if kind != 'send':
            continue
        recvs = p2p.get((group, src, dst, 'recv'), [])
        for i, ((s, s_end), (r, _)) in enumerate(zip(sorted(sends), sorted(recvs))):
            waits.append((s, f'send #{i} {src}->{dst} rank {src}', max(0.0, min(r, s_end) - s) / 1e3, dst))
            waits.append((r, f'recv #{i} {src}->{dst} rank {dst}', max(0.0, s - r) / 1e3, src))
    for t, what, w, last in sorted(waits):
        if w >= a.min_ms:
            print(f'{what}: waits {w:.3f} ms for rank {last}')


if __name__ == '__main__':
    sys.exit(main())

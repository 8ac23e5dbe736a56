#!/usr/bin/env python3
"""The waits of the real jobs' records (tests/profile/data/JOB), worked out without ShardLab: what
tests/profile/test_profile_real_jobs.cpp expects of each job's straggler (docs/profiling.md,
"Real jobs").

Every rank of these jobs shared one GPU, so the `gpu` readings of all their kernel channels are one
timer (%globaltimer) and need no clock alignment. An operation is matched across ranks as NCCL
numbers it: a collective by (communicator, function, seq), the i-th send from a to b with the i-th
receive on b from a. A rank's arrival is its first channel's start, its end its last channel's end;
the last arrival is the latest; each other member waits from its arrival to the last arrival, cut
at its own end (a send that ended before its receiver came did not wait). The sum of the waits at
the operations rank R reached last, between the set-up's first `setup` operations and the
wrap-up's last `wrapup` (in order of earliest arrival), divided by the steps, is each other rank's
mean wait per step for rank R.

    python3 tests/profile/real_job_waits.py tests/profile/data/fsdp2 --steps 8 --wrapup 10
"""
import argparse
import collections
import glob
import json


def read(path):
    ops, start, end, comms, channel_op = {}, {}, {}, {}, {}
    for line in open(path):
        try:
            r = json.loads(line)
        except ValueError:
            continue  # a last line cut short
        k = r.get("k")
        if k == "comm":
            comms[r["ctx"]] = r
        elif k in ("coll", "p2p"):
            ops[r["id"]] = r
        elif k == "kch":
            channel_op[r["id"]] = r["op"]
            start[r["op"]] = min(start.get(r["op"], 1 << 64), r["gpu"])
        elif k == "kchstop" and r["id"] in channel_op:
            op = channel_op[r["id"]]
            end[op] = max(end.get(op, 0), r["gpu"])
    return ops, start, end, comms


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder")
    p.add_argument("--steps", type=int, required=True)
    p.add_argument("--setup", type=int, default=0)
    p.add_argument("--wrapup", type=int, default=0)
    p.add_argument("--straggler", type=int, default=1)
    a = p.parse_args()
    files = [read(f) for f in sorted(glob.glob(a.folder + "/*.nccl-profile.jsonl"))]
    size = {c["hash"]: c["nranks"] for _, _, _, comms in files for c in comms.values()}
    world = max(size, key=lambda h: size[h])
    global_rank = [next(c["rank"] for c in comms.values() if c["hash"] == world) for _, _, _, comms in files]
    matched = collections.defaultdict(dict)  # key -> {global rank: (arrival, end)}
    for f, (ops, start, end, comms) in enumerate(files):
        pairs = collections.Counter()
        for i, op in sorted(ops.items(), key=lambda kv: kv[1]["t"]):  # in the order the rank issued them
            if i not in start:
                continue
            comm = comms[op["ctx"]]
            if op["k"] == "p2p":
                me = comm["rank"]
                pair = (comm["hash"], me, op["peer"]) if op["func"] == "Send" else (comm["hash"], op["peer"], me)
                key = pair + (pairs[pair],)
                pairs[pair] += 1
            else:
                key = (comm["hash"], op["func"], op["seq"])
            matched[key][global_rank[f]] = (start[i], end.get(i, start[i]))
    timeline = sorted(matched.values(), key=lambda m: min(v[0] for v in m.values()))
    waits = collections.Counter()
    for m in timeline[a.setup:len(timeline) - a.wrapup]:
        last = max(m, key=lambda r: m[r][0])
        if last != a.straggler:
            continue
        for r, (arrival, end) in m.items():
            if r != last:
                waits[r] += max(0, min(m[last][0], end) - arrival)
    for r in sorted(waits):
        print(f"rank {r} waited {waits[r] / 1e6 / a.steps:.2f} ms per step for rank {a.straggler}")


if __name__ == "__main__":
    main()

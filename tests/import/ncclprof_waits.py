#!/usr/bin/env python3
"""The waits in trace files of NCCL's example profiler plugin, from the files alone: the reference
the importer's tests (test_ncclprof_import.cpp) compare against, written apart from the C++ reader.

For each collective (communicator hash, name, SeqNum) every rank's arrival is its first kernel
channel's StartGpuClk (ns, the GPU's %globaltimer); a rank's wait is the last arrival minus its
own. A receive (the k-th from a peer, paired with that peer's k-th send to it) waits from its
own start until its send's start; a send waits for nobody (NCCL buffers small sends). Prints
the waits above --min-ms.
    python3 tests/import/ncclprof_waits.py tests/import/data/ncclprof/ddp2/*.json*
"""
import argparse
import gzip
import json
import re


def events(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            line = line.strip().rstrip(",")
            if not line.startswith('{"name"'):
                continue
            # the plugin prints some names and pointers without quotes
            line = re.sub(r'(:\s*)([A-Za-z_(][^,}\s"]*|0x[0-9a-fA-F]+)', r'\1"\2"', line)
            yield json.loads(line)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("files", nargs="+")
    p.add_argument("--min-ms", type=float, default=50.0)
    a = p.parse_args()
    arrivals = {}  # (hash, name, seq) -> {rank: start ns}
    sends, recvs = {}, {}  # (hash, from, to) -> [start ns of each, in order]
    for path in a.files:
        current = None
        for e in events(path):
            if e["cat"] == "P2P" and e["ph"] == "b":
                args = e["args"]
                me, peer = args["Rank"], args["Peer"]
                key = (args["CommHash"], me, peer) if e["name"] == "Send" else (args["CommHash"], peer, me)
                side = sends if e["name"] == "Send" else recvs
                side.setdefault(key, []).append(None)
                current = ("p2p", side, key, len(side[key]) - 1)
            elif e["cat"] == "P2P" and e["ph"] == "e":
                current = None
            elif e["cat"] == "GPU" and e["ph"] == "b" and current and current[0] == "p2p":
                _, side, key, k = current
                start = e["args"]["StartGpuClk"]
                if start > 0:
                    side[key][k] = start if side[key][k] is None else min(side[key][k], start)
            elif e["cat"] == "COLL" and e["ph"] == "b":
                args = e["args"]
                current = (args["CommHash"], e["name"], args["SeqNum"], args["Rank"])
            elif e["cat"] == "COLL" and e["ph"] == "e":
                current = None
            elif e["cat"] == "GPU" and e["ph"] == "b" and current and e["args"]["StartGpuClk"] > 0:
                key, rank = current[:3], current[3]
                start = e["args"]["StartGpuClk"]
                ranks = arrivals.setdefault(key, {})
                ranks[rank] = min(ranks.get(rank, start), start)
    for key, ranks in sorted(arrivals.items(), key=lambda kv: min(kv[1].values())):
        last = max(ranks.values())
        for rank, start in sorted(ranks.items()):
            wait = (last - start) / 1e6
            if wait > a.min_ms:
                print(f"{key[1]} #{key[2]}: rank {rank} waits {wait:.3f} ms")


    for key, starts in sorted(recvs.items()):
        for k, start in enumerate(starts):
            sent = sends.get(key, [])
            if start is None or k >= len(sent) or sent[k] is None:
                continue
            wait = (sent[k] - start) / 1e6
            if wait > a.min_ms:
                print(f"Recv #{k} from rank {key[1]}: rank {key[2]} waits {wait:.3f} ms")


if __name__ == "__main__":
    main()

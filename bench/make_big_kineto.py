#!/usr/bin/env python3
"""Big PyTorch profiler (Kineto) traces for the import benchmark (issue 28, section 5).

    bench/make_big_kineto.py OUT_DIR [--ranks N] [--mb S] [--straggler R] [--gzip]

Writes OUT_DIR/kineto_rank<R>.json (or .json.gz with --gzip) for ranks 0..N-1, each about S MB of
JSON text (uncompressed), made from the real 4-rank DDP traces in tests/import/data/kineto/ddp4/
(tests/import/data/README.md says how they were recorded): each sample's recorded window
(ProfilerStep#2..#5, 12 NCCL all-reduce kernels, ~2,800 events, ~700 KB) is repeated end to end
with every timestamp shifted by a fixed period, so a file holds K copies of those 4 steps, written
as Kineto writes them (the samples' own text, event by event, with "ts", flow/correlation ids and
ProfilerStep numbers renumbered per copy).

Ranks: output rank R (default 1) is the samples' rank 1, the straggler: it sleeps 300 ms on the
host before the first bucket all-reduce of the 2nd and 4th step of each copy (the samples' steps 3
and 5), and the others wait for it there (their kernels of that collective last ~315-330 ms,
recorded). Every other output rank is one of the samples' ranks 0, 2, 3 in turn. All samples are
on one clock (one host), so the copies line up across ranks. Collectives are consistent: every
rank has the same count (12 per copy) with the same arguments, "Group size" N and "Process Group
Ranks" "[0, ..., N-1]"; distributedInfo says rank R, world_size N, one process group of ranks
0..N-1. Expected import result: the straggler is rank R; the others wait ~300 ms at 2 collectives
per copy.

Deterministic: no randomness; the same arguments give the same bytes.
"""

import argparse
import gzip
import hashlib
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "tests", "import", "data", "kineto", "ddp4")
SAMPLE_STRAGGLER = 1
SAMPLE_OTHERS = (0, 2, 3)
GAP_US = 1000  # between one copy's last event and the next copy's first

# Per copy: "ts" shifted by the period, ids by a stride, ProfilerStep#N by the recorded step count.
SLOT = re.compile(r'("ts": )(\d+)|("(?:id|correlation|External id)": )(\d+)|(ProfilerStep#)(\d+)')
TS, ID, STEP = 0, 1, 2


def load(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return f.read()


class Sample:
    """One sample rank's trace: its header, its events as text (body: repeated; tail: once)."""

    def __init__(self, text):
        start = text.index('"traceEvents": [')
        start = text.index("[", start) + 1
        self.header = text[:start]
        dec = json.JSONDecoder()
        pos, self.body, self.tail, self.events = start, [], [], []
        while True:
            while text[pos] in " \t\r\n,":
                pos += 1
            if text[pos] == "]":
                break
            event, end = dec.raw_decode(text, pos)
            raw = text[pos:end]
            pos = end
            once = event.get("ph") in ("M", "i") or event.get("cat") == "Trace"
            (self.tail if once else self.body).append((event, raw))
        self.after = text[pos:]  # '],\n  "traceName": ...\n}'
        timed = [e for e, _ in self.body if isinstance(e.get("ts"), (int, float))]
        self.first = min(e["ts"] for e in timed)
        self.last = max(e["ts"] + e.get("dur", 0) for e in timed)
        self.max_id = 0
        self.steps = set()
        for _, raw in self.body:
            for m in SLOT.finditer(raw):
                if m.group(4):
                    self.max_id = max(self.max_id, int(m.group(4)))
                elif m.group(6):
                    self.steps.add(int(m.group(6)))


def group_text(text, n):
    ranks = "[" + ", ".join(str(r) for r in range(n)) + "]"
    text = re.sub(r'"Group size": \d+', '"Group size": %d' % n, text)
    return re.sub(r'"Process Group Ranks": "\[[0-9, ]*\]"', '"Process Group Ranks": "%s"' % ranks, text)


class Template:
    """A sample's body as literal pieces and numeric slots, rendered once per copy."""

    def __init__(self, sample, n):
        text = group_text(",\n  ".join(raw for _, raw in sample.body), n)
        self.lits, self.kinds, self.bases = [], [], []
        pos = 0
        for m in SLOT.finditer(text):
            if m.group(1):
                kind, lead, num = TS, m.group(1), m.group(2)
            elif m.group(3):
                kind, lead, num = ID, m.group(3), m.group(4)
            else:
                kind, lead, num = STEP, m.group(5), m.group(6)
            self.lits.append(text[pos:m.start()] + lead)
            self.kinds.append(kind)
            self.bases.append(int(num))
            pos = m.end()
        self.lits.append(text[pos:])
        self.bytes = len(text.encode("utf-8"))

    def render(self, shifts):
        values = [str(b + shifts[k]) for b, k in zip(self.bases, self.kinds)]
        out = [None] * (2 * len(values) + 1)
        out[0::2] = self.lits
        out[1::2] = values
        return "".join(out)


def header_text(sample, rank, n, trace_id):
    m = re.search(r'"distributedInfo": (\{.*\}),\n', sample.header)
    info = json.loads(m.group(1))
    info["rank"], info["world_size"], info["pg_count"] = rank, n, 1
    pg = dict(info["pg_config"][0])
    pg["pg_size"], pg["ranks"] = n, list(range(n))
    info["pg_config"] = [pg]
    head = sample.header[:m.start(1)] + json.dumps(info) + sample.header[m.end(1):]
    return re.sub(r'"trace_id": "[0-9A-F]*"', '"trace_id": "%s"' % trace_id, head)


def tail_text(sample, copies, period_us, name):
    """Metadata and the profiler's span, once; the span and "Record Window End" cover every copy."""
    out = []
    for event, raw in sample.tail:
        if event.get("cat") == "Trace":
            raw = re.sub(r'"dur": [0-9.]+', '"dur": %.3f' % (event["dur"] + (copies - 1) * period_us), raw)
        elif event.get("name") == "Record Window End":
            raw = re.sub(r'("ts": )(\d+)', lambda m: m.group(1) + str(int(m.group(2)) + (copies - 1) * period_us), raw)
        out.append(raw)
    after = re.sub(r'"traceName": "[^"]*"', '"traceName": "%s"' % name, sample.after)
    return ",\n  ".join(out) + "\n  " + after


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", help="folder to write into (created)")
    ap.add_argument("--ranks", type=int, default=8, help="ranks of the job (default 8)")
    ap.add_argument("--mb", type=float, default=150, help="about this many MB (1e6 bytes) of JSON per rank (default 150)")
    ap.add_argument("--straggler", type=int, default=1, help="the rank that is late (default 1)")
    ap.add_argument("--gzip", action="store_true", help="write .json.gz (gzip -6) instead of .json")
    ap.add_argument("--samples", default=SAMPLES, help="folder of the 4-rank samples (default tests/import/data/kineto/ddp4)")
    args = ap.parse_args()
    n = args.ranks
    if n < 2 or not 0 <= args.straggler < n or args.mb <= 0:
        ap.error("need --ranks >= 2, 0 <= --straggler < ranks, --mb > 0")

    samples = {r: Sample(load(os.path.join(args.samples, "kineto_rank%d.json.gz" % r)))
               for r in (SAMPLE_STRAGGLER,) + SAMPLE_OTHERS}
    first = min(s.first for s in samples.values())
    last = max(s.last for s in samples.values())
    period_us = int(last - first) // 1000 * 1000 + 1000 + GAP_US  # whole ms: copies keep the samples' decimals
    id_stride = max(s.max_id for s in samples.values()) + 1
    steps = {frozenset(s.steps) for s in samples.values()}
    assert len(steps) == 1, "the samples record different steps"
    step_count = len(next(iter(steps)))
    counts = {r: sum(1 for e, _ in s.body if e.get("cat") == "kernel" and e.get("name", "").startswith("nccl"))
              for r, s in samples.items()}
    assert len(set(counts.values())) == 1, "the samples have different NCCL kernel counts: %s" % counts

    source = {}
    others = iter(SAMPLE_OTHERS * n)
    for r in range(n):
        source[r] = SAMPLE_STRAGGLER if r == args.straggler else next(others)
    templates = {r: Template(samples[r], n) for r in set(source.values())}
    per_copy = sum(templates[source[r]].bytes for r in range(n)) / n
    copies = max(1, round(args.mb * 1e6 / per_copy))

    os.makedirs(args.out, exist_ok=True)
    for r in range(n):
        sample, template = samples[source[r]], templates[source[r]]
        name = os.path.join(args.out, "kineto_rank%d.json%s" % (r, ".gz" if args.gzip else ""))
        trace_id = hashlib.md5(("shardlab-big-kineto %d %d %d" % (n, copies, r)).encode()).hexdigest().upper()
        raw = open(name, "wb")
        f = gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=6, mtime=0) if args.gzip else raw
        f.write(header_text(sample, r, n, trace_id).encode("utf-8"))
        for k in range(copies):
            text = ("\n  " if k == 0 else ",\n  ") + template.render((k * period_us, k * id_stride, k * step_count))
            f.write(text.encode("utf-8"))
        f.write((",\n  " + tail_text(sample, copies, period_us, os.path.basename(name))).encode("utf-8"))
        f.close()
        if f is not raw:
            raw.close()
        print("%s: rank %d (sample rank %d), %d copies of %d steps, %.1f MB" %
              (name, r, source[r], copies, step_count, os.path.getsize(name) / 1e6), flush=True)
    print("ranks %d, straggler rank %d, %d copies x %d NCCL kernels per rank, period %.3f s" %
          (n, args.straggler, copies, counts[SAMPLE_STRAGGLER], period_us / 1e6))


if __name__ == "__main__":
    sys.exit(main())

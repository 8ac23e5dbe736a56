// Several Flight Recorder dumps (one per rank) as one job: the hang view first, then a timeline of
// what every rank agrees on.
//  * Per process group and collective_seq_id, each member's entry: a member whose dump ends before
//    that seq never called it (the others wait in it); members whose entries differ in op, sizes or
//    dtypes disagree; all called it and some had not completed it: it is stuck. The first such seq
//    of a group is its finding; the earliest finding (by its entries' creation) is the run's
//    explanation, and each rank's pending words say its part.
//  * The timeline: every collective all members called the same way and completed, up to the first
//    finding of its group, through the profiler's builder (profile_build.h): arrival = when the CPU
//    enqueued it (time_created_ns), end = when the watchdog saw it complete; the clock note says so.
#include "import_readers.h"

#include "shardlab/import/flight_recorder.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_scenario.h"
#include "shardlab/text/message.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <system_error>

namespace shardlab {

namespace {

// (named apart from flight_recorder.cpp's fail(): a unity build puts both files in one unit)
Error refuse(Message m) { return badInput(std::move(m)); }

std::string groupText(const FlightRecorderGroup& g) { return g.desc.empty() ? g.name : g.name + " '" + g.desc + "'"; }

std::string shapesText(const std::vector<std::vector<std::int64_t>>& shapes)
{
    std::string s;
    for (const auto& shape : shapes) {
        s += s.empty() ? "[" : ", [";
        for (size_t i = 0; i < shape.size(); ++i)
            s += (i ? ", " : "") + std::to_string(shape[i]);
        s += "]";
    }
    return s.empty() ? "[]" : s;
}

// "all_reduce [197633] Float -> [197633] Float": what a rank called, as its dump has it.
std::string callText(const FlightRecorderEntry& e)
{
    auto types = [](const std::vector<std::string>& t) {
        std::string s;
        for (const auto& x : t)
            s += (s.empty() ? "" : ",") + x;
        return s;
    };
    return e.opName() + " " + shapesText(e.inputSizes) + " " + types(e.inputDtypes) + " -> " + shapesText(e.outputSizes)
           + " " + types(e.outputDtypes);
}

bool sameCall(const FlightRecorderEntry& a, const FlightRecorderEntry& b)
{
    return a.profilingName == b.profilingName && a.inputSizes == b.inputSizes && a.outputSizes == b.outputSizes
           && a.inputDtypes == b.inputDtypes && a.outputDtypes == b.outputDtypes;
}

Message ranksText(const std::vector<int>& ranks)
{
    if (ranks.size() == 1)
        return Message("flight_recorder.rank").with("rank", ranks.front());
    std::string list;
    for (size_t i = 0; i < ranks.size(); ++i)
        list += (i ? "," : "") + std::to_string(ranks[i]);
    return Message("flight_recorder.ranks").with("ranks", list);
}

// ShardLab's operation for PyTorch's name of a collective (NCCL's function name, as the profiler's
// builder takes it); other names pass through and are noted as not modelled.
std::string ncclFunc(const std::string& op)
{
    if (op == "all_reduce" || op == "allreduce" || op == "all_reduce_coalesced" || op == "allreduce_coalesced")
        return "AllReduce";
    if (op == "broadcast")
        return "Broadcast";
    if (op == "reduce")
        return "Reduce";
    if (op == "all_gather" || op == "allgather" || op == "_allgather_base" || op == "all_gather_into_tensor_coalesced"
        || op == "allgather_into_tensor_coalesced")
        return "AllGather";
    if (op == "reduce_scatter" || op == "_reduce_scatter_base" || op == "reduce_scatter_tensor_coalesced")
        return "ReduceScatter";
    return op;
}

std::string ncclType(const std::string& dtype)
{
    static const std::map<std::string, std::string, std::less<>> names = {
        {"Float", "ncclFloat32"}, {"Double", "ncclFloat64"}, {"Half", "ncclFloat16"}, {"BFloat16", "ncclBfloat16"},
        {"Long", "ncclInt64"},    {"Int", "ncclInt32"},      {"Char", "ncclInt8"},    {"Byte", "ncclUint8"},
        {"UInt32", "ncclUint32"}, {"UInt64", "ncclUint64"}};
    const auto it = names.find(dtype);
    return it == names.end() ? std::string() : it->second;
}

enum class FindingKind { NeverCalled, Differs, Stuck };

struct Finding {
    FindingKind kind = FindingKind::NeverCalled;
    std::string group; // pg name
    std::int64_t seq = 0;
    const FlightRecorderEntry* reference = nullptr; // the lowest rank that called it
    int referenceRank = -1;
    std::vector<int> culprits; // never called it / called it differently / not completed
    std::vector<int> others;   // called it (the same way as the reference)
    std::map<int, const FlightRecorderEntry*> calls;
    std::int64_t whenNs = 0; // earliest creation among its entries
};

struct Analysis {
    int world = 0;
    std::map<std::string, FlightRecorderGroup> groups;
    std::vector<const FlightRecorderDump*> dumpOfRank; // nullptr: no dump
    std::vector<Finding> findings;                     // one per group at most
    std::map<std::string, std::int64_t> drawnBelow;    // per group: seqs below this are agreed and drawn
    std::map<std::string, int> leftOut;                // per group: entries at or after its finding
    int p2p = 0, unknownGroup = 0;
};

Message groupMessage(const Analysis& a, const std::string& name)
{
    const auto it = a.groups.find(name);
    return verbatim(it == a.groups.end() ? name : groupText(it->second));
}

Result<Analysis> analyse(const std::vector<FlightRecorderDump>& dumps, std::vector<Message>& notes)
{
    Analysis a;
    const FlightRecorderDump* withGroups = nullptr;
    int highest = -1;
    for (const FlightRecorderDump& d : dumps) {
        if (!d.rank)
            return refuse(Message("error.line.fr_no_rank").with("file", d.origin));
        highest = std::max(highest, *d.rank);
        if (!d.groups.empty() && !withGroups)
            withGroups = &d;
    }
    for (const FlightRecorderDump& d : dumps)
        if (withGroups && !d.groups.empty() && d.groups != withGroups->groups)
            return refuse(Message("error.line.fr_other_job").with("file", d.origin).with("other", withGroups->origin));
    if (withGroups) {
        a.groups = withGroups->groups;
        for (const auto& [name, g] : a.groups)
            for (int r : g.ranks)
                a.world = std::max(a.world, r + 1);
    } else {
        a.world = highest + 1;
        notes.push_back(Message("flight_recorder.note.no_pg_config"));
        std::vector<int> all(static_cast<size_t>(a.world));
        for (int r = 0; r < a.world; ++r)
            all[static_cast<size_t>(r)] = r;
        for (const FlightRecorderDump& d : dumps)
            for (const FlightRecorderEntry& e : d.entries)
                if (!a.groups.count(e.pgName))
                    a.groups[e.pgName] = {e.pgName, e.pgDesc, all};
    }
    a.dumpOfRank.assign(static_cast<size_t>(a.world), nullptr);
    for (const FlightRecorderDump& d : dumps) {
        if (*d.rank >= a.world)
            return refuse(Message("error.line.fr_rank_outside")
                              .with("file", d.origin)
                              .with("rank", *d.rank)
                              .with("ranks", a.world));
        if (const FlightRecorderDump* other = a.dumpOfRank[static_cast<size_t>(*d.rank)])
            return refuse(Message("error.line.fr_same_rank")
                              .with("file", d.origin)
                              .with("other", other->origin)
                              .with("rank", *d.rank));
        a.dumpOfRank[static_cast<size_t>(*d.rank)] = &d;
    }

    for (const auto& [name, group] : a.groups) {
        // Each member's collectives in this group, by seq.
        std::map<int, std::map<std::int64_t, const FlightRecorderEntry*>> bySeq;
        for (int r : group.ranks) {
            const FlightRecorderDump* d = a.dumpOfRank[static_cast<size_t>(r)];
            if (!d)
                continue;
            auto& mine = bySeq[r];
            for (const FlightRecorderEntry& e : d->entries)
                if (e.pgName == name && !e.isP2p && e.collectiveSeqId > 0)
                    mine[e.collectiveSeqId] = &e;
        }
        // Seqs every member's buffer still holds: from the latest first seq on (a ring buffer
        // drops the oldest entries).
        std::int64_t from = 1, to = 0;
        for (const auto& [r, mine] : bySeq)
            if (!mine.empty()) {
                from = std::max(from, mine.begin()->first);
                to = std::max(to, mine.rbegin()->first);
            }
        a.drawnBelow[name] = from;
        for (std::int64_t seq = from; seq <= to; ++seq) {
            Finding f;
            f.group = name;
            f.seq = seq;
            f.whenNs = std::numeric_limits<std::int64_t>::max();
            std::vector<int> absent;
            for (const auto& [r, mine] : bySeq) {
                const auto it = mine.find(seq);
                if (it == mine.end()) {
                    absent.push_back(r);
                    continue;
                }
                f.calls[r] = it->second;
                f.whenNs = std::min(f.whenNs, it->second->timeCreatedNs);
                if (!f.reference) {
                    f.reference = it->second;
                    f.referenceRank = r;
                }
            }
            if (!f.reference)
                continue;
            bool problem = false;
            if (!absent.empty()) {
                f.kind = FindingKind::NeverCalled;
                f.culprits = absent;
                for (const auto& [r, e] : f.calls)
                    f.others.push_back(r);
                problem = true;
            } else {
                for (const auto& [r, e] : f.calls)
                    (sameCall(*e, *f.reference) ? f.others : f.culprits).push_back(r);
                if (!f.culprits.empty()) {
                    f.kind = FindingKind::Differs;
                    problem = true;
                } else {
                    f.others.clear();
                    for (const auto& [r, e] : f.calls)
                        (e->completed() ? f.others : f.culprits).push_back(r);
                    f.kind = FindingKind::Stuck;
                    problem = !f.culprits.empty();
                }
            }
            if (problem) {
                int later = 0;
                for (const auto& [r, mine] : bySeq)
                    for (auto it = mine.lower_bound(seq); it != mine.end(); ++it)
                        ++later;
                a.leftOut[name] = later;
                a.findings.push_back(std::move(f));
                a.drawnBelow[name] = seq;
                break;
            }
            a.drawnBelow[name] = seq + 1;
        }
    }
    for (const FlightRecorderDump& d : dumps)
        for (const FlightRecorderEntry& e : d.entries) {
            if (e.isP2p)
                ++a.p2p;
            else if (!a.groups.count(e.pgName))
                ++a.unknownGroup;
        }
    std::stable_sort(a.findings.begin(), a.findings.end(),
                     [](const Finding& x, const Finding& y) { return x.whenNs < y.whenNs; });
    return a;
}

HangReport hangReport(const Analysis& a)
{
    const int n = a.world;
    HangReport h;
    h.lastCompleted.assign(static_cast<size_t>(n), -1);
    h.pending.assign(static_cast<size_t>(n), "");
    h.pendingMessages.assign(static_cast<size_t>(n), Message());
    // Last completed: in the group of the first finding, else the largest group.
    std::string group = a.findings.empty() ? std::string() : a.findings.front().group;
    if (group.empty())
        for (const auto& [name, g] : a.groups)
            if (group.empty() || g.ranks.size() > a.groups.at(group).ranks.size())
                group = name;
    std::vector<int> missing;
    for (int r = 0; r < n; ++r) {
        const FlightRecorderDump* d = a.dumpOfRank[static_cast<size_t>(r)];
        if (!d) {
            missing.push_back(r);
            h.pendingMessages[static_cast<size_t>(r)] = Message("flight_recorder.pending.no_dump");
            continue;
        }
        std::int64_t last = -1;
        const FlightRecorderEntry* newest = nullptr;
        for (const FlightRecorderEntry& e : d->entries)
            if (e.pgName == group && !e.isP2p) {
                if (e.completed())
                    last = std::max(last, e.collectiveSeqId);
                if (!newest || e.collectiveSeqId > newest->collectiveSeqId)
                    newest = &e;
            }
        h.lastCompleted[static_cast<size_t>(r)] =
            static_cast<int>(std::min<std::int64_t>(last, std::numeric_limits<int>::max()));
        h.pendingMessages[static_cast<size_t>(r)] = newest && !newest->completed()
                                                        ? Message("flight_recorder.pending.in")
                                                              .with("op", newest->opName())
                                                              .with("seq", std::to_string(newest->collectiveSeqId))
                                                              .with("group", groupMessage(a, group))
                                                              .with("state", newest->state)
                                                        : Message("flight_recorder.pending.done");
    }
    // Each finding's ranks, the earliest finding last so that it has the last word.
    for (auto f = a.findings.rbegin(); f != a.findings.rend(); ++f) {
        const Message g = groupMessage(a, f->group);
        const std::string op = f->reference->opName(), seq = std::to_string(f->seq);
        for (int r : f->culprits) {
            Message m;
            if (f->kind == FindingKind::NeverCalled)
                m = Message("flight_recorder.pending.never_called")
                        .with("op", op)
                        .with("seq", seq)
                        .with("group", g)
                        .with("waiting", ranksText(f->others));
            else if (f->kind == FindingKind::Differs)
                m = Message("flight_recorder.pending.differs")
                        .with("call", callText(*f->calls.at(r)))
                        .with("seq", seq)
                        .with("group", g)
                        .with("other", ranksText({f->referenceRank}))
                        .with("theirs", callText(*f->reference));
            else
                m = Message("flight_recorder.pending.stuck")
                        .with("op", op)
                        .with("seq", seq)
                        .with("group", g)
                        .with("state", f->calls.at(r)->state);
            h.pendingMessages[static_cast<size_t>(r)] = std::move(m);
        }
        if (f->kind == FindingKind::NeverCalled)
            for (int r : f->others)
                h.pendingMessages[static_cast<size_t>(r)] = Message("flight_recorder.pending.waiting")
                                                                .with("op", op)
                                                                .with("seq", seq)
                                                                .with("group", g)
                                                                .with("state", f->calls.at(r)->state)
                                                                .with("absent", ranksText(f->culprits));
        if (f->kind == FindingKind::Differs)
            for (int r : f->others)
                h.pendingMessages[static_cast<size_t>(r)] = Message("flight_recorder.pending.in")
                                                                .with("op", op)
                                                                .with("seq", seq)
                                                                .with("group", g)
                                                                .with("state", f->calls.at(r)->state);
    }
    if (!a.findings.empty()) {
        const Finding& f = a.findings.front();
        h.firstMismatchRank = f.culprits.front();
        const Message g = groupMessage(a, f.group);
        const std::string op = f.reference->opName(), seq = std::to_string(f.seq);
        if (f.kind == FindingKind::NeverCalled) {
            h.explanationWording = Message("flight_recorder.explanation.never_called")
                                       .with("absent", ranksText(f.culprits))
                                       .with("op", op)
                                       .with("seq", seq)
                                       .with("group", g)
                                       .with("waiting", ranksText(f.others));
        } else if (f.kind == FindingKind::Differs) {
            std::vector<Message> calls;
            for (const auto& [r, e] : f.calls)
                calls.push_back(Message("flight_recorder.call_of").with("rank", r).with("call", callText(*e)));
            h.explanationWording = Message("flight_recorder.explanation.differs")
                                       .with("seq", seq)
                                       .with("group", g)
                                       .with("calls", listOf(std::move(calls)));
        } else {
            h.explanationWording = Message("flight_recorder.explanation.stuck")
                                       .with("op", op)
                                       .with("seq", seq)
                                       .with("group", g)
                                       .with("ranks", ranksText(f.culprits));
        }
        if (a.findings.size() > 1)
            h.explanationWording = Message("flight_recorder.explanation.more")
                                       .with("explanation", std::move(h.explanationWording))
                                       .with("count", static_cast<int>(a.findings.size()) - 1);
    } else {
        h.firstMismatchRank = missing.empty() ? -1 : missing.front();
        h.explanationWording = Message("flight_recorder.explanation.no_dump").with("ranks", ranksText(missing));
    }
    for (int r = 0; r < n; ++r)
        h.pending[static_cast<size_t>(r)] = english(h.pendingMessages[static_cast<size_t>(r)]);
    h.explanation = english(h.explanationWording);
    return h;
}

// The timeline's records: per rank, the collectives drawn, as the profiler's builder reads them.
std::vector<ProfileFile> timelineFiles(const Analysis& a, int& broadcasts)
{
    std::int64_t base = std::numeric_limits<std::int64_t>::max();
    for (const FlightRecorderDump* d : a.dumpOfRank)
        for (const FlightRecorderEntry& e : d->entries)
            base = std::min(base, e.timeCreatedNs);
    std::vector<ProfileFile> files;
    for (int r = 0; r < a.world; ++r) {
        const FlightRecorderDump& d = *a.dumpOfRank[static_cast<size_t>(r)];
        ProfileFile f;
        f.path = d.origin;
        f.host = "flight recorder"; // one wall clock for every rank (the clock note says so)
        f.pid = r;
        std::map<std::string, std::int64_t> context;
        for (const auto& [name, g] : a.groups) {
            const auto at = std::find(g.ranks.begin(), g.ranks.end(), r);
            if (at == g.ranks.end())
                continue;
            ProfiledComm c;
            c.context = static_cast<std::int64_t>(context.size()) + 1;
            c.hash = std::hash<std::string>{}("pg " + name + " " + g.desc) | 1;
            c.rank = static_cast<int>(at - g.ranks.begin());
            c.ranks = static_cast<int>(g.ranks.size());
            c.name = g.desc;
            context[name] = c.context;
            f.comms.push_back(c);
        }
        std::vector<const FlightRecorderEntry*> drawn;
        for (const FlightRecorderEntry& e : d.entries)
            if (!e.isP2p && context.count(e.pgName) && e.collectiveSeqId < a.drawnBelow.at(e.pgName) && e.completed()
                && e.timeDiscoveredCompletedNs)
                drawn.push_back(&e);
        std::stable_sort(drawn.begin(), drawn.end(),
                         [](auto* x, auto* y) { return x->collectiveSeqId < y->collectiveSeqId; });
        std::map<std::pair<std::string, std::string>, std::uint64_t> perKind; // NCCL numbers collectives per kind
        for (const FlightRecorderEntry* e : drawn) {
            ProfiledOp op;
            op.id = f.ops.size() + 1;
            op.context = context.at(e->pgName);
            op.func = ncclFunc(e->opName());
            op.sequence = perKind[{e->pgName, op.func}]++;
            const std::string type = e->inputDtypes.empty() ? std::string() : ncclType(e->inputDtypes.front());
            FlightRecorderEntry outputs; // reduce-scatter: NCCL's count is per rank, the output's
            outputs.inputSizes = e->outputSizes;
            const std::int64_t elements = op.func == "ReduceScatter" ? outputs.inputElements() : e->inputElements();
            if (type.empty()) { // a dtype NCCL has no name for here: its bytes, as bytes
                const int bytes = e->inputDtypes.empty() ? 1 : torchDtypeBytes(e->inputDtypes.front()).value_or(1);
                op.datatype = "ncclUint8";
                op.count = static_cast<std::uint64_t>(elements) * static_cast<std::uint64_t>(bytes);
            } else {
                op.datatype = type;
                op.count = static_cast<std::uint64_t>(elements);
            }
            if (op.func == "Broadcast" || op.func == "Reduce") {
                op.root = 0; // Flight Recorder does not record the root (a note says so)
                broadcasts += r == 0 ? 1 : 0;
            }
            op.hostNs = static_cast<double>(e->timeCreatedNs - base);
            op.stopNs = static_cast<double>(*e->timeDiscoveredCompletedNs - base);
            op.line = static_cast<int>(std::min<std::int64_t>(e->recordId, std::numeric_limits<int>::max()));
            f.ops.push_back(std::move(op));
        }
        std::stable_sort(f.ops.begin(), f.ops.end(),
                         [](const ProfiledOp& x, const ProfiledOp& y) { return x.hostNs < y.hostNs; });
        files.push_back(std::move(f));
    }
    return files;
}

} // namespace

Result<ImportedJob> flightRecorderJob(const std::vector<FlightRecorderDump>& dumps, const ImportOptions& options)
{
    if (dumps.empty())
        return refuse(Message("error.line.fr_none"));
    std::vector<Message> notes;
    auto analysed = analyse(dumps, notes);
    if (!analysed)
        return analysed.error();
    const Analysis& a = *analysed;
    const int n = a.world;
    std::vector<int> missing;
    for (int r = 0; r < n; ++r)
        if (!a.dumpOfRank[static_cast<size_t>(r)])
            missing.push_back(r);

    if (options.machine && options.machine->rankCount() != n)
        return refuse(Message("error.line.profile_machine_given_size")
                          .with("gpus", options.machine->rankCount())
                          .with("ranks", n));
    ImportedJob job;
    job.launch = std::to_string(n) + (n == 1 ? " rank" : " ranks") + ", PyTorch Flight Recorder dumps";
    int broadcasts = 0;
    std::optional<Error> refused;
    if (missing.empty() && n >= 2) {
        auto built = buildImportedJob(timelineFiles(a, broadcasts), options, "Flight Recorder dumps");
        if (built) {
            job.scenario = std::move(built->scenario);
            job.run = std::move(built->run);
            job.scenario.description = "The program as PyTorch's Flight Recorder recorded it (" + job.launch + ").";
        } else {
            refused = built.error();
        }
    }
    RunResult& run = job.run;
    if (run.ranks == 0) { // no timeline: the hang view alone, on a machine of the job's size
        job.scenario.name = "Flight Recorder dumps";
        job.scenario.description = "The program as PyTorch's Flight Recorder recorded it (" + job.launch + ").";
        job.scenario.strategy = kObservedStrategy;
        job.scenario.topology = options.machine ? *options.machine : defaultProfileMachine(std::max(n, 1));
        run.mode = RunMode::Live;
        run.ranks = n;
        run.peakMemory.assign(static_cast<size_t>(n), 0);
        run.notes.clear();
        if (!missing.empty())
            run.notes.push_back(Message("flight_recorder.note.no_timeline_missing").with("ranks", ranksText(missing)));
        else if (refused)
            run.notes.push_back(Message("flight_recorder.note.no_timeline").with("why", messageOf(*refused)));
        else
            run.notes.push_back(Message("flight_recorder.note.one_rank"));
    }
    run.devices.assign(static_cast<size_t>(n), "");
    for (int r = 0; r < n; ++r)
        if (const FlightRecorderDump* d = a.dumpOfRank[static_cast<size_t>(r)])
            run.devices[static_cast<size_t>(r)] =
                "rank " + std::to_string(r) + " (" + std::filesystem::path(d->origin).filename().string() + ")";
    run.clockNote = Message("flight_recorder.clock");
    bool timed = false;
    for (const FlightRecorderDump& d : dumps)
        for (const FlightRecorderEntry& e : d.entries)
            timed = timed || e.timeDiscoveredStartedNs.has_value();
    if (timed)
        run.notes.push_back(Message("flight_recorder.note.started_not_used"));
    for (const FlightRecorderDump& d : dumps)
        for (const Message& m : d.notes)
            run.notes.push_back(m);
    for (const Message& m : notes)
        run.notes.push_back(m);
    for (const auto& [group, count] : a.leftOut)
        run.notes.push_back(Message(count == 1 ? "flight_recorder.note.left_out_one" : "flight_recorder.note.left_out")
                                .with("count", count)
                                .with("group", groupMessage(a, group))
                                .with("seq", std::to_string(a.drawnBelow.at(group))));
    if (a.p2p > 0)
        run.notes.push_back(Message("flight_recorder.note.p2p").with("count", a.p2p));
    if (a.unknownGroup > 0)
        run.notes.push_back(Message("flight_recorder.note.unknown_group").with("count", a.unknownGroup));
    if (broadcasts > 0)
        run.notes.push_back(Message("flight_recorder.note.root"));
    if (!a.findings.empty() || !missing.empty())
        run.hang = hangReport(a);
    else
        run.hang.reset();
    return job;
}

Result<ImportedJob> importFlightRecorder(const ImportPaths& paths, const ImportOptions& options)
{
    // Progress over every file's bytes on disk together.
    std::uint64_t total = 0, before = 0;
    for (const auto& p : paths) {
        std::error_code ec;
        const auto size = std::filesystem::file_size(p, ec);
        total += ec ? 0 : size;
    }
    std::vector<FlightRecorderDump> dumps;
    for (const auto& p : paths) {
        ReadProgress progress;
        if (options.progress)
            progress = [&](std::uint64_t done, std::uint64_t) { return options.progress(before + done, total); };
        auto text = readInputText(p, std::uint64_t{1} << 30, progress);
        if (!text)
            return text.error();
        std::error_code ec;
        const auto size = std::filesystem::file_size(p, ec);
        before += ec ? 0 : size;
        auto d = parseFlightRecorder(*text, p.string());
        if (!d)
            return d.error();
        dumps.push_back(std::move(*d));
    }
    return flightRecorderJob(dumps, options);
}

} // namespace shardlab

#include "shardlab/profile/profile_match.h"

#include "profile_pieces.h"

#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_clock.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <tuple>

namespace shardlab {

namespace {

std::string ranksText(const std::vector<int>& ranks)
{
    std::string s;
    for (size_t i = 0; i < ranks.size() && i < 16; ++i)
        s += (i ? "," : "") + std::to_string(ranks[i]);
    return s + (ranks.size() > 16 ? ",..." : "");
}

// One communicator rank the files record: from init (v4, v5) or from the events (v3).
struct Member {
    size_t file = 0;
    std::int64_t context = 0;
    std::uint64_t hash = 0;
    int rank = -1;
    int ranks = 0; // 0: unknown (v3)
};

std::vector<Member> membersOf(const std::vector<ProfileFile>& files)
{
    std::vector<Member> members;
    for (size_t f = 0; f < files.size(); ++f) {
        for (const ProfiledComm& c : files[f].comms)
            members.push_back({f, c.context, c.hash, c.rank, c.ranks});
        std::set<std::int64_t> seen;
        for (const ProfiledOp& op : files[f].ops)
            if (op.hash && op.rank && seen.insert(op.context).second)
                members.push_back({f, op.context, *op.hash, *op.rank, 0});
    }
    return members;
}

bool belongsTo(const ProfiledOp& op, const Member& m)
{
    return op.context == m.context && (!op.hash || *op.hash == m.hash);
}

// "rank 1 (vm-537 pid 537)" (error.piece.rank_process); "rank 1 ( pid 537)" where no host was recorded.
Message whoPiece(const ProfileFile& file, int rank)
{
    return Message("error.piece.rank_process")
        .with("rank", rank)
        .with("host", file.host)
        .with("pid", std::to_string(file.pid));
}

// What a rank recorded of an operation: "AllReduce #3, 1024 x ncclFloat32, root 0" (error.piece.record*),
// its function or datatype empty where the record has none.
Message recordPiece(const ProfiledOp& op)
{
    const bool rooted = !op.p2p && (op.func == "Reduce" || op.func == "Broadcast");
    Message m(op.p2p ? "error.piece.record_p2p" : rooted ? "error.piece.record_rooted" : "error.piece.record");
    m.arg("func", op.func);
    if (op.p2p)
        m.arg("peer", std::to_string(op.root));
    else
        m.arg("sequence", std::to_string(op.sequence));
    m.arg("count", std::to_string(op.count));
    m.arg("dtype", op.datatype);
    if (rooted)
        m.arg("root", std::to_string(op.root));
    return m;
}

// What the ranks disagree about: "a send and its receive" (error.piece.send_and_receive), or "AllReduce #3".
Message disagreedPiece(bool sendRecv, const std::string& func, std::uint64_t sequence)
{
    return sendRecv ? Message("error.piece.send_and_receive") : verbatim(func + " #" + std::to_string(sequence));
}

struct Key {
    int comm = 0;
    std::string func;       // collectives: NCCL's function; send/recv: "p2p"
    int from = -1, to = -1; // send/recv: communicator ranks
    std::uint64_t sequence = 0;
    bool operator<(const Key& o) const
    {
        return std::tie(comm, func, from, to, sequence) < std::tie(o.comm, o.func, o.from, o.to, o.sequence);
    }
};

} // namespace

std::string commHashText(std::uint64_t hash)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
    return buf;
}

std::string commText(const MatchedComm& comm)
{
    return "communicator " + commHashText(comm.hash) + (comm.name.empty() ? "" : " '" + comm.name + "'") + " (ranks "
           + ranksText(comm.ranks) + ")";
}

// commText() as a piece of a message (profile_pieces.h).
Message commPiece(const MatchedComm& comm)
{
    if (comm.name.empty())
        return Message("error.piece.communicator")
            .with("hash", commHashText(comm.hash))
            .with("ranks", ranksText(comm.ranks));
    return Message("error.piece.communicator_named")
        .with("hash", commHashText(comm.hash))
        .with("name", comm.name)
        .with("ranks", ranksText(comm.ranks));
}

// The files a job's refusal names (profile_pieces.h).
Message recordFilesPiece(const std::vector<ProfileFile>& files)
{
    if (files.size() > 1)
        return Message("error.piece.record_files").with("file", files.front().path);
    return verbatim(files.front().path);
}

Result<MatchedProfile> matchProfile(const std::vector<ProfileFile>& files, bool recordsStillArriving, bool imported)
{
    if (files.empty())
        return badInput(Message("error.line.profile_no_files"));
    const std::vector<Member> members = membersOf(files);
    // The world: the communicator with the most ranks (sizes unknown under v3: members seen).
    std::map<std::uint64_t, std::set<int>> seenRanks;
    std::map<std::uint64_t, int> declared;
    for (const Member& m : members) {
        seenRanks[m.hash].insert(m.rank);
        declared[m.hash] = std::max(declared[m.hash], m.ranks);
    }
    const auto sizeOf = [&](std::uint64_t h) { return std::max(declared[h], static_cast<int>(seenRanks[h].size())); };
    MatchedProfile out;
    int n = 0;
    for (const Member& m : members) // in the order of the files and their inits: ties go to the first
        if (sizeOf(m.hash) > n) {
            n = sizeOf(m.hash);
            out.world = m.hash;
        }
    if (n < 2)
        return badInput(Message("error.line.profile_one_rank").with("piece_files", recordFilesPiece(files)));
    const std::uint64_t world = out.world;
    std::vector<const Member*> rankOf(static_cast<size_t>(n), nullptr);
    for (const Member& m : members) {
        if (m.hash != world)
            continue;
        if (m.rank < 0 || m.rank >= n)
            return badInput(Message("error.line.profile_rank_beyond")
                                .with("file", files[m.file].path)
                                .with("rank", m.rank)
                                .with("hash", commHashText(world))
                                .with("ranks", n));
        if (const Member* other = rankOf[static_cast<size_t>(m.rank)])
            return badInput(Message(imported ? "error.line.import_rank_twice" : "error.line.profile_rank_twice")
                                .with("rank", m.rank)
                                .with("hash", commHashText(world))
                                .with("file", files[other->file].path)
                                .with("file2", files[m.file].path)
                                .with("option", "--out"));
        rankOf[static_cast<size_t>(m.rank)] = &m;
    }
    for (int r = 0; r < n; ++r)
        if (!rankOf[static_cast<size_t>(r)])
            return badInput(Message(imported ? "error.line.import_rank_missing" : "error.line.profile_rank_missing")
                                .with("rank", r)
                                .with("ranks", n)
                                .with("hash", commHashText(world))
                                .with("command", "shardlab profile")
                                .with("option", "--out"));
    out.ranks = n;
    for (int r = 0; r < n; ++r)
        out.fileOfRank.push_back(rankOf[static_cast<size_t>(r)]->file);

    // Each process's world rank, where it has exactly one: its other communicators are that rank's.
    std::vector<int> worldRankOfFile(files.size(), -1), worldMembersOfFile(files.size(), 0);
    for (int r = 0; r < n; ++r) {
        const size_t f = rankOf[static_cast<size_t>(r)]->file;
        worldRankOfFile[f] = r;
        ++worldMembersOfFile[f];
    }
    // A file with no rank of the world is not this job's: its operations could be put on no rank
    // and would silently go missing (files of two jobs given together).
    for (size_t f = 0; f < files.size(); ++f)
        if (worldMembersOfFile[f] == 0)
            return badInput(Message(imported ? "error.line.import_other_job" : "error.line.profile_other_job")
                                .with("file", files[f].path)
                                .with("hash", commHashText(world))
                                .with("ranks", n)
                                .with("option", "--out"));
    // The communicators: the world first, then the others in the order their members appear.
    std::map<std::uint64_t, int> commIndex;
    std::map<std::uint64_t, bool> drawable;
    std::vector<std::vector<const Member*>> commMembers;
    const auto addComm = [&](std::uint64_t h) {
        if (commIndex.count(h))
            return;
        commIndex[h] = static_cast<int>(out.comms.size());
        MatchedComm c;
        c.hash = h;
        c.ranks.assign(static_cast<size_t>(sizeOf(h)), -1);
        commMembers.emplace_back(c.ranks.size(), nullptr);
        out.comms.push_back(std::move(c));
        drawable[h] = true;
    };
    addComm(world);
    for (const Member& m : members)
        addComm(m.hash);
    for (const Member& m : members) {
        const int ci = commIndex[m.hash];
        MatchedComm& c = out.comms[static_cast<size_t>(ci)];
        const int global = m.hash == world ? m.rank : worldMembersOfFile[m.file] == 1 ? worldRankOfFile[m.file] : -1;
        if (global < 0 || m.rank < 0 || m.rank >= static_cast<int>(c.ranks.size())
            || c.ranks[static_cast<size_t>(m.rank)] >= 0) {
            drawable[m.hash] = false;
            continue;
        }
        c.ranks[static_cast<size_t>(m.rank)] = global;
        commMembers[static_cast<size_t>(ci)][static_cast<size_t>(m.rank)] = &m;
        for (const ProfileFile& f : files) // names are the same on every member
            for (const ProfiledComm& pc : f.comms)
                if (pc.hash == m.hash && !pc.name.empty())
                    c.name = pc.name;
    }
    for (size_t ci = 0; ci < out.comms.size(); ++ci) {
        const MatchedComm& c = out.comms[ci];
        std::set<int> distinct(c.ranks.begin(), c.ranks.end());
        if (c.ranks.size() < 2 || distinct.count(-1) || distinct.size() != c.ranks.size())
            drawable[c.hash] = false;
    }

    // Each rank's operations on the communicators drawn, timed on its process's host clock.
    out.rankOps.assign(static_cast<size_t>(n), {});
    out.hostClock.assign(static_cast<size_t>(n), exactClock(0));
    const ProfileFile& reference = files[out.fileOfRank[0]];
    for (int r = 0; r < n; ++r) {
        const ProfileFile& file = files[out.fileOfRank[static_cast<size_t>(r)]];
        out.hostClock[static_cast<size_t>(r)] = hostClockFit(file, reference);
        std::vector<std::pair<const ProfiledOp*, int>> mine;
        for (size_t ci = 0; ci < out.comms.size(); ++ci) {
            const MatchedComm& c = out.comms[ci];
            for (size_t cr = 0; cr < c.ranks.size(); ++cr) {
                const Member* m = commMembers[ci][cr];
                if (!m || c.ranks[cr] != r || !drawable[c.hash])
                    continue;
                for (const ProfiledOp& op : file.ops) {
                    if (!belongsTo(op, *m))
                        continue;
                    if (!op.p2p && !opFromNcclFunc(op.func)) {
                        ++out.unmodelled[op.func];
                        continue;
                    }
                    // its size, overflow-checked at its file, line and field (profile_reader.h)
                    const std::optional<OpKind> kind = op.p2p ? std::nullopt : opFromNcclFunc(op.func);
                    const bool gathered = kind && (*kind == OpKind::AllGather || *kind == OpKind::ReduceScatter);
                    if (auto bytes = collectiveBytes(op, file.path, gathered, static_cast<int>(c.ranks.size())); !bytes)
                        return bytes.error();
                    const bool badPeer =
                        op.p2p && (op.root < 0 || op.root >= static_cast<int>(c.ranks.size()) || op.root == m->rank);
                    if (badPeer)
                        return badInput(Message("error.line.profile_bad_peer")
                                            .with("file", file.path)
                                            .with("id", std::to_string(op.id))
                                            .with("func", op.func)
                                            .with("peer", op.root)
                                            .with("piece_comm", commPiece(c))
                                            .with("rank", m->rank));
                    mine.push_back({&op, static_cast<int>(ci)});
                }
            }
        }
        std::vector<const ProfiledOp*> ops;
        for (const auto& [op, ci] : mine)
            ops.push_back(op);
        const std::uint64_t gpuBase = earliestGpuReading(ops);
        const std::vector<ClockSample> samples = kernelBrackets(ops, gpuBase);
        out.brackets += static_cast<int>(samples.size());
        const ClockMap clock = gpuClockFromBrackets(samples);
        if (clock.valid())
            out.worstClockNs = std::max(out.worstClockNs, clock.errorNs());
        for (const auto& [op, ci] : mine) {
            RankOp t;
            t.op = op;
            t.comm = ci;
            if (clock.valid() && !op->kernel.empty()) {
                double start = std::numeric_limits<double>::infinity(), end = -std::numeric_limits<double>::infinity();
                for (const KernelChannel& ch : op->kernel) {
                    start = std::min(start, sinceBase(ch.gpuStartNs, gpuBase));
                    if (ch.gpuEndNs)
                        end = std::max(end, sinceBase(*ch.gpuEndNs, gpuBase));
                    else
                        t.complete = false;
                }
                t.arrivalNs = clock.toHostNs(start);
                t.endNs = std::isfinite(end) ? std::max(clock.toHostNs(end), t.arrivalNs) : t.arrivalNs;
            } else {
                out.hostOnly = true;
                t.complete = !recordsStillArriving || op->stopNs.has_value();
                t.arrivalNs = op->hostNs;
                t.endNs = std::max(op->stopNs.value_or(op->hostNs), op->hostNs);
            }
            out.rankOps[static_cast<size_t>(r)].push_back(t);
        }
        // In the order the rank issued them (NCCL's event start): the order of its sends and receives
        // to one peer, which is what pairs them.
        std::stable_sort(out.rankOps[static_cast<size_t>(r)].begin(), out.rankOps[static_cast<size_t>(r)].end(),
                         [](const RankOp& a, const RankOp& b) { return a.op->hostNs < b.op->hostNs; });
    }
    for (const Member& m : members)
        if (!drawable[m.hash])
            for (const ProfiledOp& op : files[m.file].ops)
                out.otherCommOps += belongsTo(op, m) ? 1 : 0;

    // Matching. A rank's records stop at its first kernel that never ended (the process stopped in it).
    std::map<Key, size_t> index;
    out.endsEarly.assign(static_cast<size_t>(n), false);
    for (int r = 0; r < n; ++r) {
        std::vector<RankOp>& list = out.rankOps[static_cast<size_t>(r)];
        int done = 0;
        while (done < static_cast<int>(list.size()) && list[static_cast<size_t>(done)].complete)
            ++done;
        if (done < static_cast<int>(list.size()))
            out.incomplete = true, out.endsEarly[static_cast<size_t>(r)] = true;
        list.resize(static_cast<size_t>(done));
        std::map<std::tuple<int, int, int>, std::uint64_t> pairCount; // (comm, from, to)
        for (size_t i = 0; i < list.size(); ++i) {
            const RankOp& t = list[i];
            const MatchedComm& c = out.comms[static_cast<size_t>(t.comm)];
            const int me = static_cast<int>(std::find(c.ranks.begin(), c.ranks.end(), r) - c.ranks.begin());
            Key key{t.comm, t.op->p2p ? "p2p" : t.op->func, -1, -1, t.op->sequence};
            if (t.op->p2p) {
                const bool send = t.op->func == "Send";
                key.from = send ? me : t.op->root;
                key.to = send ? t.op->root : me;
                key.sequence = pairCount[{t.comm, key.from, key.to}]++;
            }
            auto [it, fresh] = index.try_emplace(key, out.ops.size());
            if (fresh) {
                MatchedOp m;
                m.comm = t.comm;
                m.sequence = key.sequence;
                if (t.op->p2p) {
                    m.kind = OpKind::SendRecv;
                    m.root = c.ranks[static_cast<size_t>(key.from)];
                    m.peer = c.ranks[static_cast<size_t>(key.to)];
                    m.group = {std::min(m.root, m.peer), std::max(m.root, m.peer)};
                    m.bytes = static_cast<Bytes>(t.op->count) * static_cast<Bytes>(*ncclDatatypeBytes(t.op->datatype));
                } else {
                    m.kind = *opFromNcclFunc(t.op->func);
                    m.group = c.ranks;
                    const bool perRank = m.kind == OpKind::AllGather || m.kind == OpKind::ReduceScatter;
                    m.bytes = static_cast<Bytes>(t.op->count) * static_cast<Bytes>(*ncclDatatypeBytes(t.op->datatype))
                              * static_cast<Bytes>(perRank ? c.ranks.size() : 1);
                    const int root = t.op->root;
                    if ((m.kind == OpKind::Reduce || m.kind == OpKind::Broadcast) && root >= 0
                        && root < static_cast<int>(c.ranks.size()))
                        m.root = c.ranks[static_cast<size_t>(root)];
                }
                m.rankOps.assign(m.group.size(), -1);
                out.ops.push_back(std::move(m));
            }
            MatchedOp& m = out.ops[it->second];
            const size_t slot = static_cast<size_t>(std::find(m.group.begin(), m.group.end(), r) - m.group.begin());
            if (slot >= m.group.size() || (t.op->p2p && (t.op->func == "Send") != (r == m.root)))
                return badInput(Message("error.line.profile_unpaired")
                                    .with("piece_who", whoPiece(files[out.fileOfRank[static_cast<size_t>(r)]], r))
                                    .with("piece_record", recordPiece(*t.op))
                                    .with("piece_comm", commPiece(c)));
            if (m.rankOps[slot] >= 0)
                return badInput(Message("error.line.profile_twice")
                                    .with("piece_who", whoPiece(files[out.fileOfRank[static_cast<size_t>(r)]], r))
                                    .with("piece_record", recordPiece(*t.op))
                                    .with("piece_comm", commPiece(c)));
            m.rankOps[slot] = static_cast<int>(i);
            list[i].matched = static_cast<int>(it->second);
        }
    }

    // Every member must agree, and have recorded it unless its records end before it.
    const auto fileOf = [&](int rank) -> const ProfileFile& {
        return files[out.fileOfRank[static_cast<size_t>(rank)]];
    };
    for (size_t i = 0; i < out.ops.size(); ++i) {
        MatchedOp& m = out.ops[i];
        const MatchedComm& c = out.comms[static_cast<size_t>(m.comm)];
        const RankOp* first = nullptr;
        int firstRank = -1;
        bool missing = false;
        double earliest = std::numeric_limits<double>::infinity();
        for (size_t k = 0; k < m.group.size(); ++k) {
            const int r = m.group[k];
            if (m.rankOps[k] < 0) {
                missing = true;
                continue;
            }
            const RankOp& t = out.rankOps[static_cast<size_t>(r)][static_cast<size_t>(m.rankOps[k])];
            earliest = std::min(earliest, out.hostClock[static_cast<size_t>(r)].toRoot(t.arrivalNs / 1e3) * 1e3);
            if (!first) {
                first = &t;
                firstRank = r;
                continue;
            }
            const bool rootMatters = !t.op->p2p && (t.op->func == "Reduce" || t.op->func == "Broadcast");
            if (t.op->count != first->op->count || t.op->datatype != first->op->datatype
                || (rootMatters && t.op->root != first->op->root))
                return badInput(Message("error.line.profile_disagree")
                                    .with("piece_what", disagreedPiece(t.op->p2p, t.op->func, m.sequence))
                                    .with("piece_comm", commPiece(c))
                                    .with("piece_who", whoPiece(fileOf(firstRank), firstRank))
                                    .with("piece_record", recordPiece(*first->op))
                                    .with("piece_who2", whoPiece(fileOf(r), r))
                                    .with("piece_record2", recordPiece(*t.op)));
        }
        m.orderNs = earliest;
        if (!missing)
            continue;
        // A member without it: fine where that member's records stop before it (it crashed, hung or
        // was killed), an error where they go on.
        for (size_t k = 0; k < m.group.size(); ++k) {
            if (m.rankOps[k] >= 0)
                continue;
            const int r = m.group[k];
            // Its next call in this communicator after the others' arrival at this one, if any.
            const RankOp* next = nullptr;
            for (const RankOp& t : out.rankOps[static_cast<size_t>(r)])
                if (t.comm == m.comm
                    && out.hostClock[static_cast<size_t>(r)].toRoot(t.arrivalNs / 1e3) * 1e3 > m.orderNs) {
                    next = &t;
                    break;
                }
            if (next)
                return badInput(
                    Message("error.line.profile_disagree_missing")
                        .with("piece_what", disagreedPiece(m.kind == OpKind::SendRecv, first->op->func, m.sequence))
                        .with("piece_comm", commPiece(c))
                        .with("piece_who", whoPiece(fileOf(firstRank), firstRank))
                        .with("piece_record", recordPiece(*first->op))
                        .with("piece_who2", whoPiece(fileOf(r), r))
                        .with("piece_record2", recordPiece(*next->op)));
            out.endsEarly[static_cast<size_t>(r)] = true;
        }
        out.incomplete = true;
        m.everyMember = false;
    }
    // In order of time.
    std::vector<size_t> order(out.ops.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const MatchedOp &x = out.ops[a], &y = out.ops[b];
        return std::tie(x.orderNs, x.comm, x.sequence) < std::tie(y.orderNs, y.comm, y.sequence);
    });
    std::vector<int> newIndex(out.ops.size(), -1);
    std::vector<MatchedOp> ordered;
    for (size_t i = 0; i < order.size(); ++i) {
        newIndex[order[i]] = static_cast<int>(i);
        ordered.push_back(std::move(out.ops[order[i]]));
    }
    out.ops = std::move(ordered);
    for (auto& list : out.rankOps) {
        for (RankOp& t : list)
            t.matched = t.matched >= 0 ? newIndex[static_cast<size_t>(t.matched)] : -1;
        std::stable_sort(list.begin(), list.end(),
                         [](const RankOp& a, const RankOp& b) { return a.arrivalNs < b.arrivalNs; });
    }
    for (MatchedOp& m : out.ops)
        for (size_t k = 0; k < m.group.size(); ++k)
            m.rankOps[k] = -1;
    for (int r = 0; r < n; ++r) {
        const auto& list = out.rankOps[static_cast<size_t>(r)];
        for (size_t i = 0; i < list.size(); ++i) {
            if (list[i].matched < 0)
                continue;
            MatchedOp& m = out.ops[static_cast<size_t>(list[i].matched)];
            const size_t slot = static_cast<size_t>(std::find(m.group.begin(), m.group.end(), r) - m.group.begin());
            m.rankOps[slot] = static_cast<int>(i);
        }
    }
    return out;
}

} // namespace shardlab

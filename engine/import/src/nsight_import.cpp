// Nsight Systems SQLite exports (nsight_export.h) -> the job's run. Each process that ran NCCL
// kernels becomes the profiler's record file (profile_reader.h), one ProfiledOp per NCCL call its
// kernels ran: the communicator, size, peer or root from the call's NVTX payload; the times from
// the kernel CUPTI recorded (arrival = the kernel's start, end = its end: a group's calls share
// their kernel's times), on the export's clock (one for every process of an export; exports made
// on other machines are put together by their session start in UTC, and the builder states the
// residual). Ranks are those NCCL's ncclCommInitRank payloads give; a communicator no process
// recorded joining (its init fell outside the capture) is numbered by GPU, with a note. Then the
// same matcher and builder as `shardlab profile`'s own records.
#include "import_readers.h"

#include "shardlab/import/nsight_export.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/text/message.h"

#include <algorithm>
#include <map>
#include <set>

namespace shardlab {

namespace nsight_detail {

struct ProcessRef {
    size_t file = 0; // in the exports
    const NsightProcess* process = nullptr;
};

struct Counts {
    int kernelsLeftOut = 0;   // NCCL kernels with no readable call (left out)
    int guessedComms = 0;     // communicators numbered by GPU (no init payload in the capture)
    int partialCommCalls = 0; // calls on a communicator whose membership some processes lack (left out)
};

} // namespace nsight_detail

Result<ImportedJob> importNsight(const ImportPaths& paths, const ImportOptions& options)
{
    std::vector<NsightExport> exports;
    std::uint64_t total = 0, before = 0;
    for (const auto& p : paths) {
        std::error_code ec;
        total += std::filesystem::file_size(p, ec);
    }
    for (const auto& p : paths) {
        ReadProgress progress = [&](std::uint64_t done, std::uint64_t) {
            return !options.progress || options.progress(before + done, total);
        };
        auto ex = readNsightExport(p, progress);
        if (!ex)
            return ex.error();
        std::error_code ec;
        before += std::filesystem::file_size(p, ec);
        exports.push_back(std::move(*ex));
    }

    // Every process with NCCL kernels: by export, then GPU and process id.
    std::vector<nsight_detail::ProcessRef> procs;
    int ranges = 0, payloads = 0, unread = 0, kernels = 0;
    bool blobs = false;
    for (size_t f = 0; f < exports.size(); ++f) {
        for (const NsightProcess& p : exports[f].processes) {
            procs.push_back({f, &p});
            kernels += static_cast<int>(p.kernels.size());
        }
        ranges += exports[f].ncclRanges;
        payloads += exports[f].payloads;
        unread += exports[f].unreadPayloads;
        blobs = blobs || exports[f].blobColumn;
    }
    const std::string first = paths.front().string();
    if (procs.empty())
        return badInput(Message("error.input.file").with("file", first).with("what", Message("error.nsight.no_nccl")));
    if (payloads == 0)
        return badInput(Message("error.input.file")
                            .with("file", first)
                            .with("what", Message(ranges == 0  ? "error.nsight.no_ranges"
                                                  : unread > 0 ? "error.nsight.payloads_unread"
                                                               : "error.nsight.no_payloads")
                                              .with("kernels", kernels)
                                              .with("ranges", ranges)
                                              .with("profile", "nsys profile -t cuda,nvtx")
                                              .with("disable", "NCCL_NVTX_DISABLE")
                                              .with("export", "nsys export --type sqlite --include-blobs=true")));
    // Exports from several machines are put on one clock by their session starts in UTC.
    std::set<std::string> hosts;
    for (const NsightExport& e : exports)
        hosts.insert(e.host.empty() ? e.origin : e.host);
    if (hosts.size() > 1)
        for (const NsightExport& e : exports)
            if (e.utcStartNs == 0)
                return badInput(Message("error.input.file")
                                    .with("file", e.origin)
                                    .with("what", Message("error.nsight.no_session_start")
                                                      .with("table", "TARGET_INFO_SESSION_START_TIME")));

    // Each communicator's members: from the payloads where every process using it has one, else
    // numbered in the processes' order where none has.
    nsight_detail::Counts counts;
    std::map<std::uint64_t, std::vector<size_t>> users; // comm -> processes whose calls use it
    for (size_t i = 0; i < procs.size(); ++i) {
        std::set<std::uint64_t> used;
        for (const NsightKernel& k : procs[i].process->kernels)
            for (const NsightCall& c : k.calls)
                if (c.decoded)
                    used.insert(c.comm);
        for (std::uint64_t c : used)
            users[c].push_back(i);
    }
    std::vector<std::vector<ProfiledComm>> comms(procs.size());
    for (const auto& [comm, list] : users) {
        size_t known = 0;
        for (size_t i : list)
            for (const NsightMember& m : procs[i].process->comms)
                known += m.comm == comm ? 1 : 0;
        if (known == list.size()) {
            for (size_t i : list)
                for (const NsightMember& m : procs[i].process->comms)
                    if (m.comm == comm) {
                        ProfiledComm pc;
                        pc.hash = comm;
                        pc.rank = m.rank;
                        pc.ranks = m.ranks;
                        comms[i].push_back(pc);
                    }
        } else if (known == 0) {
            ++counts.guessedComms;
            for (size_t r = 0; r < list.size(); ++r) {
                ProfiledComm pc;
                pc.hash = comm;
                pc.rank = static_cast<int>(r);
                pc.ranks = static_cast<int>(list.size());
                comms[list[r]].push_back(pc);
            }
        }
    }

    std::vector<ProfileFile> files;
    for (size_t i = 0; i < procs.size(); ++i) {
        const NsightExport& ex = exports[procs[i].file];
        const NsightProcess& p = *procs[i].process;
        ProfileFile file;
        file.path = ex.processes.size() > 1 ? ex.origin + " (pid " + std::to_string(p.pid) + ")" : ex.origin;
        file.host = ex.host.empty() ? ex.origin : ex.host;
        file.pid = p.pid;
        file.startNs = static_cast<double>(ex.clockStartNs);
        file.startRealNs = ex.utcStartNs;
        file.comms = comms[i];
        for (size_t c = 0; c < file.comms.size(); ++c)
            file.comms[c].context = static_cast<std::int64_t>(c);
        std::map<std::pair<std::int64_t, std::string>, std::uint64_t> sequence; // (comm, func) -> next
        for (const NsightKernel& k : p.kernels) {
            bool any = false;
            for (const NsightCall& c : k.calls) {
                if (!c.decoded)
                    continue;
                const auto at = std::find_if(file.comms.begin(), file.comms.end(),
                                             [&](const ProfiledComm& pc) { return pc.hash == c.comm; });
                if (at == file.comms.end()) {
                    ++counts.partialCommCalls;
                    continue;
                }
                ProfiledOp op;
                op.id = file.ops.size() + 1;
                op.context = at->context;
                op.p2p = ncclPointToPoint(c.func);
                op.func = c.func;
                op.sequence = sequence[{op.context, op.p2p ? std::string("p2p") : c.func}]++;
                op.count = c.bytes;
                op.datatype = "ncclUint8";
                op.root = op.p2p ? c.peer : c.root;
                op.hostNs = static_cast<double>(k.startNs);
                op.stopNs = static_cast<double>(k.endNs);
                file.ops.push_back(std::move(op));
                any = true;
            }
            counts.kernelsLeftOut += any ? 0 : 1;
        }
        files.push_back(std::move(file));
    }

    auto built = buildToolJob(
        files, options, {"NCCL job (Nsight Systems export)", "Nsight Systems recorded it", "Nsight Systems export"});
    if (!built)
        return built.error();
    ImportedJob job = std::move(*built);
    std::set<std::string> versions;
    for (const NsightExport& e : exports)
        versions.insert(e.version.empty() ? std::string("?") : e.version);
    std::string v;
    for (const std::string& s : versions)
        v += (v.empty() ? "" : ", ") + s;
    job.run.clockNote = Message(hosts.size() > 1 ? "import.nsight.clock.hosts" : "import.nsight.clock")
                            .with("tool", "nsys")
                            .with("version", v);
    if (counts.kernelsLeftOut > 0)
        job.run.notes.push_back(
            Message("import.nsight.note.left_out").with("count", counts.kernelsLeftOut).with("kernels", kernels));
    if (counts.guessedComms > 0)
        job.run.notes.push_back(Message("import.nsight.note.ranks_by_gpu").with("count", counts.guessedComms));
    if (counts.partialCommCalls > 0)
        job.run.notes.push_back(Message("import.nsight.note.partial_comm").with("count", counts.partialCommCalls));
    if (unread > 0)
        job.run.notes.push_back(Message("import.nsight.note.unread").with("count", unread));
    return job;
}

} // namespace shardlab

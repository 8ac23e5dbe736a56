#include "shardlab/base/message_json.h"
#include "shardlab/live/multi_process.h"

#include "shardlab/cluster/clock_sync.h"
#include "shardlab/cluster/stream_merge.h"
#include "shardlab/cluster/trace_merge.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_result_json.h"
#include "shardlab/live/live_plan.h"
#include "shardlab/live/live_rank.h"
#include "shardlab/text/foreign_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <thread>

namespace shardlab {

using nlohmann::json;

LiveHooks liveHooks()
{
    LiveHooks h;
    h.createUniqueId = [] { return createNcclUniqueId(); };
    h.visibleDevices = [] { return visibleCudaDevices(); };
    h.probe = [](int device, const Environment& env) { return probeRankTopology(device, env); };
    h.runRankPart = [](const Scenario& s, int rank, int device, const Bytes8& id, const LiveOptions& o,
                       RankProgress& p) { return runLiveRankPart(s, rank, device, id, o, p); };
    h.clockUs = processClockUs;
    return h;
}

namespace {

Bytes8 cbor(const json& j) { return json::to_cbor(j); }

std::optional<json> uncbor(const Bytes8& b)
{
    try {
        return json::from_cbor(b);
    } catch (const json::exception&) {
        return std::nullopt;
    }
}

// What each rank tells rank 0 before anything runs.
struct Setup {
    int rank = 0;
    std::string host;
    Message error; // empty: ready (verbatim English where a process sent no Message)
    int errorStatus = kExitBadInput;
    bool localProblem = false; // the error came before the job (JobOptions::localProblem)
    RankTopologyReport report; // device, physical GPU, what the probe found
};

json setupJson(const Setup& s)
{
    return {{"rank", s.rank},
            {"host", s.host},
            {"error", s.error.empty() ? std::string() : english(s.error)},
            {"error_message", messageToJson(s.error)},
            {"status", s.errorStatus},
            {"local", s.localProblem},
            {"report", json::binary(encodeTopologyReport(s.report))}};
}

Result<Setup> setupFrom(const Bytes8& bytes, int from)
{
    const Message origin = Message("error.live.setup_report_of").with("rank", from);
    auto j = uncbor(bytes);
    try {
        if (!j)
            throw json::other_error::create(501, "not CBOR", nullptr);
        Setup s;
        s.rank = j->at("rank").get<int>();
        s.host = j->at("host").get<std::string>();
        const std::string plain = j->at("error").get<std::string>();
        const auto sent = j->find("error_message");
        s.error = messageSaying(sent != j->end() ? &*sent : nullptr, plain);
        if (s.error.empty() && !plain.empty())
            s.error = verbatim(plain);
        s.errorStatus = j->at("status").get<int>();
        s.localProblem = j->at("local").get<bool>();
        auto rep = decodeTopologyReport(j->at("report").get_binary(), origin);
        if (!rep)
            return rep.error();
        s.report = *rep;
        if (s.rank != from)
            return runFailed(Message("error.live.report_from_other").with("origin", origin).with("rank", s.rank));
        return s;
    } catch (const json::exception& e) {
        return runFailed(
            Message("error.live.report_unreadable").with("origin", origin).with("why", parserMessage(e.what())));
    }
}

// One problem as it is; several under a heading, one per line (indented).
Message joinProblems(std::vector<Message> problems, Message heading)
{
    if (problems.size() == 1)
        return std::move(problems.front());
    std::vector<Message> lines{std::move(heading)};
    for (Message& p : problems)
        lines.push_back(Message("error.live.problem_line").with("problem", std::move(p)));
    return linesOf(std::move(lines));
}

// "rank 1 (node-a), rank 2 (node-b) and 3 more", as shortList() writes it.
Message shortListOf(const std::vector<Message>& items, size_t shown)
{
    std::vector<Message> first(items.begin(),
                               items.begin() + static_cast<std::ptrdiff_t>(std::min(shown, items.size())));
    if (items.size() <= shown)
        return listOf(std::move(first));
    return Message("error.piece.and_more")
        .with("list", listOf(std::move(first)))
        .with("count", std::to_string(items.size() - shown));
}

// `m` without its "rank {rank}: " (error.line.rank_says of `rank`); empty where it has none.
Message withoutRank(Message m, int rank)
{
    if (m.id != "error.line.rank_says")
        return {};
    const auto arg = [&](const char* name) {
        return std::find_if(m.args.begin(), m.args.end(), [&](const MessageArg& a) { return a.name == name; });
    };
    const auto r = arg("rank"), reason = arg("reason");
    if (r == m.args.end() || r->text != std::to_string(rank) || reason == m.args.end())
        return {};
    return reason->message.empty() ? verbatim(reason->text) : reason->message.front();
}

Message whoMessage(int rank, const std::string& host)
{
    return host.empty() ? Message("job.who").with("rank", rank)
                        : Message("job.who.host").with("rank", rank).with("host", host);
}

// Rank 0's verdict on the setup reports: an error naming every rank that is not ready.
// `shared`: the processes were started by `shardlab live --share-gpu` and share one GPU on purpose.
Status checkSetup(const std::vector<Setup>& setups, const Scenario& scenario, int size, bool captureTimeline,
                  bool shared)
{
    std::vector<Message> problems;
    int status = kExitBadInput;
    auto add = [&](Message p, int st) {
        problems.push_back(std::move(p));
        status = std::max(status, st);
    };
    // Ranks with the same problem (often all of them: the same file missing everywhere) on one line.
    std::vector<std::pair<std::string, std::vector<const Setup*>>> same;
    for (const Setup& s : setups)
        if (!s.error.empty()) {
            const std::string plain = english(s.error);
            auto it = std::find_if(same.begin(), same.end(), [&](const auto& e) { return e.first == plain; });
            if (it == same.end())
                same.push_back({plain, {&s}});
            else
                it->second.push_back(&s);
            status = std::max(status, s.errorStatus);
        }
    for (const auto& [error, ranks] : same) {
        std::vector<Message> names;
        for (const auto* r : ranks)
            names.push_back(whoMessage(r->rank, r->host));
        add(Message("job.failure").with("who", shortListOf(names, 8)).with("what", ranks.front()->error),
            kExitBadInput); // (status already holds theirs)
    }
    // The scenario is known when rank 0 could read it.
    if (setups.empty() || !setups.front().localProblem) {
        if (scenario.ranks() != size && shared)
            add(Message("error.live.share_gpu_ranks")
                    .with("ranks", scenario.ranks())
                    .with("option", "--share-gpu")
                    .with("size", size),
                kExitBadInput);
        else if (scenario.ranks() != size)
            add(Message("error.line.scenario_ranks")
                    .with("ranks", scenario.ranks())
                    .with("processes", size)
                    .with("start", scenario.ranks())
                    .with("commands", "mpirun -np " + std::to_string(scenario.ranks())
                                          + ", srun --ntasks=" + std::to_string(scenario.ranks())),
                kExitBadInput);
        // the merged timeline is held by rank 0: the limit of one run
        if (Status st = checkLiveEvents(scenario, captureTimeline); !st)
            add(messageOf(st.error()), kExitBadInput);
    }
    std::map<std::pair<std::string, std::string>, int> taken; // (host, GPU) -> rank
    for (const Setup& s : setups) {
        if (!s.error.empty() || shared)
            continue;
        const std::string gpu = s.report.busId.empty() ? "GPU " + s.report.physical : "GPU " + s.report.busId;
        auto [it, fresh] = taken.try_emplace({s.host, gpu}, s.rank);
        if (!fresh)
            add(Message("error.line.both_took")
                    .with("first", it->second)
                    .with("second", s.rank)
                    .with("host", s.host)
                    .with("gpu", gpu)
                    .with("example", "srun --gpus-per-task=1")
                    .with("variable", "CUDA_VISIBLE_DEVICES"),
                kExitBadInput);
    }
    if (problems.empty())
        return {};
    const int count = static_cast<int>(problems.size());
    return Error(status == kExitBadInput ? ErrorKind::BadInput : ErrorKind::RunFailed,
                 joinProblems(std::move(problems), Message("error.line.job_cannot_start").with("count", count)));
}

// This process's setup report: its GPU as the probe found it, or why it has none.
Setup setupReport(int rank, const Result<DeviceChoice>& device, const Environment& env, const LiveHooks& hooks,
                  const JobOptions& options)
{
    Setup mine;
    mine.rank = rank;
    if (options.localProblem) {
        mine.error = messageOf(*options.localProblem);
        mine.errorStatus = exitStatusOf(options.localProblem->kind);
        mine.localProblem = true;
        mine.report.host = hostName();
    } else if (device) {
        mine.report = hooks.probe(device->device, env);
        mine.report.physical = device->physical;
    } else {
        mine.error = messageOf(device.error());
        mine.errorStatus = exitStatusOf(device.error().kind);
        mine.report.host = hostName();
    }
    mine.report.rank = rank;
    mine.host = mine.report.host;
    return mine;
}

// Rank 0's verdict on every process's setup report and, when it is go, NCCL's unique id.
Status rankZeroVerdict(const Result<std::vector<Bytes8>>& gathered, const Scenario& scenario, int size, bool shared,
                       const LiveHooks& hooks, const JobOptions& options, std::vector<Setup>& setups, Bytes8& uniqueId)
{
    if (!gathered)
        return gathered.error();
    for (int r = 0; r < size; ++r) {
        auto s = setupFrom((*gathered)[static_cast<size_t>(r)], r);
        if (!s)
            return s.error();
        setups.push_back(*s);
    }
    if (Status st = checkSetup(setups, scenario, size, options.live.captureTimeline, shared); !st)
        return st;
    auto id = hooks.createUniqueId();
    if (!id)
        return id.error();
    if (id->size() != kNcclUniqueIdBytes)
        return runFailed(Message("error.live.unique_id_size")
                             .with("bytes", static_cast<int>(id->size()))
                             .with("expected", static_cast<int>(kNcclUniqueIdBytes)));
    uniqueId = *id;
    return {};
}

// Step 1 of every process: its setup report to rank 0, rank 0's verdict, and the go/no-go (with
// NCCL's unique id) back to everyone. nullopt: go, `uniqueId` set (and on rank 0 `out`'s
// placement and machine); else how this process ends.
std::optional<JobOutcome> agreeToStart(Transport& t, const Scenario& scenario, const Setup& mine, bool shared,
                                       const LiveHooks& hooks, const JobOptions& options, Deadline deadline,
                                       JobOutcome& out, Bytes8& uniqueId)
{
    auto end = [&](int status, Message wording) {
        JobOutcome o = out;
        o.exitStatus = status;
        o.message = std::move(wording);
        return std::optional<JobOutcome>(std::move(o));
    };
    const int rank = t.rank();
    auto gathered =
        gatherBytes(t, cbor(setupJson(mine)), 0, Tag::Setup, deadline, Message("error.exchange.setup_report"));
    if (rank == 0) {
        std::vector<Setup> setups;
        const Status verdict = rankZeroVerdict(gathered, scenario, t.size(), shared, hooks, options, setups, uniqueId);
        const json decision = {{"go", verdict.ok()},
                               {"status", verdict ? kExitOk : exitStatusOf(verdict.error().kind)},
                               {"id", json::binary(uniqueId)}};
        // Sent even on no-go, so that every process that did report stops now.
        (void)broadcastBytes(t, cbor(decision), 0, Tag::Decision, deadline, Message("error.exchange.go"));
        if (!verdict)
            return end(exitStatusOf(verdict.error().kind), messageOf(verdict.error()));
        for (const Setup& s : setups)
            out.placement.push_back(s.report);
        if (auto machine = combineTopology(out.placement))
            out.machine = *machine;
        if (options.started)
            options.started(out.machine, out.placement);
        return std::nullopt;
    }
    const auto failure = [&](Message what) {
        return Message("job.failure").with("who", whoMessage(rank, mine.host)).with("what", std::move(what));
    };
    if (!gathered)
        return end(kExitRunFailed, failure(messageOf(gathered.error())));
    auto bytes = broadcastBytes(t, {}, 0, Tag::Decision, deadline, Message("error.exchange.go"));
    if (!bytes)
        return end(kExitRunFailed, failure(messageOf(bytes.error())));
    auto d = uncbor(*bytes);
    if (!d || !d->contains("go") || !d->contains("status") || !d->contains("id"))
        return end(kExitRunFailed, failure(Message("error.live.go_unreadable")));
    if (!(*d)["go"].get<bool>())
        return end((*d)["status"].get<int>(), Message()); // rank 0 says why
    uniqueId = (*d)["id"].get_binary();
    return std::nullopt;
}

// Every process's part of the run as rank 0 received it, with the clock fit it is merged on.
struct PartsRead {
    std::vector<RankPart> parts;
    std::vector<ProcessClockFit> fits; // every process's, in rank order
    std::vector<Message> errors;       // "rank r (host): what", one per part that failed or cannot be read
    int status = kExitOk;
};

PartsRead readParts(const std::vector<Bytes8>& parts, const std::vector<ClockOffset>& before,
                    const std::vector<ClockOffset>& after, const JobOptions& options, const JobOutcome& out)
{
    PartsRead read;
    for (size_t r = 0; r < parts.size(); ++r) {
        ProcessClockFit fit;
        fit.before = before[r];
        fit.after = after[r];
        read.fits.push_back(fit);
        // streamed: merged on the offsets the chunks were merged on, so that they stay true
        const ProcessClockFit used = options.stream ? heldBefore(fit) : fit;
        const int rank = static_cast<int>(r);
        const std::string host = r < out.placement.size() ? out.placement[r].host : "";
        auto add = [&](Message e, int st) {
            read.errors.push_back(
                Message("job.failure").with("who", whoMessage(rank, host)).with("what", std::move(e)));
            read.status = std::max(read.status, st);
        };
        auto j = uncbor(parts[r]);
        try {
            if (!j)
                add(Message("error.live.part_unreadable"), kExitRunFailed);
            else if (!j->at("ok").get<bool>()) {
                // The line already starts "rank r (host): "; an error that names its rank again
                // (error.line.rank_says) drops that. One sent without its Message is shown as sent.
                const std::string e = j->at("error").get<std::string>();
                const auto sent = j->find("error_message");
                const Message m = messageSaying(sent != j->end() ? &*sent : nullptr, e);
                Message reason = withoutRank(m, rank);
                add(!reason.empty() ? std::move(reason) : !m.empty() ? m : verbatim(e), j->at("status").get<int>());
            } else {
                read.parts.push_back({{rank}, detail::runResultFromJson(j->at("run"), "$"), used});
            }
        } catch (const std::exception& e) {
            add(Message("error.live.part_unreadable_why").with("why", e.what()), kExitRunFailed);
        }
    }
    return read;
}

// Rank 0's end of the job: the parts merged on their clock fits, checked against the scenario and
// marked (ranks that shared one GPU). Sets `out.run`, or `errors`; returns the job's exit status.
int mergeOnRankZero(const std::vector<Bytes8>& parts, const std::vector<ClockOffset>& before,
                    const std::vector<ClockOffset>& after, const Scenario& scenario, const JobOptions& options,
                    bool shared, const std::string& transport, JobOutcome& out, Message& errors)
{
    PartsRead read = readParts(parts, before, after, options, out);
    if (!read.errors.empty()) {
        const int count = static_cast<int>(read.errors.size());
        errors = joinProblems(std::move(read.errors), Message("error.live.run_failed").with("count", count));
        return read.status;
    }
    // How each process's GPU timer maps onto its own clock (the live executor's part of the error).
    std::vector<Message> gpuClocks;
    for (const RankPart& p : read.parts)
        if (p.run.mode == RunMode::Live && !p.run.clockNote.empty())
            gpuClocks.push_back(p.run.clockNote);
    MergeOptions mo;
    for (const ProcessClockFit& f : read.fits)
        mo.tieUs = std::max(mo.tieUs, options.stream ? heldBefore(f).errorUs() : f.errorUs());
    auto merged = mergeRankParts(std::move(read.parts), mo);
    if (!merged) {
        errors = messageOf(merged.error());
        return kExitRunFailed;
    }
    merged->clockNote = options.stream ? heldClockMessage(read.fits, options.clockRounds, transport)
                                       : clockMessage(read.fits, options.clockRounds, transport);
    if (!gpuClocks.empty())
        merged->clockNote = Message("live.clock.and_gpus")
                                .with("processes", std::move(merged->clockNote))
                                .with("gpus", listOf(std::move(gpuClocks)));
    if (Status st = checkRunAgainstScenario(*merged, scenario); !st) {
        errors = Message("error.live.merged_misfit").with("reason", messageOf(st.error()));
        return kExitRunFailed;
    }
    out.run = std::move(*merged);
    const int ranks = static_cast<int>(parts.size());
    if (shared) { // said first, wherever the run is shown (docs/live-engine.md)
        out.run->sharedGpu = ranks;
        out.run->notes.insert(out.run->notes.begin(), Message("live.note.shared_gpu").with("ranks", ranks));
    }
    if (out.run->hang)
        return kExitRunFailed; // every process exits as rank 0 does after printing the hang
    for (const CollectiveRecord& c : out.run->collectives)
        if (c.wrongElements > 0)
            return kExitRunFailed; // rank 0 prints which (as a single-process run does)
    return kExitOk;
}

// Rank 0's thread of a streamed job: takes every process's iterations (Tag::Chunk) as they come,
// merges each once all have arrived and hands the merged run so far on. It ends when every
// process has said its part is over, when the job is aborted, or when told to stop.
class JobStreamer {
public:
    JobStreamer(Transport& t, std::vector<ProcessClockFit> heldFits, double tieUs, int total, const JobOptions& options)
        : m_t(t), m_merger(t.size(), std::move(heldFits), tieUs), m_total(total), m_options(options),
          m_thread([this] { loop(); })
    {
    }
    ~JobStreamer() { stop(); }
    JobStreamer(const JobStreamer&) = delete;
    JobStreamer& operator=(const JobStreamer&) = delete;

    // Waits until every process's last iteration has been taken (each sends its end before its
    // part, so once rank 0 holds every part the ends are on their way).
    void finish()
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    void stop()
    {
        m_stop = true;
        finish();
    }

private:
    void loop()
    {
        const int size = m_t.size();
        std::vector<bool> ended(static_cast<size_t>(size), false);
        int endedCount = 0;
        bool merging = true;
        while (endedCount < size) {
            auto m = m_t.receive(kAnyPeer, Tag::Chunk, deadlineIn(50));
            if (!m)
                return; // the job was aborted: the monitor or the main thread says why
            if (!*m) {
                if (m_stop)
                    return;
                continue;
            }
            const int from = (*m)->from;
            auto j = uncbor((*m)->bytes);
            if (from < 0 || from >= size || !j)
                continue;
            if (j->value("end", false)) {
                if (!ended[static_cast<size_t>(from)]) {
                    ended[static_cast<size_t>(from)] = true;
                    ++endedCount;
                }
                continue;
            }
            if (!merging)
                continue;
            try {
                m_merger.add(from, detail::runResultFromJson(j->at("run"), "$"));
            } catch (const std::exception&) {
                merging = false; // the whole run at the end says what is wrong
                continue;
            }
            auto n = m_merger.mergeReady();
            if (!n) {
                merging = false; // stays unsent; the result at the end carries it
                continue;
            }
            if (*n > 0 && m_options.chunk && !m_options.chunk(m_merger.soFar(), m_merger.merged(), m_total)) {
                merging = false;
                const Message why = Message("job.failure")
                                        .with("who", whoMessage(0, ""))
                                        .with("what", Message("error.live.stream_reader_gone"));
                if (m_options.onFailure)
                    m_options.onFailure(why);
                return;
            }
        }
    }

    Transport& m_t;
    IterationMerger m_merger;
    int m_total;
    const JobOptions& m_options;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

JobOutcome runLiveJob(Transport& t, const Scenario& scenario, const LaunchInfo& launch, const Environment& env,
                      const LiveHooks& hooks, const JobOptions& options)
{
    const int rank = t.rank();
    const int size = t.size();
    const bool shared = launch.launcher == Launcher::SharedGpu; // every rank on this machine's one GPU
    JobOutcome out;
    auto finish = [&](int status, Message wording) {
        out.exitStatus = status;
        out.message = std::move(wording);
        return out;
    };

    // 1. Setup: this rank's GPU, reported to rank 0; rank 0's go/no-go with NCCL's unique id.
    auto device = deviceForLocalRank(launch, env, hooks.visibleDevices ? hooks.visibleDevices() : -1);
    const Setup mine = setupReport(rank, device, env, hooks, options);
    const Deadline setupDeadline = deadlineIn(options.setupTimeoutMs); // the first clock measurement's too
    Bytes8 uniqueId;
    if (auto ended = agreeToStart(t, scenario, mine, shared, hooks, options, setupDeadline, out, uniqueId))
        return *ended;

    // 2. Heartbeats and the first clock measurement.
    MonitorOptions monitorOptions = options.monitor;
    if (monitorOptions.stallMs <= 0 && options.live.watchdogMs > 0)
        monitorOptions.stallMs = 2 * options.live.watchdogMs + 5000;
    Message failure; // the first failure this process saw (JobOutcome::message)
    auto onFailure = [&](const Message& message) {
        failure = Message("job.failure").with("who", whoMessage(rank, mine.host)).with("what", message);
        if (options.onFailure)
            options.onFailure(failure);
    };
    RankProgress progress;
    progress.setActivity(Message("live.activity.measuring_clocks"));
    JobMonitor monitor(t, progress, mine.host, monitorOptions, onFailure);
    auto failed = [&](const Error& error) {
        monitor.stop();
        if (failure.empty()) {
            failure = Message("job.failure").with("who", whoMessage(rank, mine.host)).with("what", messageOf(error));
            if (options.onFailure)
                options.onFailure(failure);
        }
        return finish(kExitRunFailed, failure);
    };
    const Clock clock = hooks.clockUs ? hooks.clockUs : Clock(processClockUs);
    auto before = measureClockOffsets(t, clock, options.clockRounds, setupDeadline);
    if (!before)
        return failed(before.error());

    // Streaming: rank 0 merges the iterations as they come, on the offsets measured now, held.
    std::unique_ptr<JobStreamer> streamer;
    if (options.stream && rank == 0) {
        std::vector<ProcessClockFit> held;
        double tieUs = 0;
        for (const ClockOffset& o : *before) {
            ProcessClockFit f;
            f.before = o;
            held.push_back(f);
            tieUs = std::max(tieUs, f.errorUs());
        }
        streamer = std::make_unique<JobStreamer>(t, std::move(held), tieUs, scenario.iterations, options);
    }

    // 3. This rank's part; streaming, each iteration goes to rank 0 as it completes.
    progress.setActivity(Message("live.activity.starting"));
    monitor.setState(ProcessState::Running);
    // The executor keeps its communicator until every rank's program has ended (RankProgress::
    // programEnded). Bounded by the stall backstop: a rank stuck longer is reported by then.
    progress.onProgramEnded([&] {
        progress.setActivity(Message("live.activity.waiting_to_end"));
        (void)monitor.endTogether(monitorOptions.stallMs > 0 ? monitorOptions.stallMs : 60'000);
    });
    LiveOptions live = options.live;
    if (shared)
        live.shareGpu = size;
    size_t sentSpans = 0, sentCollectives = 0, sentIterations = 0;
    if (options.stream)
        live.iterationDone = [&](const RunResult& soFar, int done, int total) {
            const json msg = {
                {"iteration", done - 1},
                {"total", total},
                {"run", detail::runResultToJson(entriesSince(soFar, sentSpans, sentCollectives, sentIterations))}};
            sentSpans = soFar.spans.size();
            sentCollectives = soFar.collectives.size();
            sentIterations = soFar.iterations.size();
            (void)t.send(0, Tag::Chunk, cbor(msg)); // a failed send shows up as the job failing
            return true;
        };
    auto part = hooks.runRankPart(scenario, rank, device->device, uniqueId, live, progress);
    if (options.stream)
        (void)t.send(0, Tag::Chunk, cbor(json{{"end", true}}));
    if (part)
        monitor.setState(ProcessState::Done);
    else
        monitor.setState(ProcessState::Failed, messageOf(part.error()));
    progress.setActivity(Message(part ? "live.activity.finished" : "live.activity.failed"));

    // 4. Clocks again, then every part to rank 0. No deadline of their own: the heartbeats watch.
    const Deadline late = deadlineIn(0);
    auto after = measureClockOffsets(t, clock, options.clockRounds, late);
    if (!after)
        return failed(after.error());
    json partJson = {{"ok", part.ok()}, {"host", mine.host}};
    if (part)
        partJson["run"] = detail::runResultToJson(*part);
    else {
        partJson["error"] = part.error().message;
        partJson["error_message"] = messageToJson(messageOf(part.error()));
        partJson["status"] = exitStatusOf(part.error().kind);
    }
    auto parts = gatherBytes(t, cbor(partJson), 0, Tag::Part, late, "part of the run");
    if (!parts)
        return failed(parts.error());

    if (rank != 0) {
        auto final = broadcastBytes(t, {}, 0, Tag::Final, late, "exit status");
        monitor.stop();
        if (!final)
            return finish(
                kExitRunFailed,
                Message("job.failure").with("who", whoMessage(rank, mine.host)).with("what", messageOf(final.error())));
        auto f = uncbor(*final);
        return finish(f && f->contains("status") ? (*f)["status"].get<int>() : kExitRunFailed, Message());
    }

    // Rank 0: merge, then tell everyone how it went.
    if (streamer)
        streamer->finish(); // every iteration sent during the run has been handed over
    Message errors;
    const int status = mergeOnRankZero(*parts, *before, *after, scenario, options, shared, t.describe(), out, errors);
    (void)broadcastBytes(t, cbor(json{{"status", status}}), 0, Tag::Final, late, "exit status");
    (void)t.flush(deadlineIn(10'000));
    monitor.stop();
    return finish(status, errors);
}

TopologyOutcome gatherTopology(Transport& t, const LaunchInfo& launch, const Environment& env, const LiveHooks& hooks,
                               double timeoutMs)
{
    TopologyOutcome out;
    const Deadline deadline = deadlineIn(timeoutMs);
    Setup mine;
    mine.rank = t.rank();
    auto device = deviceForLocalRank(launch, env, hooks.visibleDevices ? hooks.visibleDevices() : -1);
    if (device) {
        mine.report = hooks.probe(device->device, env);
        mine.report.physical = device->physical;
        if (mine.report.gpuName.empty() && mine.report.busId.empty()) {
            mine.error = Message("error.line.gpu_unidentified")
                             .with("device", device->device)
                             .with("piece_notes", probeNotes(mine.report.notes));
        }
    } else {
        mine.error = messageOf(device.error());
        mine.report.host = hostName();
    }
    mine.report.rank = t.rank();
    mine.host = mine.report.host;
    auto gathered = gatherBytes(t, cbor(setupJson(mine)), 0, Tag::Topology, deadline, "topology report");
    if (t.rank() != 0) {
        auto final = broadcastBytes(t, {}, 0, Tag::Final, deadline, "exit status");
        if (!gathered || !final) {
            out.exitStatus = kExitRunFailed;
            out.message = Message("job.failure")
                              .with("who", whoMessage(t.rank(), mine.host))
                              .with("what", messageOf(!gathered ? gathered.error() : final.error()));
            return out;
        }
        auto f = uncbor(*final);
        out.exitStatus = f && f->contains("status") ? (*f)["status"].get<int>() : kExitRunFailed;
        return out;
    }
    std::vector<Message> problems;
    if (!gathered)
        problems.push_back(messageOf(gathered.error()));
    else
        for (int r = 0; r < t.size(); ++r) {
            auto s = setupFrom((*gathered)[static_cast<size_t>(r)], r);
            if (!s)
                problems.push_back(messageOf(s.error()));
            else if (!s->error.empty())
                problems.push_back(Message("job.failure").with("who", whoMessage(r, s->host)).with("what", s->error));
            else
                out.reports.push_back(s->report);
        }
    Message errors;
    if (!problems.empty()) {
        const int count = static_cast<int>(problems.size());
        errors = joinProblems(std::move(problems), Message("error.line.topology_not_gathered").with("count", count));
    } else {
        auto topo = combineTopology(out.reports);
        if (topo)
            out.topology = *topo;
        else
            errors = messageOf(topo.error());
    }
    out.exitStatus = errors.empty() ? kExitOk : kExitRunFailed;
    out.message = std::move(errors);
    (void)broadcastBytes(t, cbor(json{{"status", out.exitStatus}}), 0, Tag::Final, deadline, "exit status");
    (void)t.flush(deadlineIn(10'000));
    return out;
}

} // namespace shardlab

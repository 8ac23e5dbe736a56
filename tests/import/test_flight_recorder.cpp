// PyTorch Flight Recorder dumps (engine/import flight_recorder.h) on the real samples of
// tests/import/data/flight_recorder (README.md there: hang2 = rank 1 skipped its step-4
// all_reduce, so rank 0's seq 16 stays scheduled; ddp2/ddp4 = rank 1 late at seq 13 and 19), and
// every kind of bad input: a refusal naming the file (worded in Chinese too) or a note.
#include "shardlab/import/flight_recorder.h"
#include "shardlab/import/import_job.h"
#include "shardlab/profile/profile_scenario.h"

#include "shardlab/text/foreign_text.h"
#include "shardlab/text/message.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

namespace shardlab {
namespace {

const std::filesystem::path kData = std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/import/data/flight_recorder";

std::string fileBytes(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

FlightRecorderDump dumpOf(const std::filesystem::path& p)
{
    auto d = readFlightRecorder(p);
    EXPECT_TRUE(d) << d.error().message;
    return d ? *d : FlightRecorderDump{};
}

FlightRecorderDump dumpFromText(const std::string& text, const std::string& origin)
{
    auto d = parseFlightRecorder(text, origin);
    EXPECT_TRUE(d) << d.error().message;
    return d ? *d : FlightRecorderDump{};
}

std::string replaced(std::string text, const std::string& from, const std::string& to)
{
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

// The last refusal importError() or errorOf() below saw, for expectWorded(text).
Error g_lastRefusal;

// The English is its Message's; the Chinese has no English but the files' own names.
void expectWorded(const Error& error)
{
    const std::string& english = error.message;
    SCOPED_TRACE(english);
    EXPECT_FALSE(error.what.empty());
    EXPECT_EQ(shardlab::worded(error, Language::English), english);
    const std::string zh = shardlab::worded(error, Language::Chinese);
    EXPECT_NE(zh, english);
    static const std::regex leftover(R"(\[error\.[a-z_.]+\]|\{[a-z_0-9]+\})");
    EXPECT_FALSE(std::regex_search(zh, leftover)) << zh;
    std::vector<std::string> names;
    for (const char* dir : {"ddp2", "ddp4", "hang2"})
        for (const auto& entry : std::filesystem::directory_iterator(kData / dir))
            names.push_back(entry.path().string());
    for (const char* n : {"x.json", "dump.json", "fr_rank5.json", "fr_rank1.json", "fr_rank0.json", "profiling_name",
                          "state", "GLOBAL", "time_discovered_completed_ns"})
        names.push_back(n);
    const auto left = untranslatedWords(zh, names);
    EXPECT_TRUE(left.empty()) << zh << " has English: " << left.front();
}

// The same for the refusal importError() or errorOf() returned last, given by its English.
void expectWorded(const std::string& english)
{
    ASSERT_EQ(english, g_lastRefusal.message) << "expectWorded(text) is for the last refusal";
    expectWorded(g_lastRefusal);
}

// Chinese with no English words but the dumps' values (ops, states, process groups).
void expectChinese(const Message& m)
{
    const std::string zh = render(m, Language::Chinese);
    static const std::regex leftover(R"(\[[a-z_.]+\]|\{[a-z_0-9]+\})");
    EXPECT_FALSE(std::regex_search(zh, leftover)) << zh;
    const auto left = untranslatedWords(zh, {"all_reduce", "scheduled", "completed", "default_pg", "Float", "broadcast",
                                             "'default_pg'", "fr_rank1.json"});
    EXPECT_TRUE(left.empty()) << zh << " has English: " << left.front();
}

// Issue 26: the refusal is born a Message, which says in both languages exactly what the catalogue's
// templates made of its English.
void expectBorn(const Error& e)
{
    SCOPED_TRACE(e.message);
    EXPECT_FALSE(e.what.empty());
    EXPECT_EQ(english(e.what), e.message);
    EXPECT_FALSE(e.what.empty());
}

std::string importError(const std::vector<std::filesystem::path>& paths)
{
    auto job = importFiles(paths);
    EXPECT_FALSE(job);
    if (!job)
        expectBorn(job.error());
    if (!job)
        g_lastRefusal = job.error();
    return job ? std::string() : job.error().message;
}

std::string errorOf(const std::vector<FlightRecorderDump>& dumps)
{
    auto job = flightRecorderJob(dumps);
    EXPECT_FALSE(job);
    if (!job)
        expectBorn(job.error());
    if (!job)
        g_lastRefusal = job.error();
    return job ? std::string() : job.error().message;
}

bool hasNote(const RunResult& run, const std::string& id)
{
    return std::any_of(run.notes.begin(), run.notes.end(), [&](const Message& m) { return m.id == id; });
}

void expectSameDump(const FlightRecorderDump& a, const FlightRecorderDump& b)
{
    EXPECT_EQ(a.version, b.version);
    EXPECT_EQ(a.commLibVersion, b.commLibVersion);
    EXPECT_EQ(a.rank, b.rank);
    EXPECT_EQ(a.groups, b.groups);
    ASSERT_EQ(a.entries.size(), b.entries.size());
    for (size_t i = 0; i < a.entries.size(); ++i) {
        SCOPED_TRACE(i);
        const FlightRecorderEntry &x = a.entries[i], &y = b.entries[i];
        EXPECT_EQ(x.recordId, y.recordId);
        EXPECT_EQ(x.collectiveSeqId, y.collectiveSeqId);
        EXPECT_EQ(x.p2pSeqId, y.p2pSeqId);
        EXPECT_EQ(x.opId, y.opId);
        EXPECT_EQ(x.pgId, y.pgId);
        EXPECT_EQ(x.pgName, y.pgName);
        EXPECT_EQ(x.pgDesc, y.pgDesc);
        EXPECT_EQ(x.profilingName, y.profilingName);
        EXPECT_EQ(x.inputSizes, y.inputSizes);
        EXPECT_EQ(x.outputSizes, y.outputSizes);
        EXPECT_EQ(x.inputDtypes, y.inputDtypes);
        EXPECT_EQ(x.outputDtypes, y.outputDtypes);
        EXPECT_EQ(x.state, y.state);
        EXPECT_EQ(x.isP2p, y.isP2p);
        EXPECT_EQ(x.retired, y.retired);
        EXPECT_EQ(x.timeCreatedNs, y.timeCreatedNs);
        EXPECT_EQ(x.timeDiscoveredStartedNs, y.timeDiscoveredStartedNs);
        // An entry not yet retired gets its completion time when the dump is written: the pickle and
        // the JSON were dumped one after the other.
        if (x.retired) {
            EXPECT_EQ(x.timeDiscoveredCompletedNs, y.timeDiscoveredCompletedNs);
        } else {
            EXPECT_EQ(x.timeDiscoveredCompletedNs.has_value(), y.timeDiscoveredCompletedNs.has_value());
        }
        EXPECT_EQ(x.timeoutMs, y.timeoutMs);
    }
}

TEST(FlightRecorder, PickleAndJsonOfOneDumpAreTheSameFieldByField)
{
    for (const char* stem : {"hang2/fr_hang_rank0", "hang2/fr_hang_rank1", "ddp2/fr_rank0", "ddp4/fr_rank3"}) {
        SCOPED_TRACE(stem);
        const FlightRecorderDump pkl = dumpOf(kData / (std::string(stem) + ".pkl"));
        const FlightRecorderDump json = dumpOf(kData / (std::string(stem) + ".json"));
        EXPECT_TRUE(pkl.pickle);
        EXPECT_FALSE(json.pickle);
        expectSameDump(pkl, json);
        EXPECT_TRUE(pkl.notes.empty());
    }
    const FlightRecorderDump d = dumpOf(kData / "hang2/fr_hang_rank0.pkl");
    EXPECT_EQ(d.version, "2.10");
    EXPECT_EQ(d.commLibVersion, "2.28.9");
    EXPECT_EQ(d.rank, 0);
    ASSERT_EQ(d.groups.size(), 1u);
    EXPECT_EQ(d.groups.at("0"), (FlightRecorderGroup{"0", "default_pg", {0, 1}}));
    ASSERT_EQ(d.entries.size(), 16u);
    const FlightRecorderEntry& last = d.entries.back();
    EXPECT_EQ(last.collectiveSeqId, 16);
    EXPECT_EQ(last.recordId, 15);
    EXPECT_EQ(last.profilingName, "nccl:all_reduce");
    EXPECT_EQ(last.opName(), "all_reduce");
    EXPECT_EQ(last.state, "scheduled");
    EXPECT_EQ(last.inputSizes, (std::vector<std::vector<std::int64_t>>{{197633}}));
    EXPECT_EQ(last.inputDtypes, std::vector<std::string>{"Float"});
    EXPECT_EQ(last.inputElements(), 197633);
    EXPECT_EQ(last.pgName, "0");
    EXPECT_EQ(last.pgDesc, "default_pg");
    EXPECT_EQ(last.timeCreatedNs, 1796372489023682319);
    EXPECT_FALSE(last.timeDiscoveredStartedNs); // None in the pickle, 0 in the JSON: no timing
    EXPECT_FALSE(last.timeDiscoveredCompletedNs);
    EXPECT_EQ(last.timeoutMs, 20000);
    EXPECT_EQ(d.entries[14].timeDiscoveredCompletedNs, 1796372489385190232);
}

TEST(FlightRecorder, TheDumpsPyTorchWroteOnTheTimeoutAreRead)
{
    for (int r : {0, 1}) {
        const FlightRecorderDump timeout = dumpOf(kData / ("hang2/fr_ontimeout_rank" + std::to_string(r) + ".pkl"));
        EXPECT_EQ(timeout.rank, r);
        expectSameDump(timeout, dumpOf(kData / ("hang2/fr_hang_rank" + std::to_string(r) + ".pkl")));
    }
    EXPECT_EQ(rankFromDumpName("fr_ontimeout_rank12"), 12);
    EXPECT_EQ(rankFromDumpName("/a/b/fr_rank3.json.gz"), 3);
    EXPECT_EQ(rankFromDumpName("dump.json"), std::nullopt);
}

void expectHang2(const ImportedJob& job)
{
    const RunResult& run = job.run;
    EXPECT_EQ(run.ranks, 2);
    ASSERT_TRUE(run.hang);
    const HangReport& h = *run.hang;
    EXPECT_EQ(h.firstMismatchRank, 1);
    EXPECT_EQ(h.lastCompleted, (std::vector<int>{15, 15}));
    ASSERT_EQ(h.pending.size(), 2u);
    EXPECT_EQ(h.pending[1],
              "never called all_reduce seq 16 of process group 0 'default_pg', which keeps rank 0 waiting");
    EXPECT_EQ(h.pending[0],
              "waiting in all_reduce seq 16 of process group 0 'default_pg' (scheduled), which rank 1 never called");
    EXPECT_EQ(h.explanation,
              "rank 1 never called all_reduce seq 16 of process group 0 'default_pg', which keeps rank 0 waiting: the "
              "first collective the ranks did not all call");
    for (const Message& m : h.pendingMessages)
        expectChinese(m);
    expectChinese(h.explanationWording);
    // The timeline: what both ranks called and completed (seq 1-15), rank 0's seq 16 left out.
    EXPECT_FALSE(run.collectives.empty());
    for (const CollectiveRecord& c : run.collectives)
        for (double a : c.arrivalUs)
            EXPECT_FALSE(std::isnan(a));
    const std::vector<std::string> notes = english(run.notes);
    EXPECT_NE(std::find(notes.begin(), notes.end(),
                        "1 entry of process group 0 'default_pg' from seq 16 on is not drawn: the ranks did not all "
                        "call it the same way "
                        "or did not complete it (the hang view says where)"),
              notes.end());
    EXPECT_TRUE(hasNote(run, "flight_recorder.note.root")); // the broadcasts of seq 1-8
    EXPECT_EQ(run.clockNote.id, "flight_recorder.clock");
    EXPECT_NE(english(run.clockNote).find("not measured GPU waits"), std::string::npos);
    expectChinese(run.clockNote);
    for (const Message& m : run.notes)
        expectChinese(m);
    EXPECT_EQ(job.format, ImportFormat::FlightRecorder);
    EXPECT_EQ(job.scenario.ranks(), 2);
}

TEST(FlightRecorder, Hang2NamesRank1AsNeverJoiningSeq16WhereRank0Waits)
{
    auto pkl = importFiles({kData / "hang2/fr_hang_rank0.pkl", kData / "hang2/fr_hang_rank1.pkl"});
    ASSERT_TRUE(pkl) << pkl.error().message;
    expectHang2(*pkl);
    auto json = importFiles({kData / "hang2/fr_hang_rank1.json", kData / "hang2/fr_hang_rank0.json"});
    ASSERT_TRUE(json) << json.error().message;
    expectHang2(*json);
    EXPECT_EQ(english(pkl->run.notes), english(json->run.notes));
    EXPECT_EQ(pkl->run.collectives.size(), json->run.collectives.size());
    auto timeout = importFiles({kData / "hang2/fr_ontimeout_rank0.pkl", kData / "hang2/fr_ontimeout_rank1.pkl"});
    ASSERT_TRUE(timeout) << timeout.error().message;
    expectHang2(*timeout);
}

// Each rank's time_created_ns of collective `seq`, from the dump.
std::int64_t createdAt(const FlightRecorderDump& d, std::int64_t seq)
{
    for (const FlightRecorderEntry& e : d.entries)
        if (e.collectiveSeqId == seq)
            return e.timeCreatedNs;
    ADD_FAILURE() << d.origin << " has no seq " << seq;
    return 0;
}

TEST(FlightRecorder, ProgressCoversEveryFileAndCancelStops)
{
    const std::vector<std::filesystem::path> paths = {kData / "ddp2/fr_rank0.json", kData / "ddp2/fr_rank1.json"};
    std::uint64_t last = 0, total = 0;
    ImportOptions options;
    options.progress = [&](std::uint64_t done, std::uint64_t all) {
        EXPECT_GE(done, last);
        last = done;
        total = all;
        return true;
    };
    auto job = importFiles(paths, options);
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(total, 14507u + 14498u); // README.md's sizes
    EXPECT_EQ(last, total);
    options.progress = [](std::uint64_t, std::uint64_t) { return false; };
    auto cancelled = importFiles(paths, options);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().kind, ErrorKind::Cancelled);
}

TEST(FlightRecorder, Ddp2AndDdp4CompleteWithoutHangAndRank1IsLateAtSeq13And19)
{
    for (int n : {2, 4}) {
        SCOPED_TRACE(n);
        const std::filesystem::path dir = kData / ("ddp" + std::to_string(n));
        std::vector<std::filesystem::path> paths;
        std::vector<FlightRecorderDump> dumps;
        for (int r = 0; r < n; ++r) {
            paths.push_back(dir / ("fr_rank" + std::to_string(r) + ".pkl"));
            dumps.push_back(dumpOf(paths.back()));
            ASSERT_EQ(dumps.back().entries.size(), 29u);
            for (const FlightRecorderEntry& e : dumps.back().entries)
                EXPECT_TRUE(e.completed());
        }
        // From the files: rank 1 enqueued seq 13 and 19 more than 250 ms after its previous
        // collective, where every other rank took less; no other gap of rank 1's is that long.
        for (std::int64_t seq = 2; seq <= 29; ++seq) {
            const auto gapMs = [&](int r) {
                return static_cast<double>(createdAt(dumps[static_cast<size_t>(r)], seq)
                                           - createdAt(dumps[static_cast<size_t>(r)], seq - 1))
                       / 1e6;
            };
            if (seq == 13 || seq == 19) {
                EXPECT_GT(gapMs(1), 250) << seq;
                for (int r = 0; r < n; ++r) {
                    if (r != 1) {
                        EXPECT_LT(gapMs(r), 250) << seq << " rank " << r;
                    }
                }
            } else if (seq >= 7) { // the training steps (seq 4 is step 0, with the first forward pass, on every rank)
                EXPECT_LT(gapMs(1), 250) << seq;
            }
        }
        auto job = importFiles(paths);
        ASSERT_TRUE(job) << job.error().message;
        const RunResult& run = job->run;
        EXPECT_EQ(run.ranks, n);
        EXPECT_FALSE(run.hang);
        EXPECT_FALSE(hasNote(run, "flight_recorder.note.left_out"));
        EXPECT_FALSE(hasNote(run, "flight_recorder.note.left_out_one"));
        EXPECT_EQ(run.clockNote.id, "flight_recorder.clock");
        // On the timeline (created times), rank 1 arrives last by more than 250 ms at the three
        // all-reduces of steps 3 and 5 (seq 13-15 and 19-21: it enqueued each step's three at once).
        int late = 0;
        for (const CollectiveRecord& c : run.collectives) {
            ASSERT_EQ(c.arrivalUs.size(), static_cast<size_t>(n));
            double others = -1e300;
            for (int r = 0; r < n; ++r)
                if (r != 1)
                    others = std::max(others, c.arrivalUs[static_cast<size_t>(r)]);
            late += c.arrivalUs[1] - others > 250e3 ? 1 : 0;
        }
        EXPECT_EQ(late, 6);
        // JSON gives the same run.
        std::vector<std::filesystem::path> jsonPaths;
        for (int r = 0; r < n; ++r)
            jsonPaths.push_back(dir / ("fr_rank" + std::to_string(r) + ".json"));
        auto fromJson = importFiles(jsonPaths);
        ASSERT_TRUE(fromJson) << fromJson.error().message;
        EXPECT_EQ(fromJson->run.collectives.size(), run.collectives.size());
        EXPECT_EQ(english(fromJson->run.notes), english(run.notes));
    }
}

TEST(FlightRecorder, WhatIsNotADumpIsRefusedNamingTheFile)
{
    auto notJson = parseFlightRecorder("hello", "x.json");
    ASSERT_FALSE(notJson);
    EXPECT_EQ(notJson.error().message, "x.json: neither a pickle nor JSON that can be read");
    expectWorded(notJson.error());
    expectBorn(notJson.error());
    auto notDump = parseFlightRecorder(R"({"version": "2.10"})", "x.json");
    ASSERT_FALSE(notDump);
    EXPECT_EQ(notDump.error().message, "x.json: not a Flight Recorder dump (it has no list of entries)");
    expectWorded(notDump.error());
    expectBorn(notDump.error());
    auto group = parseFlightRecorder(R"({"entries": [], "pg_config": {"0": 5}})", "x.json");
    ASSERT_FALSE(group);
    EXPECT_EQ(group.error().message, "x.json: pg_config: process group 0 has no list of ranks that can be read");
    expectBorn(group.error());
    // a group keyed "": born a Message too (which the templates could not word; its Chinese is
    // checked in test_errors_born_import.cpp)
    auto unnamed = parseFlightRecorder(R"({"entries": [], "pg_config": {"": 5}})", "x.json");
    ASSERT_FALSE(unnamed);
    EXPECT_EQ(unnamed.error().message, "x.json: pg_config: process group  has no list of ranks that can be read");
    EXPECT_FALSE(unnamed.error().what.empty());
    // A pickle cut short, and one that would run code.
    const std::string whole = fileBytes(kData / "hang2/fr_hang_rank0.pkl");
    auto cut =
        parseFlightRecorder(std::string_view(whole).substr(0, 2000), (kData / "hang2/fr_hang_rank0.pkl").string());
    ASSERT_FALSE(cut);
    EXPECT_EQ(cut.error().message, (kData / "hang2/fr_hang_rank0.pkl").string()
                                       + ": the pickle is cut short at byte 2000 (the dump was not written whole)");
    expectWorded(cut.error());
    expectBorn(cut.error());
    static const char kCode[] = "\x80\x02\x63os\nsystem\nX\x02\x00\x00\x00lsR."; // GLOBAL os.system, then a call
    auto code = parseFlightRecorder(std::string(kCode, sizeof kCode - 1), "x.json");
    ASSERT_FALSE(code);
    EXPECT_NE(code.error().message.find("(GLOBAL); ShardLab reads data only"), std::string::npos);
    expectWorded(code.error());
    expectBorn(code.error());
}

TEST(FlightRecorder, ANewerVersionIsReadWithANoteAndRefusedWithoutItsEssentialFields)
{
    const std::string text = fileBytes(kData / "hang2/fr_hang_rank1.json");
    const FlightRecorderDump newer =
        dumpFromText(replaced(text, "\"version\":\"2.10\"", "\"version\":\"3.1\""), "fr_rank1.json");
    EXPECT_EQ(newer.entries.size(), 15u);
    ASSERT_EQ(newer.notes.size(), 1u);
    EXPECT_EQ(
        english(newer.notes[0]),
        "fr_rank1.json: Flight Recorder format version 3.1; ShardLab knows 2.0-2.10 and read the fields it knows");
    expectChinese(newer.notes[0]);
    auto job = flightRecorderJob({newer, dumpOf(kData / "hang2/fr_hang_rank0.json")});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_TRUE(hasNote(job->run, "flight_recorder.note.version"));
    auto missing = parseFlightRecorder(
        replaced(replaced(text, "\"version\":\"2.10\"", "\"version\":\"3.1\""), "\"profiling_name\"", "\"profiling\""),
        "fr_rank1.json");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message,
              "fr_rank1.json: entry 0 has no profiling_name (Flight Recorder always writes one)");
    expectWorded(missing.error());
    expectBorn(missing.error());
    auto badState = parseFlightRecorder(replaced(text, "\"completed\"", "\"done\""), "fr_rank1.json");
    ASSERT_FALSE(badState);
    EXPECT_EQ(badState.error().message, "fr_rank1.json: entry 0: state is not what Flight Recorder writes there");
    expectWorded(badState.error());
    expectBorn(badState.error());
}

TEST(FlightRecorder, ANegativeTimeIsRefused)
{
    // found by fuzz_import: a completion time below zero overflowed when the timeline took it
    // minus the earliest creation time
    const std::string text = fileBytes(kData / "ddp2/fr_rank0.json");
    auto completed = parseFlightRecorder(replaced(text, "\"time_discovered_completed_ns\":1796372452819154080",
                                                  "\"time_discovered_completed_ns\":-9223372036854775807"),
                                         "fr_rank0.json");
    ASSERT_FALSE(completed);
    EXPECT_EQ(completed.error().message,
              "fr_rank0.json: entry 0: time_discovered_completed_ns is not what Flight Recorder writes there");
    expectWorded(completed.error());
    auto started = parseFlightRecorder(
        replaced(text, "\"time_discovered_started_ns\":0", "\"time_discovered_started_ns\":-1"), "fr_rank0.json");
    ASSERT_FALSE(started);
    EXPECT_EQ(started.error().message,
              "fr_rank0.json: entry 0: time_discovered_started_ns is not what Flight Recorder writes there");
    // None and 0 still mean "not seen"
    auto zero = parseFlightRecorder(
        replaced(text, "\"time_discovered_completed_ns\":1796372452819154080", "\"time_discovered_completed_ns\":0"),
        "fr_rank0.json");
    ASSERT_TRUE(zero) << zero.error().message;
    EXPECT_FALSE(zero->entries[0].timeDiscoveredCompletedNs);
}

TEST(FlightRecorder, DumpsThatDoNotMakeOneJobAreRefusedNamingTheFiles)
{
    const std::string rank0 = (kData / "hang2/fr_hang_rank0.pkl").string();
    const std::string timeout0 = (kData / "hang2/fr_ontimeout_rank0.pkl").string();
    const std::string twice = importError({rank0, timeout0});
    EXPECT_EQ(twice, timeout0 + " and " + rank0 + " are both dumps of rank 0: give one dump per rank");
    expectWorded(twice);
    // A folder of both formats holds each rank twice.
    EXPECT_NE(importError({kData / "hang2"}).find("are both dumps of rank 0"), std::string::npos);
    const std::string jobs = importError({kData / "ddp2/fr_rank0.json", kData / "ddp4/fr_rank1.json"});
    EXPECT_EQ(jobs, (kData / "ddp4/fr_rank1.json").string() + " and " + (kData / "ddp2/fr_rank0.json").string()
                        + " come from different jobs: their process groups (pg_config) differ");
    expectWorded(jobs);
    const std::string text = fileBytes(kData / "ddp2/fr_rank0.json");
    const std::string outside = errorOf({dumpFromText(text, "fr_rank5.json"), dumpOf(kData / "ddp2/fr_rank1.json")});
    EXPECT_EQ(outside, "fr_rank5.json: rank 5, but the job's process groups have 2 ranks");
    expectWorded(outside);
    const std::string noRank = errorOf({dumpFromText(text, "dump.json")});
    EXPECT_EQ(noRank, "dump.json: cannot tell which rank wrote this dump (it names no rank, and the file's name does "
                      "not end with the "
                      "rank, as PyTorch names dumps)");
    expectWorded(noRank);
}

TEST(FlightRecorder, AMachineOfAnotherSizeIsRefused)
{
    ImportOptions options;
    options.machine = defaultProfileMachine(4);
    auto job = importFiles({kData / "ddp2/fr_rank0.pkl", kData / "ddp2/fr_rank1.pkl"}, options);
    ASSERT_FALSE(job);
    EXPECT_EQ(job.error().message, "the machine given has 4 GPUs, but the profiled job has 2 ranks");
    expectBorn(job.error());
    options.machine = defaultProfileMachine(2);
    auto two = importFiles({kData / "ddp2/fr_rank0.pkl", kData / "ddp2/fr_rank1.pkl"}, options);
    ASSERT_TRUE(two) << two.error().message;
    EXPECT_EQ(two->scenario.ranks(), 2);
}

TEST(FlightRecorder, AMissingRankIsNamedInTheHangViewAndNoTimelineIsDrawn)
{
    auto job = importFiles({kData / "ddp4/fr_rank0.pkl", kData / "ddp4/fr_rank1.json", kData / "ddp4/fr_rank3.pkl"});
    ASSERT_TRUE(job) << job.error().message;
    const RunResult& run = job->run;
    EXPECT_EQ(run.ranks, 4);
    EXPECT_TRUE(run.spans.empty());
    EXPECT_TRUE(run.collectives.empty());
    ASSERT_TRUE(run.hang);
    EXPECT_EQ(run.hang->firstMismatchRank, 2);
    EXPECT_EQ(run.hang->pending[2], "left no dump: what it last did is unknown");
    EXPECT_EQ(run.hang->pending[0], "completed every collective it recorded");
    EXPECT_EQ(run.hang->lastCompleted, (std::vector<int>{29, 29, -1, 29}));
    EXPECT_EQ(run.hang->explanation, "rank 2 left no dump: which collective they stopped in cannot be told");
    ASSERT_FALSE(run.notes.empty());
    EXPECT_EQ(english(run.notes[0]), "no timeline is drawn: rank 2 left no dump, so what they did cannot be told");
    EXPECT_EQ(job->scenario.ranks(), 4);
}

TEST(FlightRecorder, RanksThatCallACollectiveDifferentlyAreNamedWithWhatEachCalled)
{
    const std::string rank1 = fileBytes(kData / "hang2/fr_hang_rank1.json");
    // Rank 1's seq 15 (its last entry) with another size, then another op.
    const size_t seq15 = rank1.find("\"collective_seq_id\":15");
    ASSERT_NE(seq15, std::string::npos);
    std::string sized = rank1;
    sized.replace(sized.find("197633", seq15), 6, "100");
    const FlightRecorderDump rank0 = dumpOf(kData / "hang2/fr_hang_rank0.json");
    auto job = flightRecorderJob({rank0, dumpFromText(sized, "fr_rank1.json")});
    ASSERT_TRUE(job) << job.error().message;
    ASSERT_TRUE(job->run.hang);
    const HangReport& h = *job->run.hang;
    EXPECT_EQ(h.firstMismatchRank, 1);
    EXPECT_EQ(h.pending[1],
              "called all_reduce [100] Float -> [197633] Float at seq 15 of process group 0 'default_pg', where rank 0 "
              "called all_reduce [197633] Float -> [197633] Float");
    EXPECT_EQ(h.pending[0], "in all_reduce seq 15 of process group 0 'default_pg' (completed)");
    EXPECT_EQ(h.explanation,
              "the ranks called different collectives at seq 15 of process group 0 'default_pg': rank 0: all_reduce "
              "[197633] Float -> [197633] Float, rank 1: all_reduce [100] Float -> [197633] Float");
    expectChinese(h.pendingMessages[1]);
    EXPECT_EQ(h.lastCompleted, (std::vector<int>{15, 15}));
    EXPECT_TRUE(hasNote(job->run, "flight_recorder.note.left_out"));
    // Another op at the same seq.
    std::string op = rank1;
    op.replace(op.find("nccl:all_reduce", seq15), 15, "nccl:broadcast");
    auto other = flightRecorderJob({rank0, dumpFromText(op, "fr_rank1.json")});
    ASSERT_TRUE(other) << other.error().message;
    ASSERT_TRUE(other->run.hang);
    EXPECT_EQ(other->run.hang->firstMismatchRank, 1);
    EXPECT_NE(other->run.hang->pending[1].find("called broadcast [197633] Float"), std::string::npos);
}

TEST(FlightRecorder, ACollectiveEveryRankCalledButNeverCompletedIsStuck)
{
    // Rank 0's dump as both ranks': seq 16 scheduled on both.
    const std::string text = fileBytes(kData / "hang2/fr_hang_rank0.json");
    auto job = flightRecorderJob({dumpFromText(text, "fr_rank0.json"), dumpFromText(text, "fr_rank1.json")});
    ASSERT_TRUE(job) << job.error().message;
    ASSERT_TRUE(job->run.hang);
    const HangReport& h = *job->run.hang;
    EXPECT_EQ(h.firstMismatchRank, 0);
    EXPECT_EQ(h.pending[0], "in all_reduce seq 16 of process group 0 'default_pg', not completed (scheduled) though "
                            "every member called it");
    EXPECT_EQ(
        h.explanation,
        "every member of process group 0 'default_pg' called all_reduce seq 16, but it had not completed on ranks "
        "0,1 when the dumps were written");
    EXPECT_EQ(h.lastCompleted, (std::vector<int>{15, 15}));
}

TEST(FlightRecorder, EveryByteOfARealDumpChangedIsReadOrRefusedWithoutACrash)
{
    // Each byte of a pickle and of a JSON dump replaced by a few others (deterministic): the reader
    // and the job either read it or refuse it with a message.
    for (const char* file : {"hang2/fr_hang_rank1.pkl", "hang2/fr_hang_rank1.json"}) {
        const std::string whole = fileBytes(kData / file);
        const FlightRecorderDump rank0 = dumpOf(kData / "hang2/fr_hang_rank0.pkl");
        int read = 0, refused = 0;
        for (size_t i = 0; i < whole.size(); ++i)
            for (const int b : {0xff, (static_cast<unsigned char>(whole[i]) + 1) & 0xff}) {
                std::string changed = whole;
                changed[i] = static_cast<char>(b);
                auto d = parseFlightRecorder(changed, "fr_rank1.bin");
                if (!d) {
                    EXPECT_FALSE(d.error().message.empty());
                    ++refused;
                    continue;
                }
                ++read;
                auto job = flightRecorderJob({rank0, *d});
                if (!job) {
                    EXPECT_FALSE(job.error().message.empty());
                }
            }
        EXPECT_GT(read, 0) << file;
        EXPECT_GT(refused, 0) << file;
    }
}

} // namespace
} // namespace shardlab

// A run's metadata (everything but its timeline: mode, ranks, devices, the clock note and its
// message, the notes and their messages, peak memory, paging, the hang report) has one writer and
// one reader (run_result_json.h: runMetaToJson / runMetaFromJson). Every field survives each of the
// three files that carry a run: the result file, the run stream's last line and the Chrome trace.
// Before they shared one pair, result files dropped the notes and traces dropped the clock's
// message.
#include "../test_helpers.h"

#include "shardlab/base/message_json.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_result_json.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace shardlab;

namespace {

// The default scenario's run with every metadata field set to something a reader could lose.
RunResult everyField(const Scenario& scenario)
{
    auto run = simulate(scenario);
    EXPECT_TRUE(run) << (run ? "" : run.error().message);
    RunResult r = *run;
    r.mode = RunMode::Live;
    r.devices = {"H200 \"a\"", "H200 b", "GPU 2", "GPU 3"};
    r.clockNote = Message("live.clock.no_timeline").with("error", "1.5");
    r.notes = {Message("live.note.no_paging"), verbatim("a note in words only")};
    r.peakMemory = {1, 2, 3, 1ULL << 40};
    r.pagingUs = {0.5, 0, 0.25, 1e-3};
    r.sharedGpu = 4;
    HangReport h;
    h.lastCompleted = {4, 3, 4, -1};
    h.pending = {"a", "b \"quoted\"", "c", "d"};
    h.pendingMessages = {verbatim("a"), verbatim("b \"quoted\""), verbatim("c"), Message("hang.last_completed.none")};
    h.firstMismatchRank = 1;
    h.explanation = "rank 1 is behind";
    h.explanationWording = Message("hang.last_completed").with("number", 3);
    r.hang = h;
    return r;
}

std::string json(const Message& m) { return messageToJson(m).dump(); }

void expectSameMetadata(const RunResult& a, const RunResult& b)
{
    EXPECT_EQ(a.mode, b.mode);
    EXPECT_EQ(a.ranks, b.ranks);
    EXPECT_EQ(a.devices, b.devices);
    EXPECT_EQ(json(a.clockNote), json(b.clockNote));
    ASSERT_EQ(a.notes.size(), b.notes.size());
    for (size_t i = 0; i < a.notes.size(); ++i)
        EXPECT_EQ(json(a.notes[i]), json(b.notes[i])) << "note " << i;
    EXPECT_EQ(a.peakMemory, b.peakMemory);
    EXPECT_EQ(a.pagingUs, b.pagingUs);
    EXPECT_EQ(a.sharedGpu, b.sharedGpu);
    ASSERT_EQ(a.hang.has_value(), b.hang.has_value());
    if (a.hang) {
        EXPECT_EQ(a.hang->lastCompleted, b.hang->lastCompleted);
        EXPECT_EQ(a.hang->pending, b.hang->pending);
        EXPECT_EQ(a.hang->firstMismatchRank, b.hang->firstMismatchRank);
        EXPECT_EQ(a.hang->explanation, b.hang->explanation);
        EXPECT_EQ(json(a.hang->explanationWording), json(b.hang->explanationWording));
        ASSERT_EQ(a.hang->pendingMessages.size(), b.hang->pendingMessages.size());
        for (size_t i = 0; i < a.hang->pendingMessages.size(); ++i)
            EXPECT_EQ(json(a.hang->pendingMessages[i]), json(b.hang->pendingMessages[i])) << "pending " << i;
    }
}

} // namespace

TEST(RunMetadata, EveryFieldSurvivesAResultFile)
{
    const RunResult r = everyField(test::loadExample("default.shardlab.json"));
    auto back = parseRunResult(serializeRunResult(r));
    ASSERT_TRUE(back) << back.error().message;
    expectSameMetadata(r, *back);
}

TEST(RunMetadata, EveryFieldSurvivesARunStream)
{
    const Scenario scenario = test::loadExample("default.shardlab.json");
    const RunResult r = everyField(scenario);
    std::ostringstream out;
    RunStreamWriter writer(out);
    StreamHeader header;
    header.scenario = scenario;
    header.mode = RunMode::Live;
    header.launch = "test";
    ASSERT_TRUE(writer.header(header));
    ASSERT_TRUE(writer.result(r));
    auto back = readRunStream(out.str(), "<test>");
    ASSERT_TRUE(back) << back.error().message;
    expectSameMetadata(r, *back);
}

TEST(RunMetadata, EveryFieldSurvivesAChromeTrace)
{
    const Scenario scenario = test::loadExample("default.shardlab.json");
    const RunResult r = everyField(scenario);
    auto back = parseChromeTrace(chromeTrace(scenario, r), "t.json");
    ASSERT_TRUE(back) << back.error().message;
    expectSameMetadata(r, back->run);
}

// The clock sentence and the notes are one Message each in a run; files carry their English where
// they always have ("clock", "notes": what scripts read) and the Messages beside it.
TEST(RunMetadata, FilesKeepTheClockAndTheNotesInEnglishBesideTheirMessages)
{
    const RunResult r = everyField(test::loadExample("default.shardlab.json"));
    const nlohmann::json doc = nlohmann::json::parse(serializeRunResult(r));
    EXPECT_EQ(doc.at("clock"),
              "live, timeline capture off: only iteration boundaries were stamped (alignment error at most 1.5 us)");
    EXPECT_EQ(doc.at("notes"), nlohmann::json(english(r.notes)));
    EXPECT_EQ(doc.at("notes").at(1), "a note in words only");
    EXPECT_EQ(doc.at("clock_message").at("id"), "live.clock.no_timeline");
    ASSERT_EQ(doc.at("note_messages").size(), 2u);
    EXPECT_EQ(doc.at("note_messages").at(0).at("id"), "live.note.no_paging");

    // English only (a simulation's clock, a note that is no catalogue sentence): no messages, as before
    RunResult plain = r;
    plain.clockNote = verbatim("one simulated clock");
    plain.notes = {verbatim("a note in words only")};
    const nlohmann::json plainDoc = nlohmann::json::parse(serializeRunResult(plain));
    EXPECT_EQ(plainDoc.at("clock"), "one simulated clock");
    EXPECT_EQ(plainDoc.at("notes"), nlohmann::json::array({"a note in words only"}));
    EXPECT_FALSE(plainDoc.contains("clock_message"));
    EXPECT_FALSE(plainDoc.contains("note_messages"));
    RunResult none = r;
    none.clockNote = {};
    none.notes.clear();
    auto noneBack = parseRunResult(serializeRunResult(none));
    ASSERT_TRUE(noneBack) << noneBack.error().message;
    EXPECT_TRUE(noneBack->clockNote.empty());
    EXPECT_TRUE(noneBack->notes.empty());
}

// Files written before the messages were kept, or with messages this ShardLab cannot read, load
// with their English, verbatim.
TEST(RunMetadata, OlderFilesLoadWithTheirEnglish)
{
    const RunResult r = everyField(test::loadExample("default.shardlab.json"));
    nlohmann::json doc = nlohmann::json::parse(serializeRunResult(r));
    doc.erase("clock_message");
    doc.erase("note_messages");
    auto old = parseRunResult(doc.dump());
    ASSERT_TRUE(old) << old.error().message;
    EXPECT_EQ(json(old->clockNote), json(verbatim(english(r.clockNote))));
    ASSERT_EQ(old->notes.size(), 2u);
    EXPECT_EQ(json(old->notes[0]), json(verbatim(english(r.notes[0]))));
    EXPECT_EQ(json(old->notes[1]), json(verbatim("a note in words only")));
    // no "notes" at all (before they were kept)
    doc.erase("notes");
    auto older = parseRunResult(doc.dump());
    ASSERT_TRUE(older) << older.error().message;
    EXPECT_TRUE(older->notes.empty());
    // messages that are not messages, or not one per note: the English stands
    doc = nlohmann::json::parse(serializeRunResult(r));
    doc["clock_message"] = 7;
    doc["note_messages"].at(0) = "not a message";
    auto odd = parseRunResult(doc.dump());
    ASSERT_TRUE(odd) << odd.error().message;
    EXPECT_EQ(json(odd->clockNote), json(verbatim(english(r.clockNote))));
    EXPECT_EQ(json(odd->notes[0]), json(verbatim(english(r.notes[0]))));
    doc["note_messages"].erase(0);
    auto fewer = parseRunResult(doc.dump());
    ASSERT_TRUE(fewer) << fewer.error().message;
    EXPECT_EQ(json(fewer->notes[0]), json(verbatim(english(r.notes[0]))));
}

TEST(RunMetadata, OneSpellingOfTheModeEverywhere)
{
    for (RunMode m : {RunMode::Simulated, RunMode::Live})
        EXPECT_EQ(runModeFromName(runModeName(m)), m);
    EXPECT_EQ(std::string(runModeName(RunMode::Simulated)), "sim");
    EXPECT_EQ(std::string(runModeName(RunMode::Live)), "live");
    EXPECT_FALSE(runModeFromName("simulated").has_value());
}

// Run streams (run_stream.h): a streamed run read back is exactly the run that was made, in any
// pieces; another format version, a foreign first line, a missing chunk and a stream that stops
// early are each refused or reported with a message that says which.
#include "../../common/sim_stream.h"
#include "shardlab/base/version.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace shardlab;
using shardlab::test::simStream;

namespace {

Scenario load(const char* name)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/" + name);
    EXPECT_TRUE(s) << (s ? "" : s.error().message);
    return *s;
}

// Lossless equality: the serialised forms print every double to the last bit; notes are not in it.
void expectSameRun(const RunResult& a, const RunResult& b)
{
    EXPECT_EQ(serializeRunResult(a), serializeRunResult(b));
    EXPECT_EQ(english(a.notes), english(b.notes));
}

std::vector<std::string> lines(const std::string& text) { return test::linesOfText(text); }

std::string join(const std::vector<std::string>& ls)
{
    std::string s;
    for (const auto& l : ls)
        s += l + "\n";
    return s;
}

// A stream of the default scenario's header and then `error`'s line, as a writer that failed leaves it.
std::string streamEndingWith(const Error& error)
{
    std::ostringstream out;
    RunStreamWriter writer(out);
    StreamHeader header;
    header.scenario = load("default.shardlab.json");
    EXPECT_TRUE(writer.header(header));
    EXPECT_TRUE(writer.error(error));
    return out.str();
}

} // namespace

TEST(RunStream, ASimulationReadBackIsTheRunThatWasMade)
{
    const Scenario scenario = load("straggler-12-6-4-2.shardlab.json");
    RunResult made;
    const std::string text = simStream(scenario, &made);
    // header + one chunk per iteration + result
    EXPECT_EQ(lines(text).size(), 1 + static_cast<size_t>(scenario.iterations) + 1);
    StreamHeader header;
    auto read = readRunStream(text, "<test>", &header);
    ASSERT_TRUE(read) << read.error().message;
    expectSameRun(made, *read);
    EXPECT_EQ(header.shardlabVersion, kVersion);
    EXPECT_EQ(header.launch, "simulation");
    EXPECT_EQ(serializeScenario(header.scenario), serializeScenario(scenario));
}

TEST(RunStream, BytesInAnyPiecesGiveTheSameRunAndGrowTheRunSoFar)
{
    const Scenario scenario = load("default.shardlab.json");
    RunResult made;
    const std::string text = simStream(scenario, &made);
    RunStreamReader reader("<pieces>");
    size_t chunks = 0, lastSpans = 0;
    for (size_t i = 0; i < text.size(); i += 7) {
        Status st = reader.feed(std::string_view(text).substr(i, 7), [&](RunStreamReader::Event e) {
            if (e != RunStreamReader::Event::Chunk)
                return;
            ++chunks;
            EXPECT_GE(reader.soFar().spans.size(), lastSpans);
            lastSpans = reader.soFar().spans.size();
            EXPECT_EQ(reader.done(), static_cast<int>(chunks));
            EXPECT_EQ(reader.total(), scenario.iterations);
        });
        ASSERT_TRUE(st) << st.error().message;
    }
    EXPECT_EQ(chunks, static_cast<size_t>(scenario.iterations));
    auto run = reader.finish();
    ASSERT_TRUE(run) << run.error().message;
    expectSameRun(made, *run);
}

TEST(RunStream, AWholeRunIsSentAsOneChunkPerIteration)
{
    // a live run arrives whole at the end: the writer cuts it at iteration boundaries
    const Scenario scenario = load("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(scenario);
    ASSERT_TRUE(run);
    run->mode = RunMode::Live;
    run->notes = {verbatim("collective sizes scaled down to fit")};
    std::ostringstream out;
    RunStreamWriter writer(out);
    StreamHeader header;
    header.mode = RunMode::Live;
    header.scenario = scenario;
    ASSERT_TRUE(writer.header(header));
    ASSERT_TRUE(writer.progress(1, scenario.iterations));
    ASSERT_TRUE(writer.result(*run));
    // header + progress + chunks + result
    EXPECT_EQ(lines(out.str()).size(), 3 + static_cast<size_t>(scenario.iterations));
    auto read = readRunStream(out.str());
    ASSERT_TRUE(read) << read.error().message;
    expectSameRun(*run, *read);
}

TEST(RunStream, AWatchdogReportArrivesAsInALocalRun)
{
    const Scenario scenario = load("hang-mismatched-collective.shardlab.json");
    SimulationOptions options;
    options.watchdogMs = 2000;
    RunResult made;
    const std::string text = simStream(scenario, &made, options);
    ASSERT_TRUE(made.hang);
    auto read = readRunStream(text);
    ASSERT_TRUE(read) << read.error().message;
    ASSERT_TRUE(read->hang);
    EXPECT_EQ(read->hang->explanation, made.hang->explanation);
    EXPECT_EQ(read->hang->lastCompleted, made.hang->lastCompleted);
    expectSameRun(made, *read);
}

TEST(RunStream, AnotherFormatVersionIsRefusedNamingBothVersions)
{
    const std::string old = R"({"shardlab_stream":0,"type":"header","shardlab_version":"0.0.3"})"
                            "\n";
    auto read = readRunStream(old, "ssh lab");
    ASSERT_FALSE(read);
    const std::string& m = read.error().message;
    EXPECT_NE(m.find("format version 0, written by ShardLab 0.0.3"), std::string::npos) << m;
    EXPECT_NE(m.find(std::string("this ShardLab (") + kVersion + ") reads format version 1 to 2"), std::string::npos)
        << m;
    EXPECT_EQ(m.rfind("ssh lab: ", 0), 0u) << m;
}

TEST(RunStream, SomethingElseOnTheFirstLineIsNamed)
{
    auto read = readRunStream("bash: line 1: shardlab: command not found\n");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find(
                  "not a ShardLab run stream: its first line is 'bash: line 1: shardlab: command not found'"),
              std::string::npos)
        << read.error().message;
}

TEST(RunStream, AStreamThatStopsEarlyKeepsWhatArrived)
{
    const Scenario scenario = load("straggler-12-6-4-2.shardlab.json");
    ASSERT_GE(scenario.iterations, 3);
    RunResult made;
    auto ls = lines(simStream(scenario, &made));
    ls.resize(3); // header and two chunks
    RunStreamReader reader;
    ASSERT_TRUE(reader.feed(join(ls)));
    auto run = reader.finish();
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().kind, ErrorKind::RunFailed);
    EXPECT_NE(run.error().message.find("ended after 2 of " + std::to_string(scenario.iterations) + " iterations"),
              std::string::npos)
        << run.error().message;
    const RunResult partial = reader.partial();
    EXPECT_EQ(partial.iterations.size(), 2u);
    EXPECT_EQ(partial.devices.size(), static_cast<size_t>(scenario.ranks()));
    ASSERT_FALSE(partial.notes.empty());
    EXPECT_NE(english(partial.notes.back()).find("incomplete"), std::string::npos);
    EXPECT_TRUE(checkRunAgainstScenario(partial, scenario));
}

TEST(RunStream, AMissingChunkIsFound)
{
    const Scenario scenario = load("straggler-12-6-4-2.shardlab.json");
    RunResult made;
    auto ls = lines(simStream(scenario, &made));
    ls.erase(ls.begin() + 2); // the second iteration's chunk
    auto read = readRunStream(join(ls));
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("line 3: $.first_span"), std::string::npos) << read.error().message;
    EXPECT_NE(read.error().message.find("a chunk is missing or repeated"), std::string::npos);
}

TEST(RunStream, TheWritersErrorIsTheRunsError)
{
    auto read = readRunStream(streamEndingWith(runFailed(verbatim("NCCL error: unhandled cuda error"))));
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().kind, ErrorKind::RunFailed);
    EXPECT_EQ(read.error().message, "NCCL error: unhandled cuda error");
}

// The error line carries the error as a Message ("what"), so that a reader words it in its
// user's language; one whose English is not the line's "message" is not believed.
TEST(RunStream, AnErrorLineBringsItsMessage)
{
    const std::string text = streamEndingWith(badInput(Message("error.piece.cuda_device_unlisted").with("device", 3)));
    auto read = readRunStream(text);
    ASSERT_FALSE(read);
    EXPECT_EQ(read.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(read.error().what.id, "error.piece.cuda_device_unlisted");
    EXPECT_EQ(worded(read.error(), Language::Chinese), "CUDA 没有列出设备 3");

    std::string tampered = text;
    const std::string device = "\"device\":\"3\"";
    const size_t at = tampered.rfind(device);
    ASSERT_NE(at, std::string::npos) << text;
    tampered.replace(at, device.size(), "\"device\":\"4\"");
    auto odd = readRunStream(tampered);
    ASSERT_FALSE(odd);
    EXPECT_EQ(odd.error().message, "CUDA does not list device 3");
    EXPECT_TRUE(odd.error().what.empty());
    EXPECT_EQ(worded(odd.error(), Language::Chinese), "CUDA does not list device 3");
}

TEST(RunStream, AWriterStopsWhenItsOutputIsGone)
{
    std::ostringstream out;
    out.setstate(std::ios::badbit); // what a closed pipe leaves
    RunStreamWriter writer(out);
    EXPECT_FALSE(writer.progress(1, 2));
    EXPECT_FALSE(writer.ok());
}

TEST(RunStream, LinesAreAsciiEvenForNonAsciiNames)
{
    Scenario scenario = load("default.shardlab.json");
    scenario.name = "\xe8\xaf\xbe\xe5\xa0\x82 lab";
    std::ostringstream out;
    RunStreamWriter writer(out);
    StreamHeader header;
    header.scenario = scenario;
    ASSERT_TRUE(writer.header(header));
    for (unsigned char c : out.str())
        EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << int(c);
    RunStreamReader reader;
    ASSERT_TRUE(reader.feed(out.str()));
    ASSERT_TRUE(reader.header());
    EXPECT_EQ(reader.header()->scenario.name, scenario.name);
}

// Version 2: an open program (`shardlab profile --live`). The header's scenario has no program
// yet; chunks name steps beyond it; the result brings the program and may replace the chunks.
namespace {

struct OpenStream {
    std::string text;
    RunResult made;
    Scenario scenario;
};

OpenStream openStream(bool replace)
{
    OpenStream o;
    o.scenario = load("straggler-12-6-4-2.shardlab.json");
    auto run = simulate(o.scenario);
    EXPECT_TRUE(run);
    o.made = *run;
    std::ostringstream out;
    RunStreamWriter writer(out);
    StreamHeader header;
    header.scenario = o.scenario;
    header.scenario.program.clear();
    header.scenario.perturbations = {};
    header.mode = RunMode::Simulated;
    header.openProgram = true;
    EXPECT_TRUE(writer.header(header));
    RunResult first = o.made;
    first.spans.resize(o.made.spans.size() / 2);
    first.collectives.clear();
    for (Span& s : first.spans)
        s.collective = -1;
    first.iterations.clear();
    if (!replace) { // the chunk is the run's beginning: the rest follows as chunks
        first.spans.assign(o.made.spans.begin(),
                           o.made.spans.begin() + static_cast<std::ptrdiff_t>(first.spans.size()));
        first.collectives = o.made.collectives;
    }
    EXPECT_TRUE(writer.chunk(first, 1, 0));
    StreamEnding ending;
    ending.scenario = &o.scenario;
    ending.replaceTimeline = replace;
    EXPECT_TRUE(writer.result(o.made, ending));
    o.text = out.str();
    return o;
}

} // namespace

TEST(RunStream, AnOpenProgramsStepsArriveBeforeItsProgram)
{
    for (bool replace : {false, true}) {
        OpenStream o = openStream(replace);
        EXPECT_NE(lines(o.text).front().find("\"shardlab_stream\":2"), std::string::npos);
        RunStreamReader reader("profile");
        ASSERT_TRUE(reader.feed(o.text));
        ASSERT_TRUE(reader.header());
        EXPECT_TRUE(reader.header()->openProgram);
        EXPECT_TRUE(reader.header()->scenario.program.empty());
        ASSERT_NE(reader.scenario(), nullptr);
        EXPECT_EQ(reader.scenario()->program.size(), o.scenario.program.size()); // the result's
        auto run = reader.finish();
        ASSERT_TRUE(run) << run.error().message;
        expectSameRun(o.made, *run); // with or without replacement: the run that was made
        EXPECT_EQ(o.text.find("\"timeline\"") != std::string::npos, replace);
    }
}

TEST(RunStream, AClosedProgramsStreamIsVersionOneAndCannotUseVersionTwo)
{
    const Scenario scenario = load("default.shardlab.json");
    RunResult made;
    const std::string text = simStream(scenario, &made);
    EXPECT_NE(lines(text).front().find("\"shardlab_stream\":1"), std::string::npos); // read by older ShardLabs too
    std::vector<std::string> ls = lines(text);
    ls.front().insert(ls.front().size() - 1, ",\"open_program\":true");
    auto read = readRunStream(join(ls), "lab");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("$.open_program: belongs to format version 2, but the stream says version 1"),
              std::string::npos)
        << read.error().message;
    // a result naming a scenario in a stream whose program was known from the start
    ls = lines(text);
    ls.back().insert(ls.back().size() - 1, ",\"scenario\":{}");
    read = readRunStream(join(ls), "lab");
    ASSERT_FALSE(read);
    EXPECT_NE(read.error().message.find("only the result of an open program's stream (version 2) names its scenario"),
              std::string::npos)
        << read.error().message;
}

TEST(RunStream, AnOpenProgramsStreamThatStopsEarlySaysHowManyCollectivesArrived)
{
    OpenStream o = openStream(false);
    std::vector<std::string> ls = lines(o.text);
    ls.pop_back(); // no result
    RunStreamReader reader("profile");
    ASSERT_TRUE(reader.feed(join(ls)));
    auto run = reader.finish();
    ASSERT_FALSE(run);
    EXPECT_NE(run.error().message.find("the stream ended after " + std::to_string(o.made.collectives.size())
                                       + " collectives of the program, before the run's result"),
              std::string::npos)
        << run.error().message;
    const RunResult partial = reader.partial();
    EXPECT_FALSE(partial.spans.empty());
    EXPECT_NE(english(partial.notes.back()).find("incomplete: the stream stopped before the program's end"),
              std::string::npos);
}

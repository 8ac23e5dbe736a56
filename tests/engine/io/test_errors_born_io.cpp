// Errors born as Messages (issue 26) in io/, base/, sim/, analysis/, report/, model/, plan/ and
// lessons/: each refusal, triggered through the public API with a broken input, carries its
// Message, says in English what it always said, and reads in Chinese with no English left but the
// values the input holds.
#include "../../common/born_message.h"
#include "../../common/sim_stream.h"

#include "shardlab/analysis/prepared_run.h"
#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"
#include "shardlab/base/version.h"
#include "shardlab/io/exporters.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/lessons/lesson_check.h"
#include "shardlab/lessons/lessons.h"
#include "shardlab/plan/transformer.h"
#include "shardlab/report/lab_report.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <sstream>

using namespace shardlab;
using nlohmann::json;
using shardlab::test::expectBornInBothLanguages;

namespace {

Scenario bornIoLoad(const char* name)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/" + name);
    EXPECT_TRUE(s) << (s ? "" : s.error().message);
    return *s;
}

// What `shardlab sim FILE --stream` writes for the default scenario, one line each.
std::vector<std::string> bornIoStreamLines(RunResult* made = nullptr)
{
    const Scenario scenario = bornIoLoad("default.shardlab.json");
    return test::linesOfText(test::simStream(scenario, made));
}

std::string bornIoJoin(const std::vector<std::string>& lines)
{
    std::string out;
    for (const std::string& l : lines)
        out += l + "\n";
    return out;
}

Error bornIoStreamError(const std::string& text)
{
    auto read = readRunStream(text, "ssh lab");
    EXPECT_FALSE(read);
    return read ? Error{} : read.error();
}

const std::vector<std::string> kBornIoOrigin = {"ssh lab"};

} // namespace

// ---- io/run_stream.cpp ------------------------------------------------------------------------

TEST(ErrorsBornIo, ARunStreamsFirstLineIsRefusedInBothLanguages)
{
    const Error foreign = bornIoStreamError("bash: line 1: shardlab: command not found\n");
    EXPECT_EQ(foreign.message, "ssh lab: not a ShardLab run stream: its first line is 'bash: line 1: shardlab: "
                               "command not found' (expected the stream's JSON header)");
    expectBornInBothLanguages(foreign, kBornIoOrigin);

    const Error old = bornIoStreamError(R"({"shardlab_stream":0,"type":"header","shardlab_version":"0.0.3"})"
                                        "\n");
    EXPECT_EQ(old.message, std::string("ssh lab: the run stream is format version 0, written by ShardLab 0.0.3; this "
                                       "ShardLab (")
                               + kVersion
                               + ") reads format version 1 to 2. Install the same ShardLab version on both machines.");
    expectBornInBothLanguages(old, kBornIoOrigin);
    const Error unnamed = bornIoStreamError(R"({"shardlab_stream":9,"type":"header"})"
                                            "\n");
    EXPECT_NE(unnamed.message.find("written by ShardLab unknown;"), std::string::npos) << unnamed.message;
    expectBornInBothLanguages(unnamed, kBornIoOrigin);

    const Error noFormat = bornIoStreamError(R"({"type":"header"})"
                                             "\n");
    EXPECT_EQ(noFormat.message,
              R"(ssh lab: not a ShardLab run stream: its first line has no "shardlab_stream" ('{"type":"header"}'))");
    expectBornInBothLanguages(noFormat, {"ssh lab", "shardlab_stream"});

    const Error nothing = bornIoStreamError("");
    EXPECT_EQ(nothing.kind, ErrorKind::RunFailed);
    EXPECT_EQ(nothing.message, "ssh lab: the stream ended before its header (nothing arrived)");
    expectBornInBothLanguages(nothing, kBornIoOrigin);
}

TEST(ErrorsBornIo, ARunStreamsLaterLinesAreRefusedInBothLanguages)
{
    std::vector<std::string> lines = bornIoStreamLines();
    ASSERT_GE(lines.size(), 5u); // header, three chunks, result
    const std::string header = lines.front() + "\n";

    const Error type = bornIoStreamError(header + R"({"type":"bogus"})" + "\n");
    EXPECT_EQ(type.message, "ssh lab: line 2: $.type: 'bogus' (expected progress, chunk, result or error)");
    expectBornInBothLanguages(type, {"ssh lab", "bogus", "progress", "chunk", "result", "error"});

    const Error notJson = bornIoStreamError(header + "{oops\n");
    EXPECT_EQ(notJson.message.rfind("ssh lab: line 2: not valid JSON (", 0), 0u) << notJson.message;
    ASSERT_FALSE(notJson.what.empty());

    const Error notALine = bornIoStreamError(header + "Warning: something\n");
    EXPECT_EQ(notALine.message, "ssh lab: line 2: not a line of a run stream ('Warning: something')");
    expectBornInBothLanguages(notALine, kBornIoOrigin);

    const Error range = bornIoStreamError(header + R"({"type":"progress","done":-1,"total":1})" + "\n");
    EXPECT_EQ(range.message, "ssh lab: line 2: $.done: -1 (expected 0 to 1073741824)");
    expectBornInBothLanguages(range, kBornIoOrigin);

    std::vector<std::string> gap = lines;
    gap.erase(gap.begin() + 2); // the second iteration's chunk
    const Error missing = bornIoStreamError(bornIoJoin(gap));
    EXPECT_NE(missing.message.find("ssh lab: line 3: $.first_span: is "), std::string::npos) << missing.message;
    EXPECT_NE(missing.message.find(" have arrived (a chunk is missing or repeated)"), std::string::npos);
    expectBornInBothLanguages(missing, kBornIoOrigin);

    const Error after = bornIoStreamError(bornIoJoin(lines) + R"({"type":"progress","done":1,"total":1})" + "\n");
    EXPECT_NE(after.message.find(": more after the end of the run ('"), std::string::npos) << after.message;
    expectBornInBothLanguages(after, kBornIoOrigin);

    std::vector<std::string> early(lines.begin(), lines.begin() + 3);
    const Error stopped = bornIoStreamError(bornIoJoin(early));
    EXPECT_EQ(stopped.kind, ErrorKind::RunFailed);
    EXPECT_EQ(stopped.message, "ssh lab: the stream ended after 2 of 3 iterations, before the run's result");
    expectBornInBothLanguages(stopped, kBornIoOrigin);

    RunStreamReader reader("ssh lab");
    ASSERT_TRUE(reader.feed(bornIoJoin(early)));
    const RunResult partial = reader.partial();
    ASSERT_FALSE(partial.notes.empty());
    EXPECT_EQ(english(partial.notes.back()),
              "incomplete: the stream stopped after 2 of 3 iterations; this is what arrived");
    expectBornInBothLanguages(badInput(partial.notes.back())); // a note, worded as an error is

    json result = json::parse(lines.back());
    result["ranks"] = 7;
    std::vector<std::string> wrongRanks = lines;
    wrongRanks.back() = result.dump();
    const Error ranks = bornIoStreamError(bornIoJoin(wrongRanks));
    EXPECT_EQ(ranks.message, "ssh lab: line 5: $.ranks: 7 but the scenario has 4");
    expectBornInBothLanguages(ranks, kBornIoOrigin);

    json open = json::parse(lines.front());
    open["open_program"] = true; // version 1 says it has none
    const Error version = bornIoStreamError(open.dump() + "\n");
    EXPECT_EQ(version.message,
              "ssh lab: line 1: $.open_program: belongs to format version 2, but the stream says version 1");
    expectBornInBothLanguages(version, kBornIoOrigin);

    json chunk = json::parse(lines[1]);
    chunk["spans"][0][0] = 9; // rank 9 of 4
    const Error rank = bornIoStreamError(header + chunk.dump() + "\n");
    EXPECT_EQ(rank.message, "ssh lab: line 2: $.spans[0]: rank 9 is not in the run");
    expectBornInBothLanguages(rank, kBornIoOrigin);
}

// ---- io/run_result_io.cpp, io/result_file.cpp -------------------------------------------------

TEST(ErrorsBornIo, ARunThatDoesNotFitItsScenarioIsRefusedInBothLanguages)
{
    const Scenario scenario = bornIoLoad("default.shardlab.json");
    auto run = simulate(scenario);
    ASSERT_TRUE(run);

    RunResult fewer = *run;
    fewer.ranks = 3;
    const Status ranks = checkRunAgainstScenario(fewer, scenario);
    ASSERT_FALSE(ranks);
    EXPECT_EQ(ranks.error().message, "the run has 3 ranks but the scenario has 4");
    expectBornInBothLanguages(ranks.error());

    RunResult late = *run;
    late.spans[1].waitedFor = 12;
    const Status waited = checkRunAgainstScenario(late, scenario);
    ASSERT_FALSE(waited);
    EXPECT_EQ(waited.error().message, "spans[1]: waited_for 12 is not a rank");
    expectBornInBothLanguages(waited.error(), {"spans", "waited_for"});

    ResultFile file;
    file.scenario = scenario;
    file.run = *run;
    json doc = json::parse(serializeResult(file));
    doc["run"]["spans"][2][5] = 40; // step 40 of 4
    auto result = parseResult(doc.dump(), "r.json");
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().message, "r.json: $.run: spans[2]: step 40 is not in the scenario's program of 4");
    expectBornInBothLanguages(result.error(), {"r.json", "spans"});

    json bad = json::parse(serializeRunResult(*run));
    bad["iterations"][0] = json::array({1.0});
    auto pair = parseRunResult(bad.dump(), "run.json");
    ASSERT_FALSE(pair);
    EXPECT_EQ(pair.error().message, "run.json: $.iterations[0]: expected [begin_us, end_us]");
    expectBornInBothLanguages(pair.error(), {"run.json", "begin_us", "end_us"});

    auto empty = parseRunResult("  ", "run.json");
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().message, "run.json: $: the file holds only white space");
    expectBornInBothLanguages(empty.error(), {"run.json"});
}

// ---- io/scenario_io.cpp, base/json_reader.cpp -------------------------------------------------

TEST(ErrorsBornIo, AScenarioFilesShapeIsRefusedInBothLanguages)
{
    auto png = parseScenario("\x89PNG", "s.json");
    ASSERT_FALSE(png);
    EXPECT_EQ(png.error().message,
              "s.json: $: not a ShardLab file: it does not start like JSON (its first byte is 0x89)");
    expectBornInBothLanguages(png.error(), {"s.json"});
    auto text = parseScenario("hello", "s.json");
    ASSERT_FALSE(text);
    EXPECT_EQ(text.error().message, "s.json: $: not a ShardLab file: it does not start like JSON (it starts with 'h')");
    expectBornInBothLanguages(text.error(), {"s.json"});
    auto deep = parseScenario(std::string(100, '[') + std::string(100, ']'), "s.json");
    ASSERT_FALSE(deep);
    EXPECT_EQ(deep.error().message,
              "s.json: $: nested more than 64 levels deep (a ShardLab file goes about 8 levels down)");
    expectBornInBothLanguages(deep.error(), {"s.json"});

    auto noGpus = parseScenario(R"({"shardlab": 1, "name": "x", "topology": {"name": "t"}})", "s.json");
    ASSERT_FALSE(noGpus);
    EXPECT_EQ(noGpus.error().message, R"(s.json: $.topology.gpus: missing (expected "preset" or an array of GPUs))");
    expectBornInBothLanguages(noGpus.error(), {"s.json", "preset"});

    auto size = parseScenario(R"({"shardlab": 1, "name": "x", "topology": {"preset": "teaching-4x16gb-pcie"},
        "workload": [{"name": "w", "kind": "parameters", "size": "-5 GB"}]})",
                              "s.json");
    ASSERT_FALSE(size);
    EXPECT_NE(size.error().message.find("s.json: $.workload[0].size: size '-5 GB' is negative (expected a size: "),
              std::string::npos)
        << size.error().message;
    expectBornInBothLanguages(size.error(), {"s.json"});
}

// ---- io/trace_import.cpp ----------------------------------------------------------------------

TEST(ErrorsBornIo, ATraceThatIsNotShardLabsIsRefusedInBothLanguages)
{
    const Scenario scenario = bornIoLoad("default.shardlab.json");
    auto run = simulate(scenario);
    ASSERT_TRUE(run);
    json trace = json::parse(chromeTrace(scenario, *run));
    size_t k = 0;
    for (; k < trace["traceEvents"].size(); ++k)
        if (trace["traceEvents"][k].value("ph", "") == "X")
            break;
    ASSERT_LT(k, trace["traceEvents"].size());
    json detail = trace;
    detail["traceEvents"][k]["args"]["detail"] = "bogus";
    auto why = parseChromeTrace(detail.dump(), "t.json");
    ASSERT_FALSE(why);
    EXPECT_EQ(why.error().message, "t.json: $.traceEvents[" + std::to_string(k)
                                       + "].args.detail: 'bogus' (expected none, injected_delay or paging)");
    expectBornInBothLanguages(why.error(), {"t.json", "bogus", "none", "injected_delay", "paging"});

    json negative = trace;
    negative["traceEvents"][k]["dur"] = -1;
    auto dur = parseChromeTrace(negative.dump(), "t.json");
    ASSERT_FALSE(dur);
    EXPECT_EQ(dur.error().message, "t.json: $.traceEvents[" + std::to_string(k) + "].dur: negative");
    expectBornInBothLanguages(dur.error(), {"t.json"});
}

// ---- base/file_io.cpp -------------------------------------------------------------------------

TEST(ErrorsBornIo, AnOutputOverAnInputIsRefusedInBothLanguages)
{
    const Status over = refuseOutputOverInput("--trace", "x.json", "x.json", "the scenario file being run");
    ASSERT_FALSE(over);
    EXPECT_EQ(over.error().message, "--trace x.json: that is the scenario file being run x.json; writing there would "
                                    "replace it (choose another file)");
    expectBornInBothLanguages(over.error(), {"--trace", "x.json"});
    const Status other = refuseOutputOverInput("-o", "x.json", "x.json", "the notes");
    ASSERT_FALSE(other);
    EXPECT_EQ(other.error().message,
              "-o x.json: that is the notes x.json; writing there would replace it (choose another file)");
    ASSERT_FALSE(other.error().what.empty());
    const Status twice = refuseOutputTwice("--csv", "y.csv", "--trace", "y.csv");
    ASSERT_FALSE(twice);
    EXPECT_EQ(twice.error().message,
              "--csv y.csv: that is also --trace y.csv; one would replace the other (choose another file)");
    expectBornInBothLanguages(twice.error(), {"--csv", "--trace", "y.csv"});
}

// ---- sim/simulator.cpp, sim/profiles.cpp, analysis/ -------------------------------------------

TEST(ErrorsBornIo, TheSimulatorsRefusalsAndCancellationsAreBornMessages)
{
    auto s = loadScenario(std::string(SHARDLAB_SOURCE_DIR) + "/tests/fuzz/corpus/no-route.json");
    ASSERT_TRUE(s) << s.error().message;
    auto cut = simulate(*s);
    ASSERT_FALSE(cut);
    EXPECT_NE(cut.error().message.find("has no route to rank"), std::string::npos) << cut.error().message;
    std::vector<std::string> kept;
    for (const Op& op : s->program)
        kept.push_back(op.name);
    expectBornInBothLanguages(cut.error(), kept);

    const Scenario scenario = bornIoLoad("default.shardlab.json");
    std::atomic<bool> stop{true};
    SimulationOptions options;
    options.cancel = &stop;
    auto cancelled = simulate(scenario, options);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().kind, ErrorKind::Cancelled);
    EXPECT_EQ(cancelled.error().message, "simulation cancelled");
    expectBornInBothLanguages(cancelled.error());

    auto profile = profileFromJson(R"({"shardlab_profile": 1, "name": "lab", "ll_max_bus_gbps": [1],
        "compute_efficiency": {"H100": -1}, "corrections": {"all_reduce/4": 3}})",
                                   "p.json");
    ASSERT_FALSE(profile);
    EXPECT_EQ(profile.error().message,
              "p.json: $.ll_max_bus_gbps: expected two positive numbers (GB/s on two nodes, on three or more)\n"
              "p.json: $.compute_efficiency.H100: expected a positive number\n"
              "p.json: $.corrections.all_reduce/4: expected an array of {bytes, factor}");
    expectBornInBothLanguages(profile.error(), {"p.json", "H100", "all_reduce/4", "bytes", "factor"});
}

// ---- report/lab_report.cpp, model/scenario.cpp ------------------------------------------------

TEST(ErrorsBornIo, TheLabReportAndTheScenarioChecksRefuseInBothLanguages)
{
    Scenario scenario = bornIoLoad("default.shardlab.json");
    LabReportOptions options;
    int calls = 0; // the scenario itself runs; the rescaled runs fail
    options.runner = [&calls](const Scenario& sc) -> Result<RunResult> {
        if (calls++ == 0)
            return simulate(sc);
        return runFailed(Message("error.sim.cancelled"));
    };
    options.sizes = {1 << 20, 1 << 21};
    auto report = buildLabReport(scenario, options);
    ASSERT_FALSE(report);
    EXPECT_EQ(report.error().message.rfind("the run at ", 0), 0u) << report.error().message;
    EXPECT_NE(report.error().message.find(" failed: simulation cancelled"), std::string::npos);
    expectBornInBothLanguages(report.error());

    Scenario wrong = scenario;
    Mismatch m;
    m.type = Mismatch::Type::WrongOp;
    m.rank = 0;
    m.op = 2;
    m.replacement = OpKind::Compute;
    wrong.perturbations.mismatches.push_back(m);
    const Status st = validateScenario(wrong);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().message, "$.perturbations.mismatches[0].replacement: expected a collective");
    expectBornInBothLanguages(st.error());
}

// ---- plan/hf_config.cpp -----------------------------------------------------------------------

TEST(ErrorsBornIo, AModelConfigWithoutItsShapeIsRefusedInBothLanguages)
{
    auto m = parseHfConfig(R"({"model_type": "llama", "hidden_size": 4096})", "config.json");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find(": missing (expected an integer from 1 to "), std::string::npos)
        << m.error().message;
    expectBornInBothLanguages(m.error(), {"config.json"});
}

// ---- lessons/lessons.cpp ----------------------------------------------------------------------

TEST(ErrorsBornIo, ALessonFilesRefusalsAreBornMessages)
{
    auto lesson = parseLesson(R"({"shardlab_lesson": 1, "id": "x", "course": {"en": "c", "zh": "c"},
        "title": {"en": "t", "zh": "t"}, "summary": {"en": "s", "zh": "s"}, "scenario": "a.json",
        "questions": [{"type": "numeric", "prompt": {"en": "p", "zh": "p"}, "right": {"en": "r", "zh": "r"},
                       "wrong": {"en": "w", "zh": "w"}, "answer": {"tolerance": 1}},
                      {"type": "choice", "prompt": {"en": "p", "zh": "p"}, "right": {"en": "r", "zh": "r"},
                       "wrong": {"en": "w", "zh": "w"},
                       "choices": [{"id": "a", "text": {"en": "a", "zh": "a"}, "correct": true,
                                    "explanation": {"en": "e", "zh": "e"}},
                                   {"id": "a", "text": {"en": "b", "zh": "b"}, "explanation": {"en": "e", "zh": "e"}}]},
                      {"type": "collective", "prompt": {"en": "p", "zh": "p"}, "right": {"en": "r", "zh": "r"},
                       "wrong": {"en": "w", "zh": "w"}, "need": "sum_on_every_rank", "also_accept": ["gossip"]}]})",
                              "x.lesson.json");
    ASSERT_FALSE(lesson);
    const std::string& m = lesson.error().message;
    EXPECT_NE(
        m.find(
            R"(x.lesson.json: $.questions[0].answer: missing value or figure (expected {"figure": NAME} or {"value": NUMBER}))"),
        std::string::npos)
        << m;
    EXPECT_NE(m.find("x.lesson.json: $.questions[1].choices[1].id: 'a' is used twice"), std::string::npos) << m;
    EXPECT_NE(m.find("x.lesson.json: $.questions[2].also_accept[0]: 'gossip' (expected a collective: all_reduce, "),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("x.lesson.json: $.steps: missing or empty (expected an array of steps)"), std::string::npos) << m;
    expectBornInBothLanguages(lesson.error(), {"x.lesson.json", "value", "figure", "NAME", "NUMBER", "gossip",
                                               "all_reduce", "reduce", "broadcast", "all_gather", "all_gather_v",
                                               "reduce_scatter", "reduce_scatter_all_gather", "send_recv"});
}

// ---- lessons/lesson_check.cpp, base/file_io.cpp's reasons -------------------------------------

TEST(ErrorsBornIo, ALessonsScenarioThatDoesNotLoadAndAFullDiskSayWhyInBothLanguages)
{
    Lesson lesson;
    lesson.id = "x";
    lesson.scenario = "/nonexistent/born-io.shardlab.json";
    auto resolved = resolveLesson(lesson);
    ASSERT_FALSE(resolved);
    EXPECT_EQ(resolved.error().message.rfind("lesson x: /nonexistent/born-io.shardlab.json: ", 0), 0u)
        << resolved.error().message;
    expectBornInBothLanguages(resolved.error(), {"/nonexistent/born-io.shardlab.json"});

    if (!std::filesystem::exists("/dev/full"))
        GTEST_SKIP() << "no /dev/full here";
    const Status full = writeFileAtomically("/dev/full", std::string(1 << 16, 'x'));
    ASSERT_FALSE(full);
    EXPECT_NE(full.error().message.find("(No space left on device: the disk is full)"), std::string::npos)
        << full.error().message;
    expectBornInBothLanguages(full.error(), {"/dev/full"});
}

// ---- model/presets.cpp, sim/event_estimate.cpp ------------------------------------------------

TEST(ErrorsBornIo, AnUnknownPresetAndARunTooLargeToHoldAreBornMessages)
{
    auto preset = parseScenario(R"({"shardlab": 1, "name": "x", "topology": {"preset": "dgx-9000"}})", "s.json");
    ASSERT_FALSE(preset);
    EXPECT_EQ(
        preset.error().message.rfind("s.json: $.topology.preset: unknown preset 'dgx-9000' (expected one of: ", 0), 0u)
        << preset.error().message;
    ASSERT_FALSE(preset.error().what.empty());

    auto s = loadScenario(std::string(SHARDLAB_SOURCE_DIR) + "/tests/fuzz/corpus/huge-buckets-100k-x-100k.json");
    ASSERT_TRUE(s) << s.error().message;
    auto run = simulate(*s);
    ASSERT_FALSE(run);
    EXPECT_EQ(run.error().message.rfind("this run would record ", 0), 0u) << run.error().message;
    std::vector<std::string> kept;
    for (const Op& op : s->program)
        kept.push_back(op.name);
    expectBornInBothLanguages(run.error(), kept);
}

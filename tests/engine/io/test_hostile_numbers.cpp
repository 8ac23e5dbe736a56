// Issue 25's wrong answers from hostile numbers and files, in the engine: topologies whose ranks
// cannot reach each other, rates outside their physical range, keys given twice, delays on
// iterations that do not exist, lesson examples past their bound, and what messages show of
// invisible characters and huge numbers. Each message in English and in Chinese.
#include "shardlab/base/json_reader.h"
#include "shardlab/base/units.h"
#include "shardlab/base/visible_text.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_stream.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/lessons/lesson_check.h"
#include "shardlab/lessons/lessons.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/scenario_edit.h"
#include "shardlab/sim/cost_model.h"
#include "shardlab/sim/profiles.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/text/foreign_text.h"
#include "shardlab/text/message.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>
#include <sstream>

using namespace shardlab;

namespace {

// An explicit topology of GPUs ("id:node"), switches ("id:kind:node") and links ("a-b:kind:GB/s").
std::string scenarioText(const std::vector<std::string>& gpus, const std::vector<std::string>& switches,
                         const std::vector<std::string>& links, const std::string& extra = "")
{
    std::string g, s, l;
    for (const std::string& x : gpus) {
        const size_t c = x.find(':');
        g += std::string(g.empty() ? "" : ",") + R"({"id": ")" + x.substr(0, c)
             + R"(", "memory": "16 GB", "tflops": 10, "node": )" + x.substr(c + 1) + "}";
    }
    for (const std::string& x : switches) {
        const size_t c = x.find(':'), d = x.rfind(':');
        s += std::string(s.empty() ? "" : ",") + R"({"id": ")" + x.substr(0, c) + R"(", "kind": ")"
             + x.substr(c + 1, d - c - 1) + R"(", "node": )" + x.substr(d + 1) + "}";
    }
    for (const std::string& x : links) {
        const size_t dash = x.find('-'), c = x.find(':'), d = x.rfind(':');
        l += std::string(l.empty() ? "" : ",") + R"({"from": ")" + x.substr(0, dash) + R"(", "to": ")"
             + x.substr(dash + 1, c - dash - 1) + R"(", "kind": ")" + x.substr(c + 1, d - c - 1) + R"(", "bandwidth": )"
             + x.substr(d + 1) + R"(, "latency_us": 0.5})";
    }
    return R"({"shardlab": 1, "topology": {"gpus": [)" + g + R"(], "switches": [)" + s + R"(], "links": [)" + l + "]}, "
           + R"("program": [{"op": "all_reduce", "name": "ar", "bytes": "1 GB"}])" + extra + "}";
}

// The last error refused() saw, for worded() below.
Error g_lastRefusal;

std::string refused(const std::string& text)
{
    auto r = parseScenario(text, "s.json");
    EXPECT_FALSE(r.ok()) << text;
    if (r.ok())
        return {};
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    g_lastRefusal = r.error();
    return r.error().message;
}

// Chinese that is not the English and has no placeholder or id left; English its Message's.
void worded(const Error& error)
{
    SCOPED_TRACE(error.message);
    static const std::regex leftover(R"(\[error\.[a-z_.]+\]|\{[a-z_]+\})");
    EXPECT_FALSE(error.what.empty());
    EXPECT_EQ(english(error.what), error.message);
    const std::string zh = shardlab::worded(error, Language::Chinese);
    EXPECT_NE(zh, error.message);
    EXPECT_FALSE(std::regex_search(zh, leftover)) << zh;
}

// The same for the error refused() returned last, given by its English.
void worded(const std::string& english)
{
    ASSERT_EQ(english, g_lastRefusal.message) << "worded(text) is for what refused() returned last";
    worded(g_lastRefusal);
}

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

// ---- 1. ranks that cannot reach each other ----

TEST(HostileTopology, AGpuJoinedOnlyToAnotherNodesSwitchIsRefusedNamingBothAndTheirNodes)
{
    const std::string m = refused(scenarioText({"gpu0:1", "gpu1:1"}, {"pcie0:pcie-switch:0"},
                                               {"gpu0-pcie0:pcie:15.75", "gpu1-pcie0:pcie:15.75"}));
    EXPECT_NE(m.find("s.json: $.topology.links[0]: joins GPU 'gpu0' of node 1 to switch 'pcie0' of node 0"),
              std::string::npos)
        << m;
    worded(m);
}

TEST(HostileTopology, ASwitchOnANodeWithoutGpusIsRefusedNamingTheSwitchAndTheNode)
{
    const std::string m = refused(
        scenarioText({"gpu0:0", "gpu1:1"}, {"nic0:nic:0", "nic1:nic:1", "net0:net-switch:5"},
                     {"gpu0-nic0:pcie:15.75", "gpu1-nic1:pcie:15.75", "nic0-net0:network:25", "nic1-net0:network:25"}));
    EXPECT_NE(
        m.find("s.json: $.topology.switches[2].node: switch 'net0' is on node 5, which has no GPU (expected a node of "
               "the GPUs, 0, 1, or -1"),
        std::string::npos)
        << m;
    worded(m);
    // on the shared fabric (node -1) the same machine runs, and takes time
    auto s = parseScenario(
        scenarioText({"gpu0:0", "gpu1:1"}, {"nic0:nic:0", "nic1:nic:1", "net0:net-switch:-1"},
                     {"gpu0-nic0:pcie:15.75", "gpu1-nic1:pcie:15.75", "nic0-net0:network:25", "nic1-net0:network:25"}),
        "s.json");
    ASSERT_TRUE(s.ok()) << s.error().message;
    CostModel model(s->topology);
    auto run = simulate(*s, model);
    ASSERT_TRUE(run.ok()) << run.error().message;
    ASSERT_EQ(run->collectives.size(), 1u);
    EXPECT_GT(run->collectives[0].endUs - run->collectives[0].startUs, 1e4); // 1 GB over 15.75 GB/s: tens of ms
}

TEST(HostileTopology, EveryPresetAndItsFirstGpusStillValidate)
{
    for (const PresetInfo& info : presetList()) {
        const std::string& id = info.id;
        auto t = preset(id);
        ASSERT_TRUE(t);
        for (int n = 1; n <= t->rankCount(); ++n)
            EXPECT_TRUE(validateTopology(t->firstGpus(n)).ok())
                << id << " first " << n << ": " << validateTopology(t->firstGpus(n)).error().message;
    }
}

TEST(HostileTopology, RemovingTheLastGpuOfANodeRemovesItsHardwareSoTheMachineStaysValid)
{
    Scenario s;
    s.topology = preset("2x8-h100-ib")->firstGpus(9); // node 1 has one GPU
    ASSERT_TRUE(validateTopology(s.topology).ok());
    removeRank(s, 8);
    EXPECT_TRUE(validateTopology(s.topology).ok()) << validateTopology(s.topology).error().message;
    for (const SwitchNode& sw : s.topology.switches)
        EXPECT_NE(sw.node, 1) << sw.id;
}

TEST(HostileTopology, ACollectiveWhoseRouteWouldCrossAThirdNodeIsAnErrorNeverZeroTime)
{
    // nodes 0 and 1 joined only through node 2's switch: linked, but no route may use it
    const std::string text =
        scenarioText({"gpu0:0", "gpu1:1", "gpu2:2"}, {"sw0:pcie-switch:0", "sw1:pcie-switch:1", "sw2:pcie-switch:2"},
                     {"gpu0-sw0:pcie:15.75", "gpu1-sw1:pcie:15.75", "gpu2-sw2:pcie:15.75", "sw0-sw2:pcie:15.75",
                      "sw1-sw2:pcie:15.75"});
    std::string twoRanks = text;
    twoRanks.replace(twoRanks.find(R"("bytes": "1 GB")"), 15, R"("bytes": "1 GB", "group": [0, 1])");
    auto s = parseScenario(twoRanks, "s.json");
    ASSERT_TRUE(s.ok()) << s.error().message;
    CostModel model(s->topology);
    auto run = simulate(*s, model);
    ASSERT_FALSE(run.ok()) << "a step time of " << run->iterations.back().endUs << " us";
    EXPECT_EQ(run.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(
        run.error().message,
        "$.program[0] (all_reduce 'ar'): ranks 0, 1 have no route between their GPUs (a route never passes through a "
        "third GPU or the hardware of a third node), so the step has no time; join their GPUs through their own nodes' "
        "switches or the shared network (node -1)");
    worded(run.error());
}

// ---- 2. rates outside their physical range ----

TEST(HostileRates, LinkBandwidthsOfATinyOrDenormalNumberAreRefusedWithTheRange)
{
    for (const char* bw : {"1e-305", "4.9e-324", "1e-299", "\"1e-305 GB/s\"", "0.0009", "100001"}) {
        const std::string m = refused(scenarioText({"gpu0:0", "gpu1:0"}, {"pcie0:pcie-switch:0"},
                                                   {std::string("gpu0-pcie0:pcie:") + bw, "gpu1-pcie0:pcie:15.75"}));
        EXPECT_NE(
            m.find(
                "$.topology.links[0].bandwidth: out of range (expected a bandwidth per direction: GB/s as a number, or "
                "a string such as \"25 GB/s\" or \"400 Gb/s\", from 1 MB/s to 100 TB/s)"),
            std::string::npos)
            << bw << ": " << m;
        worded(m);
    }
    // the bounds themselves are accepted
    for (const char* bw : {"0.001", "100000"})
        EXPECT_TRUE(parseScenario(scenarioText({"gpu0:0", "gpu1:0"}, {"pcie0:pcie-switch:0"},
                                               {std::string("gpu0-pcie0:pcie:") + bw, "gpu1-pcie0:pcie:15.75"}),
                                  "s.json")
                        .ok())
            << bw;
}

TEST(HostileRates, ValidationRefusesEveryRateOutsideItsRangeNamingTheRange)
{
    Topology t = *preset("teaching-4x16gb-pcie");
    Topology bad = t;
    bad.links[0].bandwidthGBps = 1e-305;
    EXPECT_EQ(validateTopology(bad).error().message,
              "$.topology.links[0].bandwidth: expected a bandwidth from 1 MB/s to 100 TB/s");
    worded(validateTopology(bad).error());
    bad = t;
    bad.gpus[1].tflops = 1e-300;
    EXPECT_EQ(validateTopology(bad).error().message,
              "$.topology.gpus[1].tflops: 1e-300 (expected a compute rate in TFLOP/s from 0.001 to 100000)");
    worded(validateTopology(bad).error());
    bad = t;
    bad.gpus[0].memBandwidthGBps = 5e-324;
    EXPECT_EQ(validateTopology(bad).error().message,
              "$.topology.gpus[0].mem_bandwidth: expected a bandwidth from 1 MB/s to 100 TB/s");
    bad = t;
    bad.gpus[2].memory = 512;
    EXPECT_EQ(validateTopology(bad).error().message,
              "$.topology.gpus[2].memory: 512 bytes (expected the GPU's memory, from 1 MB to 1 PB)");
    worded(validateTopology(bad).error());
    bad = t;
    bad.links[1].latencyUs = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(validateTopology(bad).ok());
}

TEST(HostileRates, ComputeRatesAndMemoriesOutsideTheirRangeAreRefusedInFiles)
{
    std::string text =
        scenarioText({"gpu0:0", "gpu1:0"}, {"pcie0:pcie-switch:0"}, {"gpu0-pcie0:pcie:15.75", "gpu1-pcie0:pcie:15.75"});
    std::string tiny = text;
    tiny.replace(tiny.find("\"tflops\": 10"), 12, "\"tflops\": 1e-9");
    EXPECT_NE(
        refused(tiny).find("$.topology.gpus[0].tflops: 1e-09 is out of range (expected a number from 0.001 to 100000)"),
        std::string::npos)
        << refused(tiny);
    std::string small = text;
    small.replace(small.find("\"16 GB\""), 7, "\"1 kB\"");
    EXPECT_NE(
        refused(small).find("$.topology.gpus[0].memory: 1000 bytes (expected the GPU's memory, from 1 MB to 1 PB)"),
        std::string::npos)
        << refused(small);
}

TEST(HostileRates, NumbersOfAnyFiniteSizePrintInAFewCharacters)
{
    for (double v : {1e300, -1e300, 1.7976931348623157e308, 1e15, 123456789012345678.0}) {
        EXPECT_LE(number("%.3f", v).size(), 12u) << number("%.3f", v);
        EXPECT_LE(number("%.0f%%", v).size(), 12u) << number("%.0f%%", v);
        EXPECT_LE(formatMicros(v).size(), 14u) << formatMicros(v);
        EXPECT_LE(formatBandwidth(v).size(), 16u) << formatBandwidth(v);
        EXPECT_LE(formatFlops(v).size(), 20u) << formatFlops(v);
    }
    EXPECT_EQ(number("%.3f", 1e300), "1e+300");
    EXPECT_EQ(number("%.2fx", 1e300), "1e+300x");
    EXPECT_EQ(number("%.0f%%", 1e300), "1e+300%");
    EXPECT_EQ(formatMicros(1e300), "1e+294 s");
    // ordinary values as before
    EXPECT_EQ(number("%.3f", 1.5), "1.500");
    EXPECT_EQ(formatMicros(2.4e6), "2.40 s");
    EXPECT_EQ(formatBandwidth(15.75), "15.8 GB/s");
}

// ---- 3. keys given twice, delays on iterations that do not exist ----

TEST(HostileJson, AKeyGivenTwiceIsRefusedNamingItsPathInEveryKindOfFile)
{
    std::string text = scenarioText({"gpu0:0", "gpu1:0", "gpu2:0"}, {"pcie0:pcie-switch:0"},
                                    {"gpu0-pcie0:pcie:15.75", "gpu1-pcie0:pcie:15.75", "gpu2-pcie0:pcie:15.75"});
    const size_t third = text.find(R"({"id": "gpu2", "memory": "16 GB")");
    ASSERT_NE(third, std::string::npos);
    text.insert(third + std::string(R"({"id": "gpu2", "memory": "16 GB")").size(), R"(, "memory": "8 GB")");
    const std::string m = refused(text);
    EXPECT_EQ(m, "s.json: $.topology.gpus[2].memory: given twice");
    worded(m);
    EXPECT_NE(refused(R"({"shardlab": 1, "shardlab": 1, "topology": {"preset": "h200-nv18-4"}})")
                  .find("s.json: $.shardlab: given twice"),
              std::string::npos);
    // a document of any nesting, and keys of another object may repeat
    EXPECT_THROW(detail::parseJsonStrict(R"([1, {"a": [[], {"b": 1, "b": 2}]}])"), detail::JsonPathError);
    try {
        detail::parseJsonStrict(R"([1, {"a": [[], {"b": 1, "c": {"b": 0}, "b": 2}]}])");
    } catch (const detail::JsonPathError& e) {
        EXPECT_STREQ(e.what(), "$[1].a[1].b: given twice");
    }
    EXPECT_NO_THROW(detail::parseJsonStrict(R"({"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]})"));
    std::string many = "{";
    for (int i = 0; i < 100; ++i)
        many += "\"k" + std::to_string(i) + "\": 0,";
    EXPECT_NO_THROW(detail::parseJsonStrict(many + "\"k100\": 1}"));
    try {
        detail::parseJsonStrict(many + "\"k57\": 1}");
        ADD_FAILURE() << "accepted";
    } catch (const detail::JsonPathError& e) {
        EXPECT_STREQ(e.what(), "$.k57: given twice");
    }

    // a result file, a run, a cost profile, a lesson, a stream line
    auto sim = parseScenario(readText(std::string(SHARDLAB_SCENARIO_DIR) + "/default.shardlab.json"), "d.json");
    ASSERT_TRUE(sim.ok());
    CostModel model(sim->topology);
    auto run = simulate(*sim, model);
    ASSERT_TRUE(run.ok());
    std::string runText = serializeRunResult(*run);
    runText.insert(runText.find('{') + 1, "\"ranks\": 1,");
    auto parsedRun = parseRunResult(runText, "r.json");
    ASSERT_FALSE(parsedRun.ok());
    EXPECT_EQ(parsedRun.error().message, "r.json: $.ranks: given twice");
    auto profile =
        profileFromJson(R"({"shardlab_profile": 1, "name": "lab", "launch_us": 5, "launch_us": 6})", "p.json");
    ASSERT_FALSE(profile.ok());
    EXPECT_EQ(profile.error().message, "p.json: $.launch_us: given twice");
    auto result = parseResult(R"({"shardlab_result": 1, "shardlab_result": 2})", "x.shardlab-result.json");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message, "x.shardlab-result.json: $.shardlab_result: given twice");
    std::string lesson = readText(std::string(SHARDLAB_SCENARIO_DIR) + "/../lessons/05-speedup-1-6x.lesson.json");
    ASSERT_FALSE(lesson.empty());
    lesson.insert(lesson.find('{') + 1, "\"id\": \"x\",");
    auto parsedLesson = parseLesson(lesson, "l.json");
    ASSERT_FALSE(parsedLesson.ok());
    EXPECT_NE(parsedLesson.error().message.find("l.json: $.id: given twice"), std::string::npos)
        << parsedLesson.error().message;
    auto stream = readRunStream("{\"type\": \"header\", \"type\": \"header\"}\n", "s.jsonl");
    ASSERT_FALSE(stream.ok());
    EXPECT_EQ(stream.error().message, "s.jsonl: line 1: $.type: given twice");
}

TEST(HostileJson, ADelayOnAnIterationThatDoesNotExistIsRefusedWithTheIterationCount)
{
    const std::string base = R"({"shardlab": 1, "topology": {"preset": "h200-nv18-4"},
      "program": [{"op": "all_reduce", "name": "ar", "bytes": "1 MB"}], "iterations": 3,
      "perturbations": {"delays": [{"rank": 1, "op": 0, "iteration": ITER, "ms": 5}]}})";
    for (const char* it : {"3", "7", "999999"}) {
        std::string text = base;
        text.replace(text.find("ITER"), 4, it);
        const std::string m = refused(text);
        EXPECT_EQ(
            m, std::string("s.json: $.perturbations.delays[0].iteration: ") + it
                   + " is not an iteration of the scenario, which runs 3 (expected 0..2, or -1 for every iteration)");
        worded(m);
    }
    for (const char* it : {"-1", "0", "2"}) {
        std::string text = base;
        text.replace(text.find("ITER"), 4, it);
        EXPECT_TRUE(parseScenario(text, "s.json").ok()) << it;
    }
    // and when the iterations are changed afterwards (sim --iterations), the run refuses it too
    std::string text = base;
    text.replace(text.find("ITER"), 4, "2");
    Scenario s = *parseScenario(text, "s.json");
    s.iterations = 2;
    CostModel model(s.topology);
    auto run = simulate(s, model);
    ASSERT_FALSE(run.ok());
    EXPECT_NE(run.error().message.find(
                  "$.perturbations.delays[0].iteration: 2 is not an iteration of the scenario, which runs 2"),
              std::string::npos);
}

// ---- 5. lesson examples are bounded ----

TEST(HostileLessons, AnExampleOfMoreRanksOrValuesThanTheBoundIsRefusedNamingTheBound)
{
    const std::string path = std::string(SHARDLAB_SCENARIO_DIR) + "/../lessons/04-choosing-collectives.lesson.json";
    nlohmann::json doc = nlohmann::json::parse(readText(path));
    nlohmann::json* example = nullptr;
    std::string where;
    for (size_t i = 0; i < doc["questions"].size() && !example; ++i)
        if (doc["questions"][i].contains("example")) {
            example = &doc["questions"][i]["example"];
            where = "$.questions[" + std::to_string(i) + "].example";
        }
    ASSERT_TRUE(example);
    ASSERT_TRUE(parseLesson(doc.dump(), "l.json", path).ok());
    nlohmann::json original = *example;
    // 6,000 one-value ranks: refused at once, without computing the all-gather
    *example = nlohmann::json::array();
    for (int r = 0; r < 6000; ++r)
        example->push_back({r});
    auto big = parseLesson(doc.dump(), "l.json", path);
    ASSERT_FALSE(big.ok());
    EXPECT_NE(big.error().message.find("l.json: " + where
                                       + ": 6000 ranks (expected at most 8 ranks of at most 8 values each"),
              std::string::npos)
        << big.error().message;
    worded(big.error());
    *example = original;
    (*example)[0] = nlohmann::json::array();
    for (int v = 0; v < 9; ++v)
        (*example)[0].push_back(v);
    auto wide = parseLesson(doc.dump(), "l.json", path);
    ASSERT_FALSE(wide.ok());
    EXPECT_NE(wide.error().message.find("l.json: " + where + "[0]: 9 values (expected at most 8 values per rank)"),
              std::string::npos)
        << wide.error().message;
    worded(wide.error());
    // the bound itself loads
    *example = nlohmann::json::array();
    for (int r = 0; r < 8; ++r)
        example->push_back({1, 2, 3, 4, 5, 6, 7, 8});
    EXPECT_TRUE(parseLesson(doc.dump(), "l.json", path).ok());
}

// ---- 6. messages ----

TEST(HostileMessages, ABadUnitIsReportedOnceAndInvisibleCharactersAreShownEscaped)
{
    const std::string base =
        scenarioText({"gpu0:0", "gpu1:0"}, {"pcie0:pcie-switch:0"}, {"gpu0-pcie0:pcie:15.75", "gpu1-pcie0:pcie:15.75"});
    for (const char* memory : {"0x10 GB", "1,5 GB", "\xe2\x88\x9e", "16\xc2\xa0GB"}) {
        std::string text = base;
        text.replace(text.find("\"16 GB\""), 7, std::string("\"") + memory + "\"");
        const std::string m = refused(text);
        EXPECT_EQ(m.find('\n'), std::string::npos) << m; // one error, no "memory: zero" after it
        EXPECT_EQ(m.find("zero"), std::string::npos) << m;
        EXPECT_NE(m.find("$.topology.gpus[0].memory"), std::string::npos) << m;
    }
    std::string text = base;
    text.replace(text.find("\"16 GB\""), 7, "\"16\xc2\xa0GB\"");
    EXPECT_NE(refused(text).find("'16\\u00a0GB' has an unknown unit '\\u00a0GB'"), std::string::npos) << refused(text);
    EXPECT_EQ(visibleText("a\xc2\xa0"
                          "b\xe2\x80\xae"
                          "c\x1b\xc2\x85\xff"),
              "a\\u00a0b\\u202ec\\x1b\\u0085\\xff");
    EXPECT_EQ(visibleText("GPU \xe4\xb8\x80 H200"), "GPU \xe4\xb8\x80 H200"); // other UTF-8 as it is
}

TEST(HostileMessages, AnIntegerBeyondItsRangeIsPrintedAsTheFileGivesIt)
{
    try {
        detail::integerAt(nlohmann::json::parse("18446744073709551615"), "$.records[1].bytes", 0,
                          static_cast<long long>(kMaxBytes));
        ADD_FAILURE() << "accepted";
    } catch (const detail::JsonPathError& e) {
        EXPECT_STREQ(e.what(), "$.records[1].bytes: 18446744073709551615 (expected 0 to 1000000000000000)");
    }
}

TEST(HostileMessages, AnAnswerThatIsNotFiniteSaysSo)
{
    auto lessons = loadLessons(std::string(SHARDLAB_SCENARIO_DIR) + "/../lessons");
    ASSERT_TRUE(lessons.ok());
    const Lesson* speedup = nullptr;
    for (const Lesson& l : *lessons)
        if (l.id == "speedup-1-6x")
            speedup = &l;
    ASSERT_TRUE(speedup);
    auto resolved = resolveLesson(*speedup);
    ASSERT_TRUE(resolved.ok());
    for (const char* answer : {"-inf", "inf", "nan", "1e999"}) {
        auto r = checkAnswer(*resolved, 0, answer);
        ASSERT_FALSE(r.ok()) << answer;
        EXPECT_NE(r.error().message.find(std::string("'") + answer + "' is not a finite number (expected a number"),
                  std::string::npos)
            << r.error().message;
        worded(r.error());
    }
}

// The scenario file format: lossless round trips, and bad files that name what is wrong.
#include "../test_helpers.h"

#include "shardlab/base/json_reader.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/io/trace_import.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>

using namespace shardlab;
using namespace shardlab::test;

namespace {

std::string badMessage(const std::string& text)
{
    auto r = parseScenario(text, "bad.shardlab.json");
    EXPECT_FALSE(r.ok()) << "accepted: " << text;
    if (r.ok())
        return "";
    EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(r.error().message.rfind("bad.shardlab.json: ", 0), 0u) << r.error().message;
    return r.error().message;
}

const char* kMinimal = R"({"shardlab": 1, "name": "m", "topology": {"preset": "teaching-4x16gb-pcie"},
  "workload": [{"name": "w", "kind": "parameters", "size": "1 GB", "replicate_on": "all"}],
  "program": [{"op": "all_reduce", "item": "w"}]})";

} // namespace

TEST(ScenarioIo, EveryShippedScenarioRoundTripsLosslessly)
{
    int count = 0;
    for (const auto& e : std::filesystem::directory_iterator(SHARDLAB_SCENARIO_DIR)) {
        if (e.path().string().find(".shardlab.json") == std::string::npos)
            continue;
        ++count;
        auto s = loadScenario(e.path());
        ASSERT_TRUE(s.ok()) << s.error().message;
        const std::string text = serializeScenario(*s);
        auto again = parseScenario(text, "round-trip");
        ASSERT_TRUE(again.ok()) << again.error().message;
        EXPECT_EQ(*again, *s) << e.path();
        EXPECT_EQ(serializeScenario(*again), text) << e.path();
    }
    EXPECT_GE(count, 9);
}

TEST(ScenarioIo, PerturbationsAndOptionsRoundTrip)
{
    auto s = parseScenario(kMinimal, "m");
    ASSERT_TRUE(s.ok()) << s.error().message;
    s->perturbations.slowdown = {1, 1.25, 1, 0.5};
    s->perturbations.jitterPct = 3.5;
    s->perturbations.seed = 1234;
    s->perturbations.delays = {{2, 0, -1, 1.5}};
    s->perturbations.mismatches = {{Mismatch::Type::WrongCount, 1, 0, 0, OpKind::AllGather, 4096}};
    s->iterations = 7;
    s->memoryMode = MemoryMode::Unified;
    s->program[0].buckets = 16;
    s->program[0].overlap = true;
    s->program[0].algorithm = Algorithm::Tree;
    s->program[0].group = {0, 2};
    auto again = parseScenario(serializeScenario(*s), "again");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(*again, *s);
}

// A plan's device mesh (issue 27): written only where there is one, read back as written; a mesh
// that is not a mesh is refused with its path.
TEST(ScenarioIo, AMeshRoundTripsAndABadOneIsRefused)
{
    auto s = parseScenario(kMinimal, "m");
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(serializeScenario(*s).find("\"mesh\""), std::string::npos);
    s->mesh = ScenarioMesh{2, 1, 2, 1, "dp,tp,pp,cp"};
    auto again = parseScenario(serializeScenario(*s), "again");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(*again, *s);
    // moved places (a TP group or stage dragged onto other GPUs) are written and read back too
    s->mesh->gpus = {0, 2, 1, 3};
    const std::string moved = serializeScenario(*s);
    EXPECT_NE(moved.find("\"gpus\""), std::string::npos);
    auto movedBack = parseScenario(moved, "moved");
    ASSERT_TRUE(movedBack.ok()) << movedBack.error().message;
    EXPECT_EQ(movedBack->mesh->gpus, (std::vector<int>{0, 2, 1, 3}));
    s->mesh->gpus = {0, 1, 1, 3};
    auto twice = parseScenario(serializeScenario(*s), "twice.shardlab.json");
    ASSERT_FALSE(twice.ok());
    EXPECT_NE(twice.error().message.find("twice.shardlab.json: $.mesh.gpus"), std::string::npos)
        << twice.error().message;
    s->mesh->gpus.clear();

    s->mesh->order = "tp,tp,pp,dp";
    auto badOrder = parseScenario(serializeScenario(*s), "bad.shardlab.json");
    ASSERT_FALSE(badOrder.ok());
    EXPECT_NE(badOrder.error().message.find("bad.shardlab.json: $.mesh.order: 'tp,tp,pp,dp'"), std::string::npos)
        << badOrder.error().message;
    s->mesh->order = "tp,cp,pp,dp";
    s->mesh->pp = 0;
    auto zero = parseScenario(serializeScenario(*s), "zero.shardlab.json");
    ASSERT_FALSE(zero.ok());
    EXPECT_NE(zero.error().message.find("$.mesh.pp"), std::string::npos) << zero.error().message;
}

TEST(ScenarioIo, SaveIsAtomicAndLoadable)
{
    const auto dir = std::filesystem::temp_directory_path() / "shardlab-io-test";
    std::filesystem::create_directories(dir);
    const auto path = dir / "saved.shardlab.json";
    auto s = parseScenario(kMinimal, "m");
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(saveScenario(*s, path).ok());
    ASSERT_TRUE(saveScenario(*s, path).ok()); // overwrite
    for (const auto& e : std::filesystem::directory_iterator(dir))
        EXPECT_EQ(e.path().filename(), "saved.shardlab.json") << "temporary file left behind";
    auto loaded = loadScenario(path);
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(*loaded, *s);
    EXPECT_FALSE(saveScenario(*s, dir / "no-such-folder" / "x.shardlab.json").ok());
    std::filesystem::remove_all(dir);
}

TEST(ScenarioIo, SizesAcceptUnits)
{
    auto s = parseScenario(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "workload": [{"name": "a", "kind": "data", "size": "16GiB", "split_across": "all"},
                   {"name": "b", "kind": "data", "size": 512000000, "replicate_on": [0]}]})",
                           "u");
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->workload.items[0].size, 16ULL << 30);
    EXPECT_EQ(s->workload.items[0].shards.size(), 4u);
    EXPECT_EQ(s->workload.items[1].size, 512'000'000ULL);
}

TEST(ScenarioIo, TruncatedJsonNamesLineAndColumn)
{
    const std::string msg = badMessage("{\n  \"shardlab\": 1,\n  \"topology\": {");
    EXPECT_NE(msg.find("not valid JSON at line 3"), std::string::npos) << msg;
}

TEST(ScenarioIo, WrongTypesNameThePath)
{
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topology": {"preset": 4}})").find("$.topology.preset"), std::string::npos);
    const std::string m = badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "workload": [{"name": "w", "kind": "parameters", "size": true}]})");
    EXPECT_NE(m.find("$.workload[0].size: found a boolean (expected a size"), std::string::npos) << m;
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"}, "iterations": "3"})")
                  .find("$.iterations"),
              std::string::npos);
    EXPECT_NE(badMessage("[1, 2]").find("$: found an array (expected an object)"), std::string::npos);
}

TEST(ScenarioIo, NegativeOrAbsurdSizes)
{
    const char* base =
        R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"}, "workload": [{"name": "w", "kind": "data", "size": %s}]})";
    char buf[512];
    std::snprintf(buf, sizeof buf, base, "-5");
    EXPECT_NE(badMessage(buf).find("$.workload[0].size: -5 is negative"), std::string::npos);
    std::snprintf(buf, sizeof buf, base, "\"-2 GB\"");
    EXPECT_NE(badMessage(buf).find("negative"), std::string::npos);
    std::snprintf(buf, sizeof buf, base, "\"5 EB\"");
    EXPECT_NE(badMessage(buf).find("$.workload[0].size"), std::string::npos);
    std::snprintf(buf, sizeof buf, base, "1e300");
    EXPECT_NE(badMessage(buf).find("larger than 1 PB"), std::string::npos);
    std::snprintf(buf, sizeof buf, base, "0");
    EXPECT_NE(badMessage(buf).find("$.workload[0].size: zero"), std::string::npos);
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topology": {"name": "x", "gpus": [{"memory": "-16 GB", "tflops": 1}]}})")
                  .find("$.topology.gpus[0].memory"),
              std::string::npos);
}

TEST(ScenarioIo, UnknownPreset)
{
    const std::string m = badMessage(R"({"shardlab": 1, "topology": {"preset": "dgx-9000"}})");
    EXPECT_NE(m.find("$.topology.preset: unknown preset 'dgx-9000'"), std::string::npos) << m;
    EXPECT_NE(m.find("teaching-4x16gb-pcie"), std::string::npos); // lists the known ones
}

TEST(ScenarioIo, RankThatDoesNotExist)
{
    std::string m = badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "workload": [{"name": "w", "kind": "data", "size": "1 GB", "shards": [{"size": "1 GB", "owners": [0, 7]}]}]})");
    EXPECT_NE(m.find("$.workload[0].shards[0].owners[1]: rank 7 does not exist (expected 0..3)"), std::string::npos)
        << m;
    m = badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "program": [{"op": "all_reduce", "bytes": "1 MB", "group": [0, 4]}]})");
    EXPECT_NE(m.find("$.program[0].group[1]: rank 4 does not exist"), std::string::npos) << m;
    m = badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "program": [{"op": "broadcast", "bytes": "1 MB", "root": 9}]})");
    EXPECT_NE(m.find("$.program[0].root"), std::string::npos) << m;
}

TEST(ScenarioIo, CollectiveOverAnEmptyGroup)
{
    const std::string m = badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "program": [{"op": "all_reduce", "bytes": "1 MB", "group": []}]})");
    EXPECT_NE(m.find("$.program[0].group: empty (expected at least one rank)"), std::string::npos) << m;
}

TEST(ScenarioIo, OtherMistakesAreNamed)
{
    EXPECT_NE(badMessage(R"({"shardlab": 2, "topology": {"preset": "teaching-4x16gb-pcie"}})").find("format version 2"),
              std::string::npos);
    EXPECT_NE(badMessage(R"({"topology": {"preset": "teaching-4x16gb-pcie"}})").find("$.shardlab: missing"),
              std::string::npos);
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topolgy": {}})").find("$.topolgy: unknown key"), std::string::npos);
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "program": [{"op": "all_reduce", "item": "nothing"}]})")
                  .find("$.program[0].item: 'nothing' is not a workload item"),
              std::string::npos);
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "program": [{"op": "all_shuffle", "bytes": 8}]})")
                  .find("$.program[0].op: 'all_shuffle'"),
              std::string::npos);
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "workload": [{"name": "w", "kind": "data", "size": "2 GB", "shards": [{"size": "1 GB", "owners": [0]}]}]})")
                  .find("$.workload[0].shards: they add up to"),
              std::string::npos);
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topology": {"name": "t", "gpus": [{"memory": "16 GB", "tflops": 1}],
      "links": [{"from": "gpu0", "to": "ghost", "kind": "pcie", "bandwidth": 16}]}})")
                  .find("$.topology.links[0].to: 'ghost'"),
              std::string::npos);
    EXPECT_NE(badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie", "gpus": 9}})")
                  .find("$.topology.gpus: 9 is out of range"),
              std::string::npos);
}

// A key that means nothing for the step's kind is refused by name: it would otherwise be read,
// dropped by the next save and come back different (the fuzzer's round trip found "overlap" on a
// compute step).
TEST(ScenarioIo, KeysThatDoNotBelongToTheStepKindAreRefused)
{
    const auto program = [](const std::string& op) {
        return R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"}, "program": [)" + op + "]}";
    };
    EXPECT_NE(badMessage(program(R"({"op": "compute", "flops": 1e9, "overlap": true})"))
                  .find("$.program[0].overlap: applies to communication steps only"),
              std::string::npos);
    EXPECT_NE(
        badMessage(program(R"({"op": "compute", "flops": 1e9, "group": [0, 1]})")).find("$.program[0].group: applies"),
        std::string::npos);
    EXPECT_NE(badMessage(program(R"({"op": "send_recv", "bytes": 8, "from": 0, "to": 1, "group": [0, 1]})"))
                  .find("$.program[0].group: a send_recv names its two ranks with 'from' and 'to'"),
              std::string::npos);
    EXPECT_NE(badMessage(program(R"({"op": "all_reduce", "bytes": 8, "to": 2})"))
                  .find("$.program[0].to: only a send_recv has 'from' and 'to'"),
              std::string::npos);
    // The same keys where they belong are read and written back unchanged.
    auto ok = parseScenario(program(R"({"op": "send_recv", "bytes": 8, "from": 2, "to": 3}, {"op": "all_reduce",
        "bytes": 8, "group": [0, 1], "overlap": true, "algorithm": "ring"})"),
                            "ok.shardlab.json");
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    auto again = parseScenario(serializeScenario(*ok), "again");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(*again, *ok);
}

// A compute step's GEMMs (live mode) are read, checked and written back; out of range, on a
// collective or with buckets, they are refused with the path.
TEST(ScenarioIo, AComputeStepsGemmsRoundTripAndBadOnesAreNamed)
{
    const auto program = [](const std::string& op) {
        return R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"}, "program": [)" + op + "]}";
    };
    auto ok = parseScenario(program(R"({"op": "compute", "flops": 1e9, "gemm_share": 0.8,
        "gemms": [{"m": 4096, "n": 6144, "k": 4096, "count": 32}, {"m": 1, "n": 1048576, "k": 7}]})"),
                            "ok.shardlab.json");
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    const Op& op = ok->program[0];
    ASSERT_EQ(op.gemms.size(), 2u);
    EXPECT_EQ(op.gemms[0], (OpGemm{{4096, 6144, 4096}, 32}));
    EXPECT_EQ(op.gemms[1], (OpGemm{{1, 1048576, 7}, 1}));
    EXPECT_DOUBLE_EQ(op.gemmShare, 0.8);
    auto again = parseScenario(serializeScenario(*ok), "again");
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(*again, *ok);

    EXPECT_NE(badMessage(program(R"({"op": "compute", "flops": 1, "gemms": [{"m": 0, "n": 8, "k": 8}]})"))
                  .find("$.program[0].gemms[0].m"),
              std::string::npos);
    EXPECT_NE(badMessage(program(R"({"op": "compute", "flops": 1, "gemms": [{"m": 8, "n": 8, "k": 1048577}]})"))
                  .find("$.program[0].gemms[0].k"),
              std::string::npos);
    EXPECT_NE(badMessage(program(R"({"op": "compute", "flops": 1, "gemms": [{"m": 8, "n": 8, "k": 8, "count": 0}]})"))
                  .find("$.program[0].gemms[0].count"),
              std::string::npos);
    EXPECT_NE(badMessage(program(R"({"op": "compute", "flops": 1, "gemms": [{"m": 8, "n": 8}]})"))
                  .find("$.program[0].gemms[0].k: missing"),
              std::string::npos);
    EXPECT_NE(badMessage(program(R"({"op": "compute", "flops": 1, "gemms": 3})")).find("$.program[0].gemms"),
              std::string::npos);
    EXPECT_NE(
        badMessage(program(R"({"op": "compute", "flops": 1, "gemm_share": 1.5})")).find("$.program[0].gemm_share"),
        std::string::npos);
    EXPECT_NE(badMessage(program(R"({"op": "compute", "flops": 1, "buckets": 4, "gemms": [{"m": 8, "n": 8, "k": 8}]})"))
                  .find("$.program[0].buckets: a compute step with GEMMs has one bucket"),
              std::string::npos);
    EXPECT_NE(badMessage(program(R"({"op": "all_reduce", "bytes": 8, "gemms": [{"m": 8, "n": 8, "k": 8}]})"))
                  .find("$.program[0].gemms: applies to compute steps only"),
              std::string::npos);
}

TEST(ScenarioIo, ReportsSeveralProblemsAtOnce)
{
    const std::string m = badMessage(R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"},
      "workload": [{"name": "a", "kind": "weights", "size": "1 GB"}, {"name": "b", "kind": "data", "size": "x"}]})");
    EXPECT_NE(m.find("$.workload[0].kind"), std::string::npos);
    EXPECT_NE(m.find("$.workload[1].size"), std::string::npos);
}

TEST(ScenarioIo, MissingOrUnreadableFile)
{
    auto r = loadScenario("/nonexistent/x.shardlab.json");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("no such file"), std::string::npos);
    EXPECT_FALSE(loadScenario(std::filesystem::temp_directory_path()).ok());
}

TEST(ScenarioIo, GarbageNeverCrashes)
{
    // A few hostile inputs (the fuzzer covers the rest).
    for (const char* text :
         {"", "{", "null", "\"x\"", "{\"shardlab\": 1e400}", "{\"shardlab\": 1, \"topology\": []}",
          "{\"shardlab\": 1, \"topology\": {\"gpus\": [{}]}}",
          "{\"shardlab\": 1, \"topology\": {\"preset\": \"teaching-4x16gb-pcie\"}, \"program\": [1]}",
          "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"})
        EXPECT_FALSE(parseScenario(text, "g").ok()) << text;
}

// Issue 14 and 13: a file that is not JSON at all, an empty one and one nested without end are
// named for what they are, before any parser runs (memory stays flat).
TEST(ScenarioIo, EmptyNotJsonAndTooDeepFilesSayWhatTheyAre)
{
    auto message = [](const std::string& text) {
        auto r = parseScenario(text, "f.shardlab.json");
        EXPECT_FALSE(r.ok());
        return r ? std::string() : r.error().message;
    };
    EXPECT_EQ(message(""), "f.shardlab.json: $: the file is empty");
    EXPECT_EQ(message("  \n"), "f.shardlab.json: $: the file holds only white space");
    const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
    EXPECT_EQ(message(png),
              "f.shardlab.json: $: not a ShardLab file: it does not start like JSON (its first byte is 0x89)");
    EXPECT_NE(message("hello").find("it starts with 'h'"), std::string::npos);
    const std::string deep = std::string(1'000'000, '[') + std::string(1'000'000, ']');
    EXPECT_NE(message(deep).find("nested more than 64 levels deep"), std::string::npos);
    // brackets inside strings do not count
    EXPECT_EQ(detail::jsonShapeProblem("{\"name\": \"" + std::string(200, '[') + "\"}"), "");
    EXPECT_EQ(detail::jsonShapeProblem("\xEF\xBB\xBF{}"), ""); // a byte-order mark is allowed
    // the same for results, traces and lessons, which share the reader
    auto trace = parseChromeTrace(png, "t.json");
    ASSERT_FALSE(trace);
    EXPECT_NE(trace.error().message.find("does not start like JSON"), std::string::npos);
    auto run = parseRunResult(deep, "r.json");
    ASSERT_FALSE(run);
    EXPECT_NE(run.error().message.find("nested more than"), std::string::npos);
}

TEST(ScenarioIo, MoreGpusThanATopologyMayHaveAreRefusedWithTheCountAndTheLimit)
{
    std::string gpus;
    for (int i = 0; i <= kMaxTopologyGpus; ++i)
        gpus += std::string(i ? "," : "") + R"({"memory": "1 GB", "tflops": 1})";
    const std::string m = badMessage(R"({"shardlab": 1, "topology": {"name": "too big", "gpus": [)" + gpus + "]}}");
    EXPECT_NE(m.find("$.topology.gpus: 65537 GPUs (expected at most 65536, the largest topology ShardLab simulates)"),
              std::string::npos)
        << m;
    // the limit itself is accepted
    Topology t = nvswitchBox(kMaxTopologyGpus);
    EXPECT_TRUE(validateTopology(t).ok());
    t.gpus.push_back(t.gpus.back());
    t.gpus.back().id = "one more";
    EXPECT_FALSE(validateTopology(t).ok());
}

TEST(ScenarioIo, DirectIsRefusedOnMoreRanksThanItsLimit)
{
    // every rank sending to every other is n(n-1) transfers: at most kMaxDirectRanks ranks
    Scenario s;
    s.topology = nvswitchBox(kMaxDirectRanks + 1);
    Op op;
    op.kind = OpKind::AllReduce;
    op.name = "one-shot";
    op.bytes = 1'000'000;
    op.algorithm = Algorithm::Direct;
    s.program = {op};
    const Status st = validateScenario(s);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message,
              "$.program[0].algorithm: direct on 1025 ranks (expected at most 1024: every rank sends to "
              "every other, n(n-1) transfers; use ring, tree or auto for larger groups)");
    s.program[0].group.resize(static_cast<size_t>(kMaxDirectRanks));
    std::iota(s.program[0].group.begin(), s.program[0].group.end(), 0);
    EXPECT_TRUE(validateScenario(s).ok()) << validateScenario(s).error().message;
}

// PyTorch profiler (Kineto) traces of every rank (engine/import/src/kineto_import.cpp), on the real
// traces of tests/import/data/kineto (README.md there: rank 1 sleeps 300 ms before steps 3 and 5;
// recorded steps 2-5). The waits expected are those tests/import/kineto_waits.py computes from the
// traces alone (no ShardLab code): each within 5% or 0.5 ms, whichever is larger.
#include "shardlab/analysis/summary.h"
#include "shardlab/import/import_job.h"
#include "shardlab/import/kineto_trace.h"
#include "shardlab/sim/simulator.h"
#include "shardlab/text/message.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace shardlab {
namespace {

const std::filesystem::path kData = std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/import/data";

struct LongWait {
    int rank;
    double ms; // tests/import/kineto_waits.py
};

// The waits longer than 50 ms, per rank, in order of time (each for rank 1, unless `anyone`).
std::vector<std::vector<double>> longWaits(const RunResult& run, bool anyone = false)
{
    std::vector<std::vector<double>> out(static_cast<size_t>(run.ranks));
    std::vector<const Span*> waits;
    for (const Span& s : run.spans)
        if (s.kind == SpanKind::Wait && s.durationUs() > 50e3)
            waits.push_back(&s);
    std::sort(waits.begin(), waits.end(), [](const Span* a, const Span* b) { return a->beginUs < b->beginUs; });
    for (const Span* s : waits) {
        if (!anyone) {
            EXPECT_EQ(s->waitedFor, 1) << "rank " << s->rank << " waited for rank " << s->waitedFor;
        }
        out[static_cast<size_t>(s->rank)].push_back(s->durationUs() / 1e3);
    }
    return out;
}

void expectWaits(const RunResult& run, const std::vector<std::vector<double>>& expected, bool anyone = false)
{
    const auto got = longWaits(run, anyone);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t r = 0; r < got.size(); ++r) {
        ASSERT_EQ(got[r].size(), expected[r].size()) << "rank " << r;
        for (size_t i = 0; i < got[r].size(); ++i)
            EXPECT_NEAR(got[r][i], expected[r][i], std::max(0.5, 0.05 * expected[r][i]))
                << "rank " << r << ", wait " << i;
    }
}

TEST(KinetoTrace, OneRanksTraceIsReadAsItIs)
{
    auto t = readKinetoTrace(kData / "kineto/ddp2/kineto_rank1.json.gz");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->rank, 1);
    EXPECT_EQ(t->worldSize, 2);
    EXPECT_EQ(t->ncclVersion, "2.28.9");
    EXPECT_EQ(t->baseTimeNs, 1790857026000000000LL);
    ASSERT_EQ(t->groups.size(), 1u);
    EXPECT_EQ(t->groups[0].ranks, (std::vector<int>{0, 1}));
    EXPECT_EQ(t->profilerSteps, 4); // ProfilerStep#2 to #5
    ASSERT_FALSE(t->collectives.empty());
    const KinetoCollective& c = t->collectives.front();
    EXPECT_EQ(c.func, "AllReduce");
    EXPECT_EQ(c.collective, "allreduce");
    EXPECT_EQ(c.inElements, 66049); // the first bucket, 264,196 bytes (README.md)
    EXPECT_EQ(c.dtype, "Float");
    EXPECT_EQ(c.groupRanks, (std::vector<int>{0, 1}));
    EXPECT_GT(t->computeKernels, 0);
    // 3 buckets a step, 4 steps
    EXPECT_EQ(t->collectives.size(), 12u);
}

TEST(KinetoTrace, KernelNamesOfBothNcclGenerations)
{
    EXPECT_EQ(ncclFuncFromKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
              "AllReduce");
    EXPECT_EQ(ncclFuncFromKernel("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"),
              "AllGather");
    EXPECT_EQ(ncclFuncFromKernel("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"), "SendRecv");
    EXPECT_EQ(ncclFuncFromKernel("ncclKernel_ReduceScatter_RING_SIMPLE_Sum_bf16"), "ReduceScatter");
    EXPECT_EQ(ncclFuncFromKernel("void at::native::vectorized_elementwise_kernel<4>"), "");
    EXPECT_EQ(ncclFuncFromCollectiveName("_allgather_base"), "AllGather");
    EXPECT_EQ(ncclFuncFromCollectiveName("reduce_scatter_tensor_coalesced"), "ReduceScatter");
    EXPECT_EQ(ncclDatatypeFromTorch("BFloat16"), "ncclBfloat16");
    EXPECT_EQ(ncclDatatypeFromTorch("ComplexFloat"), "");
}

TEST(KinetoTrace, AnEventEndingBeyondTheLargestDoubleIsNoTime)
{
    // found by fuzz_import's invariants on a hand-made input: ts and dur each finite, their sum
    // not; the trace's end was infinite
    auto t = parseKinetoText(R"({"distributedInfo": {"rank": 0, "world_size": 2}, "traceEvents": [
        {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ts": 10, "dur": 5},
        {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "ts": 1e308, "dur": 1e308}]})",
                             "huge.json");
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->collectives.size(), 1u);
    EXPECT_EQ(t->firstUs, 10);
    EXPECT_EQ(t->lastUs, 15);
}

TEST(KinetoImport, TwoRanksNameTheStragglerAndItsWaits)
{
    auto job = importFiles({kData / "kineto/ddp2"});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->format, ImportFormat::Kineto);
    EXPECT_EQ(job->run.ranks, 2);
    EXPECT_EQ(job->run.mode, RunMode::Live);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    // rank 0 waits for rank 1's sleep in steps 3 and 5; rank 1 waits for nobody that long
    expectWaits(job->run, {{301.111, 301.076}, {}});
    // the clocks: one host, one clock; the ranks leave a collective within microseconds
    EXPECT_NE(english(job->run.clockNote).find("PyTorch profiler traces"), std::string::npos)
        << english(job->run.clockNote);
    EXPECT_FALSE(render(job->run.clockNote, Language::Chinese).empty());
    // What-if: the observed program simulates
    auto sim = simulate(job->scenario);
    ASSERT_TRUE(sim) << sim.error().message;
}

TEST(KinetoImport, TracesInMemoryMakeTheSameJobAsTheirFiles)
{
    // kinetoJob is what importFiles does once the traces are read (the fuzzer calls it in memory)
    std::vector<KinetoTrace> traces;
    for (const char* name : {"kineto_rank1.json.gz", "kineto_rank0.json.gz"}) {
        auto t = readKinetoTrace(kData / "kineto/ddp2" / name);
        ASSERT_TRUE(t) << t.error().message;
        traces.push_back(std::move(*t));
    }
    auto fromMemory = kinetoJob(traces);
    ASSERT_TRUE(fromMemory) << fromMemory.error().message;
    auto fromFiles = importFiles({kData / "kineto/ddp2"});
    ASSERT_TRUE(fromFiles) << fromFiles.error().message;
    EXPECT_EQ(fromMemory->run.ranks, 2);
    EXPECT_EQ(fromMemory->run.spans.size(), fromFiles->run.spans.size());
    EXPECT_EQ(english(fromMemory->run.clockNote), english(fromFiles->run.clockNote));
    expectWaits(fromMemory->run, {{301.111, 301.076}, {}});
    EXPECT_FALSE(kinetoJob({}));
    traces.pop_back();
    auto missing = kinetoJob(traces);
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("rank(s) 0 have no trace"), std::string::npos) << missing.error().message;
}

TEST(KinetoImport, FourRanksNameTheStragglerAndEachWaitingRank)
{
    auto job = importFiles({kData / "kineto/ddp4"});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->run.ranks, 4);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    expectWaits(job->run, {{304.187, 304.079}, {}, {301.852, 308.775}, {299.634, 306.522}});
}

// Other jobs (bench/kineto_wrap.py around examples/profile/train_*.py, README.md of the data):
// rank 1 sleeps 300 ms before every step; FSDP's all-gathers and reduce-scatters, a pipeline's
// sends and receives (a send NCCL buffers does not wait for its receiver), a 2x2 mesh's four
// sub-groups (traces without distributedInfo: each rank read from its collectives). Expected: the
// waits longer than 50 ms tests/import/kineto_waits.py prints, per rank in order of time.
struct OtherJob {
    const char* name;
    int ranks;
    std::vector<std::vector<double>> waits;
    bool anyone; // waits for ranks other than 1 (the mesh: a rank waits for its sub-group's last)
};

class KinetoJob : public ::testing::TestWithParam<OtherJob> {};

TEST_P(KinetoJob, NamesTheStragglerAndEachWait)
{
    const OtherJob& j = GetParam();
    auto job = importFiles({kData / "kineto" / j.name});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->run.ranks, j.ranks);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    expectWaits(job->run, j.waits, j.anyone);
    auto sim = simulate(job->scenario);
    EXPECT_TRUE(sim) << (sim ? "" : sim.error().message);
}

INSTANTIATE_TEST_SUITE_P(PyTorch, KinetoJob,
                         ::testing::Values(OtherJob{"fsdp2", 2, {{307.238, 301.176, 300.978}, {}}, false},
                                           OtherJob{"pipeline2", 2, {{209.369, 303.601, 308.420}, {}}, false},
                                           OtherJob{"mesh4",
                                                    4,
                                                    {{97.460, 499.633, 299.606, 299.584},
                                                     {},
                                                     {179.445, 344.648, 306.374, 299.485},
                                                     {333.392, 310.868, 297.332}},
                                                    true}),
                         [](const ::testing::TestParamInfo<OtherJob>& j) { return std::string(j.param.name); });

TEST(KinetoJobNotes, RanksAreTakenFromTheCollectivesWhereDistributedInfoIsMissingOrWrong)
{
    // pipeline2's distributedInfo names rank 1 in rank 0's trace and rank 0 in rank 1's (exported
    // after the group was destroyed); mesh4's traces have none
    for (const char* name : {"pipeline2", "mesh4"}) {
        auto job = importFiles({kData / "kineto" / name});
        ASSERT_TRUE(job) << job.error().message;
        std::string notes;
        for (const std::string& n : english(job->run.notes))
            notes += n + "\n";
        EXPECT_NE(notes.find(std::string(name) == "mesh4" ? "had no distributedInfo"
                                                          : "named another rank in their distributedInfo"),
                  std::string::npos)
            << notes;
        EXPECT_EQ(job->run.devices[0], "kineto_rank0") << name;
    }
}

// Bad input: each a clear message naming the file, never a half-read job.
class KinetoBadInput : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir = std::filesystem::temp_directory_path() / ("shardlab_kineto_" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }
    std::filesystem::path copy(const std::string& from, const std::string& as)
    {
        std::filesystem::copy_file(kData / from, dir / as);
        return dir / as;
    }
    std::string failure(const std::vector<std::filesystem::path>& paths)
    {
        auto job = importFiles(paths);
        EXPECT_FALSE(job);
        if (!job)
            last = job.error();
        return job ? std::string() : job.error().message;
    }
    // Issue 26: the last failure was born a Message, and its Chinese keeps only the files' names in
    // Latin script (it read half in English before: "Rank 0 has two traces：a and b (...)").
    void expectBornInChinese(const std::vector<std::string>& files)
    {
        ASSERT_FALSE(last.what.empty()) << last.message;
        EXPECT_EQ(english(last.what), last.message);
        std::string zh = worded(last, Language::Chinese);
        for (const std::string& f : files)
            for (size_t at = zh.find(f); at != std::string::npos; at = zh.find(f))
                zh.erase(at, f.size());
        EXPECT_EQ(untranslatedWords(zh), std::vector<std::string>{}) << worded(last, Language::Chinese);
    }
    std::filesystem::path dir;
    Error last;
};

TEST_F(KinetoBadInput, AMissingRankIsNamed)
{
    const std::string m =
        failure({kData / "kineto/ddp4/kineto_rank0.json.gz", kData / "kineto/ddp4/kineto_rank2.json.gz",
                 kData / "kineto/ddp4/kineto_rank3.json.gz"});
    EXPECT_NE(m.find("rank(s) 1 have no trace"), std::string::npos) << m;
    expectBornInChinese({});
}

TEST(KinetoImport, MissingRanksAreNamedInRuns)
{
    // found by a hand-made input to fuzz_import: a trace claiming a world of 2^24 ranks listed
    // every missing one (16 million numbers, a message of about 160 MB; 21 s and 1 GB there,
    // past its 10 s timeout)
    const auto trace = [](int rank, int world) {
        KinetoTrace t;
        t.path = "rank" + std::to_string(rank) + ".json";
        t.rank = rank;
        t.worldSize = world;
        return t;
    };
    auto huge = kinetoJob({trace(0, 1 << 24)});
    ASSERT_FALSE(huge);
    EXPECT_NE(huge.error().message.find("rank(s) 1-16777215 have no trace"), std::string::npos) << huge.error().message;
    EXPECT_LT(huge.error().message.size(), 300u);
    auto some = kinetoJob({trace(0, 8), trace(3, 8), trace(4, 8), trace(7, 8)});
    ASSERT_FALSE(some);
    EXPECT_NE(some.error().message.find("rank(s) 1, 2, 5, 6 have no trace"), std::string::npos) << some.error().message;
    auto run = kinetoJob({trace(1, 6), trace(5, 6)});
    ASSERT_FALSE(run);
    EXPECT_NE(run.error().message.find("rank(s) 0, 2-4 have no trace"), std::string::npos) << run.error().message;
}

TEST_F(KinetoBadInput, TwoTracesOfOneRankAreNamed)
{
    const auto a = copy("kineto/ddp2/kineto_rank0.json.gz", "a.json.gz");
    const auto b = copy("kineto/ddp2/kineto_rank0.json.gz", "b.json.gz");
    const std::string m = failure({a, b, kData / "kineto/ddp2/kineto_rank1.json.gz"});
    EXPECT_NE(m.find("rank 0 has two traces"), std::string::npos) << m;
    EXPECT_NE(m.find("a.json.gz"), std::string::npos) << m;
    EXPECT_NE(m.find("b.json.gz"), std::string::npos) << m;
    expectBornInChinese({(dir / "a.json.gz").string(), (dir / "b.json.gz").string()});
}

TEST_F(KinetoBadInput, RanksFromDifferentJobsAreRefused)
{
    const std::string m =
        failure({kData / "kineto/ddp2/kineto_rank0.json.gz", kData / "kineto/ddp4/kineto_rank1.json.gz"});
    EXPECT_NE(m.find("different jobs"), std::string::npos) << m;
    expectBornInChinese(
        {(kData / "kineto/ddp2/kineto_rank0.json.gz").string(), (kData / "kineto/ddp4/kineto_rank1.json.gz").string()});
}

TEST_F(KinetoBadInput, ATruncatedGzipNamesTheFile)
{
    std::ifstream in(kData / "kineto/ddp2/kineto_rank1.json.gz", std::ios::binary);
    const std::string whole((std::istreambuf_iterator<char>(in)), {});
    std::ofstream(dir / "cut_rank1.json.gz", std::ios::binary) << whole.substr(0, whole.size() * 2 / 3);
    const std::string m = failure({kData / "kineto/ddp2/kineto_rank0.json.gz", dir / "cut_rank1.json.gz"});
    EXPECT_NE(m.find("cut_rank1.json.gz"), std::string::npos) << m;
    EXPECT_NE(m.find("truncated"), std::string::npos) << m;
}

TEST_F(KinetoBadInput, ClocksMinutesApartAreRefused)
{
    // rank 1's trace moved 10 minutes later: its baseTimeNanoseconds + 600 s
    auto text = readInputText(kData / "kineto/ddp2/kineto_rank1.json.gz");
    ASSERT_TRUE(text);
    const std::string key = "\"baseTimeNanoseconds\": 1790857026000000000";
    const size_t at = text->find(key);
    ASSERT_NE(at, std::string::npos);
    text->replace(at, key.size(), "\"baseTimeNanoseconds\": 1790857626000000000");
    std::ofstream(dir / "late_rank1.json") << *text;
    const std::string m = failure({kData / "kineto/ddp2/kineto_rank0.json.gz", dir / "late_rank1.json"});
    EXPECT_NE(m.find("do not overlap in time"), std::string::npos) << m;
    EXPECT_NE(m.find("late_rank1.json"), std::string::npos) << m;
    expectBornInChinese({(dir / "late_rank1.json").string(), (kData / "kineto/ddp2/kineto_rank0.json.gz").string()});
}

TEST_F(KinetoBadInput, ClocksSecondsApartAreAlignedAndSaySo)
{
    // rank 1's clock 20 ms ahead: overlapping, but every collective's ends 20 ms apart
    auto text = readInputText(kData / "kineto/ddp2/kineto_rank1.json.gz");
    ASSERT_TRUE(text);
    const std::string key = "\"baseTimeNanoseconds\": 1790857026000000000";
    const size_t at = text->find(key);
    ASSERT_NE(at, std::string::npos);
    text->replace(at, key.size(), "\"baseTimeNanoseconds\": 1790857026020000000");
    std::ofstream(dir / "ahead_rank1.json") << *text;
    auto job = importFiles({kData / "kineto/ddp2/kineto_rank0.json.gz", dir / "ahead_rank1.json"});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_NE(english(job->run.clockNote).find("clocks disagree"), std::string::npos) << english(job->run.clockNote);
    EXPECT_NE(english(job->run.clockNote).find("were 20000 us apart"), std::string::npos)
        << english(job->run.clockNote);
    // aligned, the waits are the same as on one clock
    expectWaits(job->run, {{301.111, 301.076}, {}});
}

TEST_F(KinetoBadInput, AnUnknownKernelIsLeftOutWithANote)
{
    // one all-reduce kernel on each rank renamed to a collective nobody knows: the same one on both
    // ranks (the first), so that the rest still pairs
    std::vector<std::filesystem::path> files;
    for (int r = 0; r < 2; ++r) {
        auto text = readInputText(kData / ("kineto/ddp2/kineto_rank" + std::to_string(r) + ".json.gz"));
        ASSERT_TRUE(text);
        const std::string kernel = "\"name\": \"ncclDevKernel_AllReduce_Sum_f32_RING_LL(";
        const size_t k = text->find(kernel);
        ASSERT_NE(k, std::string::npos);
        text->replace(k, kernel.size(), "\"name\": \"ncclDevKernel_Frobnicate_f32_RING_LL(");
        const std::string name = "\"Collective name\": \"allreduce\"";
        const size_t arg = text->find(name, k);
        ASSERT_NE(arg, std::string::npos);
        text->replace(arg, name.size(), "\"Collective name\": \"frobnicate\"");
        files.push_back(dir / ("rank" + std::to_string(r) + ".json"));
        std::ofstream(files.back()) << *text;
    }
    auto job = importFiles(files);
    ASSERT_TRUE(job) << job.error().message;
    bool noted = false;
    for (const std::string& n : english(job->run.notes))
        noted = noted || n.find("collective 'frobnicate', which ShardLab does not know, left out") != std::string::npos;
    EXPECT_TRUE(noted);
}

TEST_F(KinetoBadInput, NotJsonOrNotAJobIsSaid)
{
    std::ofstream(dir / "trace_rank0.json") << "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1";
    auto t = readKinetoTrace(dir / "trace_rank0.json");
    ASSERT_FALSE(t);
    EXPECT_NE(t.error().message.find("trace_rank0.json: not valid JSON"), std::string::npos) << t.error().message;
    std::ofstream(dir / "single.json") << "{\"schemaVersion\": 1, \"traceEvents\": []}";
    const std::string m = failure({dir / "single.json"});
    EXPECT_NE(m.find("does not say which rank"), std::string::npos) << m;
    std::string deep = "{\"traceEvents\": [";
    for (int i = 0; i < 200; ++i)
        deep += "[";
    auto d = parseKinetoText(deep, "deep.json");
    ASSERT_FALSE(d);
    EXPECT_NE(d.error().message.find("nested more than"), std::string::npos) << d.error().message;
}

} // namespace
} // namespace shardlab

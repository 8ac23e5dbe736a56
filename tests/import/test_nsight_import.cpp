// Nsight Systems SQLite exports (engine/import/src/nsight_export.cpp, nsight_import.cpp): the real
// export in tests/import/data/nsight (README.md there; no payloads), and jobs written into its
// tables by NsightBuilder with payloads in the layout the reader reads. The waits the tests expect
// are the kernels' start times as the builder wrote them: rank 1 starts step 3's all-reduce
// kernel 5 ms after rank 0, so rank 0 waits 5 ms there for rank 1.
#include "../cli/cli_test_helpers.h"
#include "nsight_builder.h"

#include "shardlab/analysis/summary.h"
#include "shardlab/import/import_job.h"
#include "shardlab/import/nsight_export.h"
#include "shardlab/text/message.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace shardlab {
namespace {

using test::NsightBuilder;

const std::filesystem::path kReal =
    std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/import/data/nsight/fastvideo-2gpu-window.sqlite";
constexpr std::uint64_t kComm = 0x5eed5eed5eedULL;
constexpr std::uint64_t kBytes = 64ull << 20;

class NsightImport : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir = std::filesystem::temp_directory_path() / ("shardlab_nsight_" + std::to_string(::getpid()));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    void TearDown() override { std::filesystem::remove_all(dir); }

    // Six all-reduces of 64 MiB on two ranks (processes 100 and 101, GPUs 0 and 1), 10 ms apart;
    // rank 1 arrives 5 ms late at step 3. Both kernels end 2 ms after the later start. Processes
    // in `pids` only (one export per rank: one process each); `badHeader`: step 4's payloads
    // name another schema in their header (ncclCommInitRank's, of the same size: read as that,
    // they hold no message size).
    void job(NsightBuilder& b, std::vector<int> ranks = {0, 1}, bool badHeader = false)
    {
        const std::int64_t t0 = 30'000'000'000;
        for (int r : ranks) {
            b.process(100 + r);
            b.init(100 + r, t0 - 1'000'000, kComm, r, 2);
        }
        for (int step = 0; step < 6; ++step) {
            const std::int64_t base = t0 + step * 10'000'000;
            const std::int64_t late = step == 3 ? 5'000'000 : 0;
            for (int r : ranks) {
                const std::int64_t arrive = base + (r == 1 ? late : 0) + 100'000;
                b.allReduce(100 + r, r, arrive - 50'000, kComm, kBytes, arrive, base + late + 2'100'000,
                            badHeader && step == 4 ? NsightBuilder::kInitSchema : NsightBuilder::kAllReduceSchema);
            }
        }
    }

    std::filesystem::path dir;
};

TEST(NsightKernelNames, GiveNcclsFunction)
{
    EXPECT_EQ(ncclKernelFunction("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), "AllReduce");
    EXPECT_EQ(ncclKernelFunction("ncclDevKernel_SendRecv"), "SendRecv");
    EXPECT_EQ(ncclKernelFunction("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096>)"), "SendRecv");
    EXPECT_EQ(ncclKernelFunction("ncclKernel_AllGather_RING_LL_Sum_int8_t"), "AllGather");
    EXPECT_EQ(ncclKernelFunction("ncclDevKernel_Generic_1"), "Generic");
    EXPECT_EQ(ncclKernelFunction("ampere_sgemm_128x64_nn"), "");
    EXPECT_EQ(ncclKernelFunction("my_ncclDevKernel_AllReduce"), "");
}

TEST_F(NsightImport, TheRealExportIsReadAndSaysHowToExportItsPayloads)
{
    auto ex = readNsightExport(kReal);
    ASSERT_TRUE(ex) << ex.error().message;
    EXPECT_EQ(ex->version, "2026.2.1.210");
    EXPECT_EQ(ex->host, "modal");
    EXPECT_EQ(ex->utcStartNs, 1779782330176752435LL);
    ASSERT_EQ(ex->processes.size(), 2u);
    for (int i = 0; i < 2; ++i) {
        const NsightProcess& p = ex->processes[static_cast<size_t>(i)];
        EXPECT_EQ(p.pid, 144 + i);
        EXPECT_EQ(p.device, i);
        EXPECT_EQ(p.name, "python3");
        ASSERT_EQ(p.kernels.size(), 33u);
        // the first was launched before the window began: no launch, no calls
        EXPECT_TRUE(p.kernels.front().calls.empty());
        for (const NsightKernel& k : p.kernels) {
            EXPECT_EQ(k.func, "SendRecv");
            EXPECT_EQ(k.stream, i == 0 ? 7 : 15);
            EXPECT_LT(k.startNs, k.endNs);
            if (&k == &p.kernels.front())
                continue;
            // each of the others launched a group of two sends and two receives, without payloads
            ASSERT_EQ(k.calls.size(), 4u) << k.startNs;
            for (const NsightCall& c : k.calls) {
                EXPECT_TRUE(c.func == "Send" || c.func == "Recv") << c.func;
                EXPECT_FALSE(c.decoded);
            }
        }
    }
    EXPECT_EQ(ex->ncclRanges, 264);
    EXPECT_TRUE(ex->blobColumn);
    EXPECT_EQ(ex->payloads, 0);
    EXPECT_EQ(ex->unreadPayloads, 0);
    // as a job: one line naming the file, what it lacks and the command that exports it
    auto job = importFiles({kReal});
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find(kReal.string()), std::string::npos) << job.error().message;
    EXPECT_NE(job.error().message.find("66 NCCL kernels and 264 NCCL calls, but not the calls' payloads"),
              std::string::npos)
        << job.error().message;
    EXPECT_NE(job.error().message.find("nsys export --type sqlite --include-blobs=true"), std::string::npos);
    EXPECT_NE(render(messageOf(job.error()), Language::Chinese).find("重新导出报告"), std::string::npos);
}

TEST_F(NsightImport, TwoRanksWithPayloadsNameTheStragglerAndItsWait)
{
    const auto path = dir / "job.sqlite";
    {
        NsightBuilder b(path);
        job(b);
    }
    auto ex = readNsightExport(path);
    ASSERT_TRUE(ex) << ex.error().message;
    EXPECT_EQ(ex->payloads, 12);
    ASSERT_EQ(ex->processes.size(), 2u);
    ASSERT_EQ(ex->processes[1].comms.size(), 1u);
    EXPECT_EQ(ex->processes[1].comms[0].comm, kComm);
    EXPECT_EQ(ex->processes[1].comms[0].rank, 1);
    EXPECT_EQ(ex->processes[1].comms[0].ranks, 2);
    ASSERT_EQ(ex->processes[0].kernels.size(), 6u);
    ASSERT_EQ(ex->processes[0].kernels[0].calls.size(), 1u);
    EXPECT_EQ(ex->processes[0].kernels[0].calls[0].bytes, kBytes);

    auto job = importFiles({path});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->format, ImportFormat::NsightSqlite);
    EXPECT_EQ(job->run.ranks, 2);
    ASSERT_EQ(job->run.collectives.size(), 6u);
    for (const CollectiveRecord& c : job->run.collectives)
        EXPECT_EQ(c.bytes, kBytes);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    int waits = 0;
    for (const Span& s : job->run.spans)
        if (s.kind == SpanKind::Wait && s.durationUs() > 100) {
            ++waits;
            EXPECT_EQ(s.rank, 0);
            EXPECT_EQ(s.waitedFor, 1);
            EXPECT_NEAR(s.durationUs(), 5000.0, 0.5);
        }
    EXPECT_EQ(waits, 1);
    EXPECT_NE(english(job->run.clockNote).find("nsys 2026.2.1.210"), std::string::npos) << english(job->run.clockNote);
    EXPECT_TRUE(job->run.notes.empty()) << english(job->run.notes.front());
}

TEST_F(NsightImport, TheCommandLinePrintsTheJobAndItsStraggler)
{
    const auto path = dir / "job.sqlite";
    {
        NsightBuilder b(path);
        job(b);
    }
    auto r = test::runCommand({"import", path.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("Read 1 file(s), Nsight Systems SQLite export: a job of 2 ranks."), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("straggler rank 1"), std::string::npos) << r.out;
    auto d = test::runCommand({"diagnose", path.string()});
    ASSERT_EQ(d.status, 0) << d.err;
    EXPECT_NE(d.out.find("rank 1"), std::string::npos) << d.out;
}

TEST_F(NsightImport, OneExportPerRankGivesTheSameJob)
{
    for (int r = 0; r < 2; ++r) {
        NsightBuilder b(dir / ("rank" + std::to_string(r) + ".sqlite"));
        job(b, {r});
    }
    auto job = importFiles({dir});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->run.ranks, 2);
    EXPECT_EQ(job->files.size(), 2u);
    const Summary sum = summarize(job->scenario, job->run);
    ASSERT_TRUE(sum.straggler);
    EXPECT_EQ(*sum.straggler, 1);
    // exports of one host (the same name) share its clock: the wait is the kernels' 5 ms
    double wait = 0;
    for (const Span& s : job->run.spans)
        if (s.kind == SpanKind::Wait)
            wait = std::max(wait, s.durationUs());
    EXPECT_NEAR(wait, 5000.0, 0.5);
}

TEST_F(NsightImport, AMissingRankIsNamedAsAFileNotGiven)
{
    for (int r = 0; r < 2; ++r) {
        NsightBuilder b(dir / ("rank" + std::to_string(r) + ".sqlite"));
        job(b, {r});
    }
    auto job = importFiles({dir / "rank0.sqlite"});
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("rank 1 of the 2-rank communicator 00005eed5eed5eed is in none of the files "
                                       "given: give every rank's file"),
              std::string::npos)
        << job.error().message;
    std::filesystem::copy_file(dir / "rank0.sqlite", dir / "rank0-again.sqlite");
    auto twice = importFiles({dir / "rank0.sqlite", dir / "rank0-again.sqlite"});
    ASSERT_FALSE(twice);
    EXPECT_NE(twice.error().message.find("is in two files"), std::string::npos) << twice.error().message;
}

TEST_F(NsightImport, APayloadWhoseHeaderDisagreesWithItsSchemaIsNotRead)
{
    const auto path = dir / "job.sqlite";
    {
        NsightBuilder b(path);
        job(b, {0, 1}, true);
    }
    auto ex = readNsightExport(path);
    ASSERT_TRUE(ex) << ex.error().message;
    EXPECT_EQ(ex->payloads, 10);
    EXPECT_EQ(ex->unreadPayloads, 2);
    auto job = importFiles({path});
    ASSERT_TRUE(job) << job.error().message;
    EXPECT_EQ(job->run.collectives.size(), 5u); // step 4's, on both ranks, left out and said so
    std::string notes;
    for (const Message& m : job->run.notes)
        notes += english(m) + "\n";
    EXPECT_NE(notes.find("2 payloads of NCCL calls not read"), std::string::npos) << notes;
    EXPECT_NE(notes.find("2 of 12 NCCL kernels left out"), std::string::npos) << notes;
}

TEST_F(NsightImport, HostileOrBrokenFilesAreNamedNeverRead)
{
    // a view standing in for a table is not read (views are switched off)
    const auto view = dir / "view.sqlite";
    {
        NsightBuilder b(view);
        job(b);
        b.exec("ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL RENAME TO real_kernels;"
               "CREATE VIEW CUPTI_ACTIVITY_KIND_KERNEL AS SELECT * FROM real_kernels;");
    }
    auto v = importFiles({view});
    ASSERT_FALSE(v);
    EXPECT_NE(v.error().message.find(view.string() + ": no CUDA kernels in the export"), std::string::npos)
        << v.error().message;
    // a file cut short
    const auto cut = dir / "cut.sqlite";
    {
        std::ifstream in(kReal, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 3);
    }
    auto c = importFiles({cut});
    ASSERT_FALSE(c);
    EXPECT_EQ(c.error().message.rfind(cut.string() + ": ", 0), 0u) << c.error().message;
    // SQLite's header, then nothing SQLite can read
    const std::string junk = std::string("SQLite format 3\0", 16) + std::string(5000, 'x');
    auto j = parseNsightExport(junk, "junk.sqlite");
    ASSERT_FALSE(j);
    EXPECT_EQ(j.error().message.rfind("junk.sqlite: not a readable SQLite database (SQLite says: ", 0), 0u)
        << j.error().message;
    // a kernel that ends before it starts
    const auto back = dir / "back.sqlite";
    {
        NsightBuilder b(back);
        job(b);
        b.exec("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 1 WHERE rowid = 3;");
    }
    auto k = importFiles({back});
    ASSERT_FALSE(k);
    EXPECT_NE(k.error().message.find("ends ("), std::string::npos) << k.error().message;
    // a database that is not an export
    const auto other = dir / "other.sqlite";
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
        sqlite3_exec(db, "CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES ('hi');", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    auto o = importFiles({other});
    ASSERT_FALSE(o);
    EXPECT_EQ(o.error().message, other.string() + ": no table StringIds: not an Nsight Systems SQLite export");
}

TEST_F(NsightImport, ReadingCanBeCancelled)
{
    const auto path = dir / "job.sqlite";
    {
        NsightBuilder b(path);
        job(b);
    }
    ImportOptions o;
    o.progress = [](std::uint64_t, std::uint64_t) { return false; };
    auto r = importFiles({path}, o);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
}

} // namespace
} // namespace shardlab

// Issue 26: what the importers (engine/import) and the profiler's record readers (engine/profile)
// refuse is born a Message: its English is the catalogue's and stays what it was, its Chinese has no
// English left but the values the input holds (file names, JSON paths, other tools' own words).
#include "../common/born_message.h"
#include "../profile/profile_records.h"

#include "shardlab/import/flight_recorder.h"
#include "shardlab/import/import_job.h"
#include "shardlab/import/input_file.h"
#include "shardlab/import/inspector_log.h"
#include "shardlab/import/kineto_trace.h"
#include "shardlab/import/nccl_tests.h"
#include "shardlab/model/presets.h"
#include "shardlab/profile/profile_build.h"
#include "shardlab/profile/profile_live.h"
#include "shardlab/profile/profile_match.h"
#include "shardlab/profile/profile_reader.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace shardlab {
namespace {

namespace fs = std::filesystem;
using test::expectBornInBothLanguages;

const fs::path kData = fs::path(SHARDLAB_SOURCE_DIR) / "tests/import/data";

std::string fileBytes(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

class ErrorsBornImport : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir = fs::temp_directory_path() / ("shardlab_born_import_" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
    fs::path write(const std::string& name, const std::string& bytes)
    {
        std::ofstream(dir / name, std::ios::binary) << bytes;
        return dir / name;
    }
    fs::path dir;
};

// engine/import/src/input_file.cpp
TEST_F(ErrorsBornImport, InputFiles)
{
    const std::string folder = dir.string();
    auto isFolder = readInputText(dir);
    ASSERT_FALSE(isFolder);
    EXPECT_EQ(isFolder.error().message, folder + ": is a folder, not a file");
    expectBornInBothLanguages(isFolder.error(), {folder});

    const std::string missing = (dir / "gone.json").string();
    auto notThere = readInputText(missing);
    ASSERT_FALSE(notThere);
    EXPECT_EQ(notThere.error().message, missing + ": cannot open the file (missing, or not readable)");
    expectBornInBothLanguages(notThere.error(), {missing});
    auto streamed = InputStream::open(missing);
    ASSERT_FALSE(streamed);
    EXPECT_EQ(streamed.error().message, notThere.error().message);
    expectBornInBothLanguages(streamed.error(), {missing});
    auto streamedFolder = InputStream::open(dir);
    ASSERT_FALSE(streamedFolder);
    expectBornInBothLanguages(streamedFolder.error(), {folder});

    // a gzip cut in half, read whole, in memory and through the stream
    const std::string whole = fileBytes(kData / "kineto/ddp2/kineto_rank0.json.gz");
    const fs::path cut = write("cut.json.gz", whole.substr(0, whole.size() / 2));
    auto cutText = readInputText(cut);
    ASSERT_FALSE(cutText);
    EXPECT_EQ(cutText.error().message.rfind(cut.string() + ": the gzip stream ends early (the file is truncated: ", 0),
              0u)
        << cutText.error().message;
    EXPECT_NE(cutText.error().message.find(" bytes of text were read); copy the whole file again"), std::string::npos);
    expectBornInBothLanguages(cutText.error(), {cut.string()});
    auto inMemory = gunzipText(whole.substr(0, whole.size() - 9), "mem.gz");
    ASSERT_FALSE(inMemory);
    expectBornInBothLanguages(inMemory.error(), {"mem.gz"});

    // corrupt data: zlib's own words stay as zlib wrote them
    std::string broken = whole;
    for (size_t i = 100; i < 400; ++i)
        broken[i] = static_cast<char>(broken[i] ^ 0x5a);
    auto corrupt = gunzipText(broken, "bad.gz");
    ASSERT_FALSE(corrupt);
    EXPECT_EQ(corrupt.error().message.rfind("bad.gz: the gzip data is corrupt (", 0), 0u) << corrupt.error().message;
    const std::string zlibWords =
        corrupt.error().message.substr(std::string("bad.gz: the gzip data is corrupt (").size());
    expectBornInBothLanguages(corrupt.error(), {"bad.gz", zlibWords});

    // more text than the caller takes
    const fs::path big = write("big.txt", std::string(3 << 20, 'x'));
    auto tooBig = readInputText(big, 2 << 20);
    ASSERT_FALSE(tooBig);
    EXPECT_EQ(tooBig.error().message,
              big.string()
                  + ": more than 2 MiB of text; ShardLab reads files of this kind whole and refuses larger ones");
    expectBornInBothLanguages(tooBig.error(), {big.string()});
    auto tooBigInMemory = gunzipText(whole, "mem.gz", 100000);
    ASSERT_FALSE(tooBigInMemory);
    EXPECT_EQ(tooBigInMemory.error().message, "mem.gz: more than 0 MiB of text");
    expectBornInBothLanguages(tooBigInMemory.error(), {"mem.gz"});

    // cancelled by the caller
    const Status cancelled = readInputChunks(
        big, [](std::string_view) -> Status { return {}; }, [](std::uint64_t, std::uint64_t) { return false; });
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().kind, ErrorKind::Cancelled);
    EXPECT_EQ(cancelled.error().message, big.string() + ": reading cancelled");
    expectBornInBothLanguages(cancelled.error(), {big.string()});
}

// engine/import/src/kineto_trace.cpp: what goes wrong below the stream, and cancelling
TEST_F(ErrorsBornImport, KinetoTraces)
{
    const std::string whole = fileBytes(kData / "kineto/ddp2/kineto_rank0.json.gz");
    const fs::path cut = write("cut.json.gz", whole.substr(0, whole.size() / 2));
    auto trace = readKinetoTrace(cut);
    ASSERT_FALSE(trace);
    EXPECT_EQ(trace.error().message.rfind(cut.string() + ": the gzip stream ends early (the file is truncated: ", 0),
              0u)
        << trace.error().message;
    expectBornInBothLanguages(trace.error(), {cut.string()});
    const fs::path file = kData / "kineto/ddp2/kineto_rank0.json.gz";
    auto cancelled = readKinetoTrace(file, [](std::uint64_t, std::uint64_t) { return false; });
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.error().kind, ErrorKind::Cancelled);
    EXPECT_EQ(cancelled.error().message, file.string() + ": reading cancelled");
    expectBornInBothLanguages(cancelled.error(), {file.string()});
}

// engine/import/src/import_job.cpp: which files `shardlab import` takes
TEST_F(ErrorsBornImport, ImportedFiles)
{
    const std::string gone = (dir / "gone").string();
    auto missing = importFiles({gone});
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message, gone + ": no such file or folder");
    expectBornInBothLanguages(missing.error(), {gone});

    fs::create_directories(dir / "empty");
    std::ofstream(dir / "empty" / "README.md") << "notes";
    const std::string empty = (dir / "empty").string();
    auto nothing = importFiles({dir / "empty"});
    ASSERT_FALSE(nothing);
    EXPECT_EQ(nothing.error().message, empty + ": the folder holds no file to read");
    expectBornInBothLanguages(nothing.error(), {empty});

    auto none = expandImportPaths({});
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().message, "no file given");
    expectBornInBothLanguages(none.error());

    const fs::path scenario = fs::path(SHARDLAB_SCENARIO_DIR) / "default.shardlab.json";
    ASSERT_TRUE(fs::exists(scenario)) << scenario;
    auto notRun = importFiles({scenario});
    ASSERT_FALSE(notRun);
    EXPECT_EQ(notRun.error().message,
              scenario.string()
                  + ": ShardLab scenario, not a recorded run; command: shardlab sim FILE (or diagnose, report)");
    expectBornInBothLanguages(notRun.error(), {scenario.string(), "shardlab sim FILE", "diagnose, report"});

    const fs::path text = write("notes.bin", "hello, these are notes");
    auto unknown = importFiles({text});
    ASSERT_FALSE(unknown);
    EXPECT_EQ(unknown.error().message,
              text.string()
                  + ": file of unknown kind, not a recorded run; command: none: ShardLab reads Kineto traces, Flight "
                    "Recorder dumps, NCCL Inspector logs, nccl-tests -J JSON, Nsight Systems SQLite exports, NCCL "
                    "profiler plugin traces, its own result files, traces and profiler records");
    expectBornInBothLanguages(unknown.error(), {text.string()});

    const fs::path kineto = kData / "kineto/ddp2/kineto_rank0.json.gz";
    const fs::path inspector = kData / "inspector/ddp2/rank0_vm-pid1307.log";
    auto mixed = importFiles({kineto, inspector});
    ASSERT_FALSE(mixed);
    EXPECT_EQ(mixed.error().message, inspector.string() + " is a NCCL Inspector log, but " + kineto.string()
                                         + " is a PyTorch profiler (Kineto) trace: import the files of one job, of "
                                           "one kind, together");
    expectBornInBothLanguages(mixed.error(), {kineto.string(), inspector.string()});
}

// engine/import/src/inspector_import.cpp: a log's lines
TEST(ErrorsBornInspector, BrokenLines)
{
    const std::string good = fileBytes(kData / "inspector/ddp2/rank0_vm-pid1307.log");
    const std::string first = good.substr(0, good.find('\n'));
    const auto withFirst = [&](const std::string& from, const std::string& to) {
        std::string line = first;
        const size_t at = line.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return line.replace(at, from.size(), to) + "\n";
    };
    struct Case {
        std::string text;
        std::string english;
    };
    const Case cases[] = {
        {"not json\n", "r0.log:1: not a JSON object (a log of NCCL Inspector has one JSON object per line)"},
        {"{\"header\": 3}\n", "r0.log:1: no header or coll_perf object: not a line of NCCL Inspector's log"},
        {"\n" + withFirst("\"coll_sn\":0", "\"coll_sn\":-1"), "r0.log:2: $.coll_perf.coll_sn: missing or negative"},
        {withFirst("\"id\":\"0xfd394496085c69\"", "\"id\":\"zz\""),
         "r0.log:1: $.header.id: not NCCL's communicator id (hex)"},
        {withFirst("\"rank\":0,", "\"rank\":7,"), "r0.log:1: $.header: rank 7 of 2 ranks"},
    };
    for (const Case& c : cases) {
        auto log = parseInspectorLog(c.text + good, "r0.log");
        ASSERT_FALSE(log) << c.english;
        EXPECT_EQ(log.error().message, c.english);
        expectBornInBothLanguages(log.error(), {"r0.log", "header", "coll_perf"});
    }
    auto empty = parseInspectorLog("\n\n", "empty.log");
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().message, "empty.log: no collective recorded (an empty log: did the job run with "
                                     "NCCL_INSPECTOR_ENABLE=1 and NCCL_INSPECTOR_DUMP_VERBOSE=1?)");
    expectBornInBothLanguages(empty.error(), {"empty.log"});
    auto longLine = parseInspectorLog(std::string((1 << 20) + 10, 'x'), "long.log");
    ASSERT_FALSE(longLine);
    EXPECT_EQ(longLine.error().message, "long.log:1: a line longer than 1 MiB: not NCCL Inspector's log");
    expectBornInBothLanguages(longLine.error(), {"long.log"});
}

// engine/import/src/nccl_tests.cpp and nccl_tests_view.cpp
TEST(ErrorsBornNcclTests, AnEmptyFileAndASweepLargerThanTheMachine)
{
    auto empty = parseNcclTestsJson("", "x.json");
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().message, "x.json: $: the file is empty");
    expectBornInBothLanguages(empty.error(), {"x.json"});

    const fs::path file = kData / "nccl_tests/all_reduce_perf_4ranks.json";
    auto sweep = parseNcclTestsJson(fileBytes(file), file.string());
    ASSERT_TRUE(sweep) << sweep.error().message;
    auto two = preset("teaching-4x16gb-pcie");
    ASSERT_TRUE(two);
    Topology small = scaleOut(*two, 2);
    small.name = "my-box";
    auto beside = renderSweepBeside(*sweep, small, false, Language::English);
    ASSERT_FALSE(beside);
    EXPECT_EQ(beside.error().message, file.string() + ": the sweep ran on 4 ranks, but my-box has 2 GPUs");
    expectBornInBothLanguages(beside.error(), {file.string(), "my-box"});
}

// engine/import/src/flight_recorder.cpp: a process group keyed "" is born a Message too
TEST(ErrorsBornFlightRecorder, AGroupWithoutAName)
{
    auto unnamed = parseFlightRecorder(R"({"entries": [], "pg_config": {"": 5}})", "x.json");
    ASSERT_FALSE(unnamed);
    EXPECT_EQ(unnamed.error().message, "x.json: pg_config: process group  has no list of ranks that can be read");
    expectBornInBothLanguages(unnamed.error(), {"x.json"});
}

// engine/profile/src/profile_reader.cpp: empty values are born Messages like any other
TEST(ErrorsBornProfile, EmptyValuesOfARecordFile)
{
    const std::string head = test::RecordText("h", 100).text;
    struct Case {
        std::string text;
        std::string english;
    };
    const Case cases[] = {
        {head + "{\"k\":\"\"}\n", "r0.nccl-profile.jsonl, line 2: $.k: unknown record kind ''"},
        {test::RecordText("h", 100).comm(0, "", 0, 2).text,
         "r0.nccl-profile.jsonl, line 2: $.hash: '' is not a communicator hash (expected up to 16 hexadecimal digits)"},
        {test::RecordText("h", 100).comm(0, "aa", 0, 2).coll(1, 0, 0, "AllReduce", 8, 1000, 1100, 5000, 6000, "").text,
         "r0.nccl-profile.jsonl, line 3: $.dtype: '' is a datatype ShardLab does not know (expected an NCCL datatype "
         "such as ncclFloat32)"},
    };
    for (const Case& c : cases) {
        auto f = parseProfileText(c.text, "r0.nccl-profile.jsonl");
        ASSERT_FALSE(f) << c.english;
        EXPECT_EQ(f.error().message, c.english);
        expectBornInBothLanguages(f.error(), {"r0.nccl-profile.jsonl", "ncclFloat32"});
    }
}

// engine/profile/src/profile_match.cpp: a send without its function's name
TEST(ErrorsBornProfile, APeerOfASendWithoutName)
{
    test::RecordText r0("h", 100);
    r0.comm(0, "00000000000000aa", 0, 2);
    r0.text += "{\"k\":\"p2p\",\"id\":1,\"ctx\":0,\"func\":\"\",\"count\":8,\"dtype\":\"ncclFloat32\",\"peer\":5,"
               "\"nch\":1,\"group\":0,\"t\":1000}\n";
    test::RecordText r1("h", 101);
    r1.comm(0, "00000000000000aa", 1, 2);
    auto f0 = parseProfileText(r0.text, "r0.nccl-profile.jsonl");
    auto f1 = parseProfileText(r1.text, "r1.nccl-profile.jsonl");
    ASSERT_TRUE(f0) << f0.error().message;
    ASSERT_TRUE(f1) << f1.error().message;
    auto matched = matchProfile({*f0, *f1}, false);
    ASSERT_FALSE(matched);
    EXPECT_EQ(matched.error().message, "r0.nccl-profile.jsonl: event 1 () names peer 5 in communicator "
                                       "00000000000000aa (ranks 0,1), where this process is rank 0");
    expectBornInBothLanguages(matched.error(), {"r0.nccl-profile.jsonl", "00000000000000aa"});
}

// engine/profile/src/profile_match.cpp: ranks that disagree, their records without a host
TEST(ErrorsBornProfile, ADisagreementOfRecordsWithoutAHost)
{
    const auto rankFile = [](int rank, std::uint64_t count) {
        test::RecordText f("", 100 + rank);
        f.comm(0, "00000000000000aa", rank, 2)
            .coll(1, 0, 0, "AllReduce", 1024, 1000, 1100, 1050, 2050)
            .coll(3, 0, 1, "AllReduce", count, 5000, 5100, 5050, 6050);
        auto file = parseProfileText(f.text, "r" + std::to_string(rank) + ".nccl-profile.jsonl");
        EXPECT_TRUE(file) << file.error().message;
        return *file;
    };
    auto matched = matchProfile({rankFile(0, 1024), rankFile(1, 2048)}, false);
    ASSERT_FALSE(matched);
    EXPECT_EQ(matched.error().message,
              "the ranks disagree about AllReduce #1 of communicator 00000000000000aa (ranks 0,1): rank 0 ( pid 100) "
              "recorded AllReduce #1, 1024 x ncclFloat32; rank 1 ( pid 101) recorded AllReduce #1, 2048 x ncclFloat32");
    expectBornInBothLanguages(matched.error(), {"AllReduce", "ncclFloat32", "00000000000000aa"});
}

// engine/profile/src/profile_build.cpp: the hang report of a rank whose records end early says so in Chinese too
TEST(ErrorsBornProfile, ARankWhoseRecordsEndEarly)
{
    test::RecordText r0("h", 100);
    r0.comm(0, "00000000000000aa", 0, 2)
        .coll(1, 0, 0, "AllReduce", 1024, 1000, 1100, 1050, 2050)
        .coll(3, 0, 1, "AllReduce", 1024, 5000, 5100, 5050, 6050);
    test::RecordText r1("h", 101);
    r1.comm(0, "00000000000000aa", 1, 2).coll(1, 0, 0, "AllReduce", 1024, 1000, 1100, 1050, 2050);
    auto f0 = parseProfileText(r0.text, "r0.nccl-profile.jsonl");
    auto f1 = parseProfileText(r1.text, "r1.nccl-profile.jsonl");
    ASSERT_TRUE(f0 && f1);
    auto built = buildProfiledRun({*f0, *f1});
    ASSERT_TRUE(built) << built.error().message;
    ASSERT_TRUE(built->run.hang.has_value());
    const HangReport& h = *built->run.hang;
    EXPECT_EQ(h.pending[1], "its record ends here (the process ended, crashed or was killed)");
    EXPECT_EQ(english(h.pendingMessage(1)), h.pending[1]);
    const std::string zh = render(h.pendingMessage(1), Language::Chinese);
    EXPECT_EQ(untranslatedWords(zh), std::vector<std::string>{}) << zh;
}

// engine/profile/src/profile_live.cpp: a record file that cannot be read while the program runs
TEST(ErrorsBornProfile, ARecordFileThatCannotBeRead)
{
    const fs::path dir = fs::temp_directory_path() / ("shardlab_born_tail_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "h-1.nccl-profile.jsonl"); // a folder: opened, but not read
    ProfileDirectoryTail tail(dir);
    const Status st = tail.poll();
    fs::remove_all(dir);
    ASSERT_FALSE(st);
    EXPECT_EQ(st.error().kind, ErrorKind::RunFailed);
    const std::string file = (dir / "h-1.nccl-profile.jsonl").string();
    EXPECT_EQ(st.error().message, file + ": cannot be read (" + std::strerror(EISDIR) + ")");
    expectBornInBothLanguages(st.error(), {file, std::strerror(EISDIR)});
}

} // namespace
} // namespace shardlab

// The atomic writer every output goes through, streamed (base/file_io.h): the previous file stays
// whole until the new one is complete, and a failure says what failed.
#include "../common/full_disk.h"
#include "shardlab/base/file_io.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace shardlab;

namespace {


// What is left in the folder besides `keep`: a temporary file left behind would show here.
size_t filesIn(const std::filesystem::path& dir)
{
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir))
        ++n;
    return n;
}

// A folder of the test's own (ctest runs tests in parallel).
struct Folder {
    std::filesystem::path dir = std::filesystem::temp_directory_path()
                                / ("shardlab-file-io-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    Folder()
    {
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
    }
    ~Folder() { std::filesystem::remove_all(dir); }
};

} // namespace

TEST(FileIo, AStreamedWriteReplacesTheFileWhenComplete)
{
    Folder f;
    const auto path = f.dir / "out.json";
    ASSERT_TRUE(writeFileAtomically(path, "old").ok());
    const Status st = writeFileAtomicallyWith(path, [](std::ostream& out) {
        for (int i = 0; i < 100000; ++i)
            out << i << '\n';
        return Status{};
    });
    ASSERT_TRUE(st.ok()) << st.error().message;
    const std::string text = fs_test::fileText(path);
    EXPECT_EQ(text.substr(0, 4), "0\n1\n");
    EXPECT_EQ(text.size(), 588890u);
    EXPECT_EQ(filesIn(f.dir), 1u);
}

TEST(FileIo, AWriterThatFailsLeavesThePreviousFileAndNoTemporary)
{
    Folder f;
    const auto path = f.dir / "out.json";
    ASSERT_TRUE(writeFileAtomically(path, "old").ok());
    const Status st = writeFileAtomicallyWith(path, [](std::ostream& out) {
        out << "half of it";
        return Status(badInput("the writer's own reason"));
    });
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, "the writer's own reason");
    EXPECT_EQ(fs_test::fileText(path), "old");
    EXPECT_EQ(filesIn(f.dir), 1u);
}

TEST(FileIo, AStreamThatFailsIsReportedWithWhatWasWritten)
{
    // what a full disk does to the stream: its writes fail and it stays failed
    Folder f;
    const auto path = f.dir / "trace.json";
    ASSERT_TRUE(writeFileAtomically(path, "old").ok());
    const Status st = writeFileAtomicallyWith(path, [](std::ostream& out) {
        out << std::string(5000, 'x');
        out.flush();
        out.setstate(std::ios::badbit);
        out << "lost";
        return Status{};
    });
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(st.error().message.rfind(path.string() + ": writing failed after 5 kB (", 0), 0u) << st.error().message;
    EXPECT_NE(st.error().message.find("the previous file, if any, is unchanged"), std::string::npos);
    EXPECT_EQ(fs_test::fileText(path), "old");
    EXPECT_EQ(filesIn(f.dir), 1u);
}

TEST(FileIo, AFolderWithoutWritePermissionOrAFolderAsTargetIsNamed)
{
    Folder f;
    const Status st = writeFileAtomicallyWith(f.dir, [](std::ostream&) { return Status{}; });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.error().message.find("is a folder (expected a file name)"), std::string::npos);
    const Status missing = writeFileAtomicallyWith(f.dir / "no" / "such" / "x.json", [](std::ostream&) { return Status{}; });
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("cannot write in"), std::string::npos);
}

// Issue 25: a shared folder (/tmp, a course's folder) where someone else plants links.
namespace {

bool isLink(const std::filesystem::path& p) { return std::filesystem::is_symlink(std::filesystem::symlink_status(p)); }

struct Umask {
    explicit Umask(mode_t m) : old(::umask(m)) {}
    ~Umask() { ::umask(old); }
    mode_t old;
};

} // namespace

TEST(FileIo, ALinkPlantedAtTheOldTemporaryNameIsNeverFollowed)
{
    // the old writer opened ".NAME.tmp-PID" with truncate, following a link planted there
    Folder f;
    const auto victim = f.dir / "victim.txt";
    fs_test::writePlain(victim, "precious");
    const auto path = f.dir / "out.json";
    const auto planted = f.dir / (".out.json.tmp-" + std::to_string(::getpid()));
    std::filesystem::create_symlink(victim, planted);
    ASSERT_TRUE(writeFileAtomically(path, "new").ok());
    EXPECT_EQ(fs_test::fileText(victim), "precious");
    EXPECT_FALSE(isLink(path));
    EXPECT_EQ(fs_test::fileText(path), "new");
    EXPECT_TRUE(isLink(planted)); // left as it was
    // and a second write over the first, the link still there
    ASSERT_TRUE(writeFileAtomically(path, "newer").ok());
    EXPECT_EQ(fs_test::fileText(victim), "precious");
    EXPECT_EQ(fs_test::fileText(path), "newer");
}

TEST(FileIo, TheTemporaryIsNewPrivateAndOfARandomNameAndTheFileGetsANewFilesMode)
{
    Folder f;
    const auto path = f.dir / "out.json";
    Umask mask(027);
    std::vector<std::string> names;
    for (int i = 0; i < 2; ++i) {
        const Status st = writeFileAtomicallyWith(path, [&](std::ostream& out) {
            out << "text";
            for (const auto& e : std::filesystem::directory_iterator(f.dir)) {
                if (e.path() == path)
                    continue;
                struct stat info {};
                EXPECT_EQ(::lstat(e.path().c_str(), &info), 0);
                EXPECT_TRUE(S_ISREG(info.st_mode)) << e.path();
                EXPECT_EQ(info.st_mode & 0777, 0600u) << e.path();
                names.push_back(e.path().filename().string());
            }
            return Status{};
        });
        ASSERT_TRUE(st.ok()) << st.error().message;
        struct stat done {};
        ASSERT_EQ(::stat(path.c_str(), &done), 0);
        EXPECT_EQ(done.st_mode & 0777, 0640u); // 0666 less the umask, as any new file
        EXPECT_EQ(filesIn(f.dir), 1u);
    }
    ASSERT_EQ(names.size(), 2u);
    EXPECT_NE(names[0], names[1]);
    EXPECT_EQ(names[0].find(std::to_string(::getpid())), std::string::npos) << names[0];
}

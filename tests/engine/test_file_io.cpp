// The atomic writer every output goes through, streamed (base/file_io.h): the previous file stays
// whole until the new one is complete, and a failure says what failed.
#include "../common/full_disk.h"
#include "shardlab/base/file_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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

// The atomic writer every output goes through, streamed (base/file_io.h): the previous file stays
// whole until the new one is complete, and a failure says what failed.
#include "../../common/full_disk.h"
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
    std::filesystem::path dir =
        std::filesystem::temp_directory_path()
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
        return Status(badInput(verbatim("the writer's own reason")));
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
    const Status missing =
        writeFileAtomicallyWith(f.dir / "no" / "such" / "x.json", [](std::ostream&) { return Status{}; });
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

TEST(FileIo, AnOutputThatIsALinkReplacesItsTargetAndStaysALink)
{
    Folder f;
    std::filesystem::create_directories(f.dir / "real");
    const auto target = f.dir / "real" / "result.json";
    fs_test::writePlain(target, "old");
    const auto link = f.dir / "result.json";
    std::filesystem::create_symlink("real/result.json", link); // relative, as ln -s makes them
    ASSERT_TRUE(writeFileAtomically(link, "new").ok());
    EXPECT_TRUE(isLink(link));
    EXPECT_EQ(fs_test::fileText(target), "new");
    EXPECT_EQ(filesIn(f.dir / "real"), 1u);
    // a link to a file not written yet: the file is made where it points
    const auto dangling = f.dir / "later.json";
    std::filesystem::create_symlink(f.dir / "real" / "later.json", dangling);
    ASSERT_TRUE(writeFileAtomically(dangling, "first").ok());
    EXPECT_TRUE(isLink(dangling));
    EXPECT_EQ(fs_test::fileText(f.dir / "real" / "later.json"), "first");
}

TEST(FileIo, AFifoIsWrittenStraightThrough)
{
    Folder f;
    const auto fifo = f.dir / "pipe";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string read;
    std::thread reader([&] { read = fs_test::fileText(fifo); }); // blocks until the writer opens it
    const std::string text(200000, 'x'); // more than a pipe holds: the reader drains it as it comes
    const Status st = writeFileAtomically(fifo, text);
    reader.join();
    ASSERT_TRUE(st.ok()) << st.error().message;
    EXPECT_EQ(read, text);
    EXPECT_TRUE(std::filesystem::is_fifo(std::filesystem::symlink_status(fifo)));
    EXPECT_EQ(filesIn(f.dir), 1u); // no temporary
}

TEST(FileIo, ACharacterDeviceIsWrittenStraightThroughAndALinkToItStays)
{
    // as root the old writer replaced /dev/null with a regular file; as anyone it replaced a link to it
    Folder f;
    const auto link = f.dir / "null";
    std::filesystem::create_symlink("/dev/null", link);
    ASSERT_TRUE(writeFileAtomically(link, "gone").ok());
    EXPECT_TRUE(isLink(link));
    EXPECT_EQ(filesIn(f.dir), 1u);
    ASSERT_TRUE(writeFileAtomically("/dev/null", "gone").ok());
    EXPECT_TRUE(std::filesystem::is_character_file(std::filesystem::symlink_status("/dev/null")));
}

TEST(FileIo, DevStdoutReachesStandardOutput)
{
    // --trace /dev/stdout: the text goes where file descriptor 1 goes, a pipe or a file (`> out`)
    Folder f;
    for (bool pipeOut : {true, false}) {
        SCOPED_TRACE(pipeOut ? "a pipe" : "a file");
        std::cout.flush();
        std::fflush(stdout);
        int p[2] = {-1, -1};
        const auto file = f.dir / "stdout.txt";
        if (pipeOut)
            ASSERT_EQ(::pipe(p), 0);
        else
            p[1] = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        ASSERT_GE(p[1], 0);
        const int saved = ::dup(1);
        ::dup2(p[1], 1);
        ::close(p[1]);
        // what else the process writes there comes before and after it, neither over the other
        EXPECT_EQ(::write(1, "table\n", 6), 6);
        const Status st = writeFileAtomically("/dev/stdout", "{\"traceEvents\":[]}\n");
        EXPECT_EQ(::write(1, "notes\n", 6), 6);
        ::dup2(saved, 1);
        ::close(saved);
        ASSERT_TRUE(st.ok()) << st.error().message;
        std::string got;
        if (pipeOut) {
            char buf[256];
            const ssize_t n = ::read(p[0], buf, sizeof buf);
            ::close(p[0]);
            got.assign(buf, n > 0 ? static_cast<size_t>(n) : 0);
        } else {
            got = fs_test::fileText(file);
        }
        EXPECT_EQ(got, "table\n{\"traceEvents\":[]}\nnotes\n");
        EXPECT_TRUE(isLink("/dev/stdout"));
    }
}

// Issue 25: one capped reader for every input; a FIFO fed forever stops at the cap.
namespace {

// An input that never ends (`yes {`, /dev/zero).
class Endless : public std::streambuf {
public:
    Endless() { std::memset(m_chunk, '{', sizeof m_chunk); }

protected:
    int_type underflow() override
    {
        setg(m_chunk, m_chunk, m_chunk + sizeof m_chunk);
        return traits_type::to_int_type('{');
    }

private:
    char m_chunk[4096];
};

} // namespace

TEST(FileIo, TheCappedReaderStopsAnEndlessInputAtTheCap)
{
    Endless endless;
    std::istream in(&endless);
    const auto r =
        readCapped(in, "<standard input>", Message("error.file_kind.suffix").with("suffix", ".shardlab.json"), 1 << 20);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "<standard input>: $: the file is larger than 1 MB (expected a .shardlab.json file)");
    // exactly the cap is read whole
    std::istringstream exact(std::string(1 << 20, 'x'));
    const auto whole = readCapped(exact, "x", verbatim("x"), 1 << 20);
    ASSERT_TRUE(whole.ok());
    EXPECT_EQ(whole->size(), 1u << 20);
}

TEST(FileIo, AFifoFedForeverIsReadUpToTheCapOnly)
{
    // the size of a FIFO cannot be read first: the old reader skipped the cap and grew without bound
    Folder f;
    const auto fifo = f.dir / "endless";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto oldPipe = std::signal(SIGPIPE, SIG_IGN);
    std::thread feeder([&] {
        const int fd = ::open(fifo.c_str(), O_WRONLY);
        const std::string chunk(65536, '{');
        while (fd >= 0 && ::write(fd, chunk.data(), chunk.size()) > 0) {
        }
        ::close(fd); // the reader closed its end: EPIPE
    });
    const auto r = readUserFile(fifo, Message("error.file_kind.suffix").with("suffix", ".shardlab.json"), 1 << 20);
    feeder.join();
    std::signal(SIGPIPE, oldPipe);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, fifo.string() + ": $: the file is larger than 1 MB (expected a .shardlab.json file)");
}

TEST(FileIo, ALinkThatAnotherUserPlantedInASharedFolderIsNotFollowed)
{
    // /tmp/result.json -> ~/.bashrc, planted by someone else: the kernel would not follow it
    // there (fs.protected_symlinks), and neither does the writer. Only root can make a link
    // another user owns; elsewhere the rule itself is what the other tests cover.
    if (::geteuid() != 0)
        GTEST_SKIP() << "making a link owned by another user needs root";
    Folder f;
    const auto shared = f.dir / "shared";
    std::filesystem::create_directories(shared);
    ASSERT_EQ(::chmod(shared.c_str(), 01777), 0);
    const auto victim = f.dir / "victim.txt";
    fs_test::writePlain(victim, "precious");
    const auto link = shared / "result.json";
    std::filesystem::create_symlink(victim, link);
    ASSERT_EQ(::lchown(link.c_str(), 65534, 65534), 0);
    const Status st = writeFileAtomically(link, "new");
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().message, link.string()
                                      + ": is a symbolic link of another user in a shared folder; it is not followed "
                                        "(choose another file)");
    EXPECT_EQ(fs_test::fileText(victim), "precious");
    // the user's own link there is followed
    ASSERT_EQ(::lchown(link.c_str(), ::geteuid(), ::getegid()), 0);
    EXPECT_TRUE(writeFileAtomically(link, "new").ok());
    EXPECT_EQ(fs_test::fileText(victim), "new");
}

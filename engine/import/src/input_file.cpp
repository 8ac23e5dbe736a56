#include "shardlab/import/input_file.h"

#include <zlib.h>

#include <fstream>
#include <memory>
#include <vector>

namespace shardlab {

namespace {

constexpr size_t kChunk = 1 << 20;

bool gzipName(const std::filesystem::path& path) { return path.extension() == ".gz"; }

// "FILE: what" (error.input.file)
Error refused(const std::string& origin, Message what)
{
    return badInput(Message("error.input.file").with("file", origin).with("what", std::move(what)));
}

// What zlib says of corrupt data (its own words, as they are), after ours.
Message corrupt(const char* zlibMessage)
{
    if (!zlibMessage)
        return Message("error.input.gzip_corrupt");
    return Message("error.input.gzip_corrupt_why").with("why", verbatim(zlibMessage));
}

Message zlibFailed(int rc) { return Message("error.input.zlib_failed").with("code", rc); }

// "the gzip stream ends early (the file is truncated: N bytes of text were read); copy the whole file again"
Message cutShort(std::uint64_t produced)
{
    return Message("error.input.gzip_cut").with("bytes", std::to_string(produced));
}

// Inflates gzip members one after another (a file of several concatenated members is one text,
// as gzip -d reads it). `next` gives the next compressed piece ("" at the end of the file).
class Gunzip {
public:
    Gunzip()
    {
        m_zs.zalloc = Z_NULL;
        m_zs.zfree = Z_NULL;
        m_zs.opaque = Z_NULL;
        m_ok = inflateInit2(&m_zs, 15 + 32) == Z_OK; // 15 + 32: gzip or zlib header, detected
    }
    ~Gunzip() { inflateEnd(&m_zs); }
    Gunzip(const Gunzip&) = delete;
    Gunzip& operator=(const Gunzip&) = delete;

    // Feeds compressed bytes; calls `out` with what they inflate to. Returns what is wrong (empty: nothing).
    Message feed(std::string_view in, const std::function<Status(std::string_view)>& out, Status& stopped)
    {
        if (!m_ok)
            return Message("error.input.zlib_start");
        m_zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        m_zs.avail_in = static_cast<uInt>(in.size());
        while (m_zs.avail_in > 0) {
            if (m_ended) { // another member follows, or trailing garbage
                if (inflateReset(&m_zs) != Z_OK)
                    return Message("error.input.zlib_restart");
                m_ended = false;
            }
            m_zs.next_out = reinterpret_cast<Bytef*>(m_buffer.data());
            m_zs.avail_out = static_cast<uInt>(m_buffer.size());
            const int rc = inflate(&m_zs, Z_NO_FLUSH);
            const size_t produced = m_buffer.size() - m_zs.avail_out;
            m_total += produced;
            if (produced > 0)
                if (Status st = out(std::string_view(m_buffer.data(), produced)); !st) {
                    stopped = st;
                    return {};
                }
            if (rc == Z_STREAM_END) {
                m_ended = true;
                continue;
            }
            if (rc == Z_DATA_ERROR)
                return corrupt(m_zs.msg);
            if (rc == Z_MEM_ERROR)
                return Message("error.input.zlib_memory");
            if (rc != Z_OK && rc != Z_BUF_ERROR)
                return zlibFailed(rc);
        }
        return {};
    }
    bool ended() const { return m_ended; }
    std::uint64_t produced() const { return m_total; }

private:
    z_stream m_zs{};
    bool m_ok = false;
    bool m_ended = false;
    std::uint64_t m_total = 0;
    std::vector<char> m_buffer = std::vector<char>(kChunk);
};

} // namespace

bool looksGzip(std::string_view head)
{
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f
           && static_cast<unsigned char>(head[1]) == 0x8b;
}

Status readInputChunks(const std::filesystem::path& path, const std::function<Status(std::string_view)>& chunk,
                       const ReadProgress& progress)
{
    const std::string origin = path.string();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return refused(origin, Message("error.input.is_folder"));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return refused(origin, Message("error.input.cannot_open"));
    const std::uint64_t total = std::filesystem::file_size(path, ec);
    std::vector<char> buffer(kChunk);
    std::uint64_t done = 0;
    std::unique_ptr<Gunzip> gz;
    bool first = true;
    Status stopped;
    while (in) {
        in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
        const size_t got = static_cast<size_t>(in.gcount());
        if (got == 0)
            break;
        const std::string_view piece(buffer.data(), got);
        if (first) {
            first = false;
            if (looksGzip(piece) || gzipName(path))
                gz = std::make_unique<Gunzip>();
        }
        done += got;
        if (gz) {
            if (Message problem = gz->feed(piece, chunk, stopped); !problem.empty())
                return refused(origin, std::move(problem));
        } else {
            stopped = chunk(piece);
        }
        if (!stopped)
            return stopped;
        if (progress && !progress(done, total))
            return Error(
                ErrorKind::Cancelled,
                Message("error.input.file").with("file", origin).with("what", Message("error.input.cancelled")));
    }
    if (in.bad())
        return refused(origin, Message("error.input.read_error").with("bytes", std::to_string(done)));
    if (gz && !gz->ended())
        return refused(origin, cutShort(gz->produced()));
    return {};
}

Result<std::string> readInputText(const std::filesystem::path& path, std::uint64_t maxBytes,
                                  const ReadProgress& progress)
{
    std::string text;
    Status st = readInputChunks(
        path,
        [&](std::string_view piece) -> Status {
            if (text.size() + piece.size() > maxBytes)
                return refused(path.string(),
                               Message("error.input.too_large").with("megabytes", std::to_string(maxBytes >> 20)));
            text.append(piece);
            return {};
        },
        progress);
    if (!st)
        return st.error();
    return text;
}

std::string readInputHead(const std::filesystem::path& path, size_t bytes)
{
    std::string head;
    // Stops once enough is read: the chunk callback fails with a marker error.
    const Status st = readInputChunks(path, [&](std::string_view piece) -> Status {
        head.append(piece.substr(0, bytes - head.size()));
        if (head.size() >= bytes)
            return Error(ErrorKind::Cancelled, Message("error.input.cancelled"));
        return {};
    });
    (void)st; // a truncated or unreadable file: what was read (the readers say what is wrong)
    return head;
}

Result<std::string> gunzipText(std::string_view bytes, const std::string& origin, std::uint64_t maxBytes)
{
    Gunzip gz;
    std::string text;
    Status stopped;
    Message problem = gz.feed(
        bytes,
        [&](std::string_view piece) -> Status {
            if (text.size() + piece.size() > maxBytes)
                return refused(
                    origin, Message("error.input.too_large_short").with("megabytes", std::to_string(maxBytes >> 20)));
            text.append(piece);
            return {};
        },
        stopped);
    if (!problem.empty())
        return refused(origin, std::move(problem));
    if (!stopped)
        return stopped.error();
    if (!gz.ended())
        return refused(origin, cutShort(gz.produced()));
    return text;
}

} // namespace shardlab

namespace shardlab {

namespace {

// Pulls the file through zlib (gzip) or as is, a buffer at a time.
class PullBuffer : public std::streambuf {
public:
    PullBuffer(std::filesystem::path path, bool gzip, ReadProgress progress)
        : m_path(std::move(path)), m_in(m_path, std::ios::binary), m_gzip(gzip), m_progress(std::move(progress))
    {
        std::error_code ec;
        m_total = std::filesystem::file_size(m_path, ec);
        if (m_gzip) {
            m_zs.zalloc = Z_NULL;
            m_zs.zfree = Z_NULL;
            m_zs.opaque = Z_NULL;
            if (inflateInit2(&m_zs, 15 + 32) != Z_OK)
                m_problem = Message("error.input.zlib_start");
            m_zInit = true;
        }
    }
    ~PullBuffer() override
    {
        if (m_zInit)
            inflateEnd(&m_zs);
    }
    bool opened() const { return static_cast<bool>(m_in); }
    Message problem() const { return m_problem; }
    bool cancelled() const { return m_cancelled; }

protected:
    int_type underflow() override
    {
        if (gptr() < egptr())
            return traits_type::to_int_type(*gptr());
        while (m_problem.empty()) {
            if (!m_gzip) {
                if (!readRaw())
                    return traits_type::eof();
                setg(m_raw.data(), m_raw.data(), m_raw.data() + m_rawSize);
                m_rawSize = 0;
                return traits_type::to_int_type(*gptr());
            }
            if (m_zs.avail_in == 0) {
                if (!readRaw()) {
                    if (!m_ended)
                        m_problem = cutShort(m_produced);
                    return traits_type::eof();
                }
                m_zs.next_in = reinterpret_cast<Bytef*>(m_raw.data());
                m_zs.avail_in = static_cast<uInt>(m_rawSize);
            }
            if (m_ended) {
                if (inflateReset(&m_zs) != Z_OK) {
                    m_problem = Message("error.input.zlib_restart");
                    break;
                }
                m_ended = false;
            }
            m_zs.next_out = reinterpret_cast<Bytef*>(m_out.data());
            m_zs.avail_out = static_cast<uInt>(m_out.size());
            const int rc = inflate(&m_zs, Z_NO_FLUSH);
            const size_t produced = m_out.size() - m_zs.avail_out;
            m_produced += produced;
            if (rc == Z_STREAM_END)
                m_ended = true;
            else if (rc == Z_DATA_ERROR)
                m_problem = corrupt(m_zs.msg);
            else if (rc != Z_OK && rc != Z_BUF_ERROR)
                m_problem = zlibFailed(rc);
            if (produced > 0) {
                setg(m_out.data(), m_out.data(), m_out.data() + produced);
                return traits_type::to_int_type(*gptr());
            }
        }
        return traits_type::eof();
    }

private:
    bool readRaw()
    {
        if (!m_in)
            return false;
        m_in.read(m_raw.data(), static_cast<std::streamsize>(m_raw.size()));
        m_rawSize = static_cast<size_t>(m_in.gcount());
        if (m_in.bad()) {
            m_problem = Message("error.input.read_error").with("bytes", std::to_string(m_done));
            return false;
        }
        if (m_rawSize == 0)
            return false;
        m_done += m_rawSize;
        if (m_progress && !m_progress(m_done, m_total)) {
            m_cancelled = true;
            m_problem = Message("error.input.cancelled");
            return false;
        }
        return true;
    }

    std::filesystem::path m_path;
    std::ifstream m_in;
    bool m_gzip = false;
    ReadProgress m_progress;
    std::vector<char> m_raw = std::vector<char>(kChunk);
    size_t m_rawSize = 0;
    std::vector<char> m_out = std::vector<char>(kChunk);
    z_stream m_zs{};
    bool m_zInit = false;
    bool m_ended = false;
    bool m_cancelled = false;
    std::uint64_t m_done = 0, m_total = 0, m_produced = 0;
    Message m_problem;
};

class FileInputStream : public InputStream {
public:
    FileInputStream(const std::filesystem::path& path, bool gzip, ReadProgress progress)
        : m_buffer(path, gzip, std::move(progress)), m_stream(&m_buffer)
    {
    }
    bool opened() const { return m_buffer.opened(); }
    std::istream& stream() override { return m_stream; }
    Message problem() const override { return m_buffer.problem(); }
    bool cancelled() const override { return m_buffer.cancelled(); }

private:
    PullBuffer m_buffer;
    std::istream m_stream;
};

} // namespace

Result<std::unique_ptr<InputStream>> InputStream::open(const std::filesystem::path& path, const ReadProgress& progress)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return refused(path.string(), Message("error.input.is_folder"));
    std::string magic(2, '\0');
    {
        std::ifstream probe(path, std::ios::binary);
        if (!probe)
            return refused(path.string(), Message("error.input.cannot_open"));
        probe.read(magic.data(), 2);
        magic.resize(static_cast<size_t>(probe.gcount()));
    }
    auto s = std::make_unique<FileInputStream>(path, looksGzip(magic) || gzipName(path), progress);
    if (!s->opened())
        return refused(path.string(), Message("error.input.cannot_open"));
    return std::unique_ptr<InputStream>(std::move(s));
}

Status feedLines(std::string_view piece, std::string& pending, size_t maxLine,
                 const std::function<Status(const std::string&)>& take, const std::function<Status()>& tooLong)
{
    size_t pos = 0;
    while (pos < piece.size()) {
        const size_t nl = piece.find('\n', pos);
        if (nl == std::string_view::npos) {
            pending.append(piece.substr(pos));
            return pending.size() > maxLine ? tooLong() : Status{};
        }
        pending.append(piece.substr(pos, nl - pos));
        if (Status s = take(pending); !s)
            return s;
        pending.clear();
        pos = nl + 1;
    }
    return {};
}

} // namespace shardlab

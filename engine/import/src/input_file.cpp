#include "shardlab/import/input_file.h"

#include <zlib.h>

#include <fstream>
#include <memory>
#include <vector>

namespace shardlab {

namespace {

constexpr size_t kChunk = 1 << 20;

bool gzipName(const std::filesystem::path& path)
{
    return path.extension() == ".gz";
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

    // Feeds compressed bytes; calls `out` with what they inflate to. Returns "" or what is wrong.
    std::string feed(std::string_view in, const std::function<Status(std::string_view)>& out, Status& stopped)
    {
        if (!m_ok)
            return "zlib could not start";
        m_zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
        m_zs.avail_in = static_cast<uInt>(in.size());
        while (m_zs.avail_in > 0) {
            if (m_ended) { // another member follows, or trailing garbage
                if (inflateReset(&m_zs) != Z_OK)
                    return "zlib could not restart";
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
                return "the gzip data is corrupt" + std::string(m_zs.msg ? std::string(" (") + m_zs.msg + ")" : "");
            if (rc == Z_MEM_ERROR)
                return "zlib ran out of memory";
            if (rc != Z_OK && rc != Z_BUF_ERROR)
                return "zlib failed (" + std::to_string(rc) + ")";
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

std::string cutShort(const std::string& origin, std::uint64_t produced)
{
    return origin + ": the gzip stream ends early (the file is truncated: " + std::to_string(produced)
           + " bytes of text were read); copy the whole file again";
}

} // namespace

bool looksGzip(std::string_view head)
{
    return head.size() >= 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b;
}

Status readInputChunks(const std::filesystem::path& path, const std::function<Status(std::string_view)>& chunk,
                       const ReadProgress& progress)
{
    const std::string origin = path.string();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return badInput(origin + ": is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return badInput(origin + ": cannot open the file (missing, or not readable)");
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
            if (std::string problem = gz->feed(piece, chunk, stopped); !problem.empty())
                return badInput(origin + ": " + problem);
        } else {
            stopped = chunk(piece);
        }
        if (!stopped)
            return stopped;
        if (progress && !progress(done, total))
            return Error{ErrorKind::Cancelled, origin + ": reading cancelled"};
    }
    if (in.bad())
        return badInput(origin + ": read error after " + std::to_string(done) + " bytes");
    if (gz && !gz->ended())
        return badInput(cutShort(origin, gz->produced()));
    return {};
}

Result<std::string> readInputText(const std::filesystem::path& path, std::uint64_t maxBytes, const ReadProgress& progress)
{
    std::string text;
    Status st = readInputChunks(
        path,
        [&](std::string_view piece) -> Status {
            if (text.size() + piece.size() > maxBytes)
                return badInput(path.string() + ": more than " + std::to_string(maxBytes >> 20)
                                + " MiB of text; ShardLab reads files of this kind whole and refuses larger ones");
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
            return Error{ErrorKind::Cancelled, "enough"};
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
    const std::string problem = gz.feed(
        bytes,
        [&](std::string_view piece) -> Status {
            if (text.size() + piece.size() > maxBytes)
                return badInput(origin + ": more than " + std::to_string(maxBytes >> 20) + " MiB of text");
            text.append(piece);
            return {};
        },
        stopped);
    if (!problem.empty())
        return badInput(origin + ": " + problem);
    if (!stopped)
        return stopped.error();
    if (!gz.ended())
        return badInput(cutShort(origin, gz.produced()));
    return text;
}

} // namespace shardlab

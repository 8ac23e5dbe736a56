// Nsight Systems exports for the tests, made from the real one in tests/import/data/nsight (its
// tables, columns and NCCL payload schemas as nsys 2026.2 wrote them): its rows of kernels,
// launches and NCCL ranges are replaced by a job the test describes, each NCCL call with its
// payload in the layout docs/importing.md gives (a 32-byte header, then NCCL's struct).
#pragma once

#include <sqlite3.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace shardlab::test {

class NsightBuilder {
public:
    static constexpr std::int64_t kInitSchema = 16777218;      // ncclCommInitRank's (comm, ranks, rank, device)
    static constexpr std::int64_t kAllReduceSchema = 16777223; // ncclAllReduce's (comm, bytes, op)

    explicit NsightBuilder(const std::filesystem::path& out)
    {
        const std::filesystem::path real =
            std::filesystem::path(SHARDLAB_SOURCE_DIR) / "tests/import/data/nsight/fastvideo-2gpu-window.sqlite";
        std::filesystem::copy_file(real, out, std::filesystem::copy_options::overwrite_existing);
        EXPECT_EQ(sqlite3_open(out.c_str(), &m_db), SQLITE_OK);
        exec("CREATE TEMP TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1;"
             "CREATE TEMP TABLE r AS SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME LIMIT 1;"
             "CREATE TEMP TABLE n AS SELECT * FROM NVTX_EVENTS LIMIT 1;"
             "DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL; DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME; DELETE FROM NVTX_EVENTS;"
             "DELETE FROM PROCESSES;"
             "INSERT INTO StringIds(id, value) VALUES (900001, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'),"
             " (900002, 'ncclAllReduce'), (900003, 'ncclCommInitRank'), (900004, 'cudaLaunchKernel'),"
             " (900005, 'ncclGroupStart'), (900006, 'ncclGroupEnd');");
    }
    ~NsightBuilder()
    {
        if (m_db)
            sqlite3_close(m_db);
    }
    NsightBuilder(const NsightBuilder&) = delete;
    NsightBuilder& operator=(const NsightBuilder&) = delete;

    static std::int64_t globalPid(int pid) { return (std::int64_t{1} << 48) | (std::int64_t{pid} << 24); }
    static std::int64_t globalTid(int pid) { return globalPid(pid) | pid; }

    void exec(const std::string& sql)
    {
        char* err = nullptr;
        EXPECT_EQ(sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "") << "\n"
                                                                                      << sql;
        sqlite3_free(err);
    }

    void process(int pid)
    {
        exec("INSERT INTO PROCESSES VALUES (" + s(globalPid(pid)) + ", " + s(pid) + ", 'python3');");
    }

    // ncclCommInitRank on process `pid`: rank `rank` of `ranks` in communicator `comm`.
    void init(int pid, std::int64_t atNs, std::uint64_t comm, int rank, int ranks)
    {
        std::vector<unsigned char> p(24, 0);
        put(p, 0, comm, 8);
        put(p, 8, static_cast<std::uint64_t>(ranks), 4);
        put(p, 12, static_cast<std::uint64_t>(rank), 4);
        put(p, 16, static_cast<std::uint64_t>(rank), 4);
        range(pid, atNs, atNs + 1000, 900003, blob(kInitSchema, p));
    }

    // ncclAllReduce of `bytes` on `comm`, called at `callNs`, whose kernel runs [kernelStart, kernelEnd]
    // on `device`. `header` replaces the blob's header's schema id where given (a layout not its own).
    void allReduce(int pid, int device, std::int64_t callNs, std::uint64_t comm, std::uint64_t bytes,
                   std::int64_t kernelStart, std::int64_t kernelEnd, std::int64_t schemaInHeader = kAllReduceSchema)
    {
        std::vector<unsigned char> p(24, 0);
        put(p, 0, comm, 8);
        put(p, 8, bytes, 8);
        std::vector<unsigned char> b = blob(kAllReduceSchema, p);
        put(b, 8, static_cast<std::uint64_t>(schemaInHeader), 4);
        range(pid, callNs, callNs + 20000, 900002, b);
        const std::int64_t corr = ++m_correlation;
        exec("UPDATE r SET start = " + s(callNs + 5000) + ", end = " + s(callNs + 15000)
             + ", globalTid = " + s(globalTid(pid)) + ", correlationId = " + s(corr)
             + ", nameId = 900004; INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT * FROM r;");
        exec("UPDATE k SET start = " + s(kernelStart) + ", end = " + s(kernelEnd) + ", deviceId = " + s(device)
             + ", streamId = 7, correlationId = " + s(corr) + ", globalPid = " + s(globalPid(pid))
             + ", shortName = 900001, demangledName = 900001; INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM k;");
    }

private:
    static std::string s(std::int64_t v) { return std::to_string(v); }
    static std::string s(std::uint64_t v) { return std::to_string(v); }
    static std::string s(int v) { return std::to_string(v); }
    static void put(std::vector<unsigned char>& b, size_t at, std::uint64_t v, int width)
    {
        for (int i = 0; i < width; ++i)
            b[at + static_cast<size_t>(i)] = static_cast<unsigned char>(v >> (8 * i));
    }
    // header: domain 1, 0, schema, 0, payload size, total size (little-endian), then the payload
    static std::vector<unsigned char> blob(std::int64_t schema, const std::vector<unsigned char>& payload)
    {
        std::vector<unsigned char> b(32, 0);
        put(b, 0, 1, 4);
        put(b, 8, static_cast<std::uint64_t>(schema), 4);
        put(b, 16, payload.size(), 8);
        put(b, 24, 32 + payload.size(), 8);
        b.insert(b.end(), payload.begin(), payload.end());
        return b;
    }
    void range(int pid, std::int64_t start, std::int64_t end, int textId, const std::vector<unsigned char>& blob)
    {
        exec("UPDATE n SET start = " + s(start) + ", end = " + s(end) + ", eventType = 59, text = NULL, globalTid = "
             + s(globalTid(pid)) + ", textId = " + s(textId) + ", domainId = 1;");
        sqlite3_stmt* st = nullptr;
        ASSERT_EQ(sqlite3_prepare_v2(m_db, "UPDATE n SET binaryData = ?1", -1, &st, nullptr), SQLITE_OK);
        sqlite3_bind_blob(st, 1, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
        EXPECT_EQ(sqlite3_step(st), SQLITE_DONE);
        sqlite3_finalize(st);
        exec("INSERT INTO NVTX_EVENTS SELECT * FROM n;");
    }

    sqlite3* m_db = nullptr;
    std::int64_t m_correlation = 0;
};

} // namespace shardlab::test

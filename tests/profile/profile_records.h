// Record files written by hand, line by line as the plugin writes them (docs/profiling.md), so that
// every figure a test expects can be worked out from the numbers here.
#pragma once

#include <cstdint>
#include <string>

namespace shardlab::test {

struct RecordText {
    std::string text;
    explicit RecordText(const std::string& host, int pid, double tNs = 0, double realNs = 1e18)
    {
        text = "{\"shardlab_nccl_profile\":1,\"host\":\"" + host + "\",\"pid\":" + std::to_string(pid)
               + ",\"t\":" + num(tNs) + ",\"real\":" + num(realNs) + "}\n";
    }
    static std::string num(double v) { return std::to_string(static_cast<std::uint64_t>(v)); }
    RecordText& comm(int ctx, const std::string& hash, int rank, int nranks)
    {
        text += "{\"k\":\"comm\",\"ctx\":" + std::to_string(ctx) + ",\"hash\":\"" + hash
                + "\",\"rank\":" + std::to_string(rank) + ",\"nranks\":" + std::to_string(nranks)
                + ",\"nodes\":1,\"name\":\"\",\"t\":0,\"real\":0}\n";
        return *this;
    }
    // A collective whose event starts at host time `t`, and one kernel channel whose start
    // (GPU timer `gpuStart`) the plugin heard of at host time `seen`, ending at `gpuEnd`.
    RecordText& coll(std::uint64_t id, int ctx, int seq, const std::string& func, std::uint64_t count, double t,
                     double seen, double gpuStart, double gpuEnd, const std::string& dtype = "ncclFloat32")
    {
        text += "{\"k\":\"coll\",\"id\":" + std::to_string(id) + ",\"ctx\":" + std::to_string(ctx)
                + ",\"seq\":" + std::to_string(seq) + ",\"func\":\"" + func + "\",\"count\":" + std::to_string(count)
                + ",\"dtype\":\"" + dtype
                + "\",\"root\":0,\"algo\":\"RING\",\"proto\":\"SIMPLE\",\"nch\":1,\"group\":0,\"t\":" + num(t) + "}\n";
        const std::string ch = std::to_string(id + 1000000);
        text += "{\"k\":\"kch\",\"id\":" + ch + ",\"op\":" + std::to_string(id) + ",\"ch\":0,\"gpu\":" + num(gpuStart)
                + ",\"t\":" + num(seen) + "}\n";
        text += "{\"k\":\"kchstop\",\"id\":" + ch + ",\"gpu\":" + num(gpuEnd) + ",\"t\":" + num(seen) + "}\n";
        text += "{\"k\":\"stop\",\"id\":" + std::to_string(id) + ",\"t\":" + num(t + 10) + "}\n";
        return *this;
    }
};

} // namespace shardlab::test

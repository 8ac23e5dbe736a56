#include "shardlab/analysis/sweep.h"
#include "shardlab/analysis/sweep_fit.h"
#include "shardlab/base/display_width.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <numeric>
#include <sstream>

namespace shardlab {

Result<std::vector<Bytes>> parseSizeRange(const std::string& spec)
{
    std::vector<Bytes> sizes;
    if (spec.find(',') != std::string::npos || spec.find(':') == std::string::npos) {
        // a list: "64K,1M,16M"
        std::stringstream ss(spec);
        std::string part;
        while (std::getline(ss, part, ',')) {
            auto b = parseBenchSize(part);
            if (!b)
                return badInput(
                    Message("sweep.error.in_option").with("option", "--sizes").with("what", messageOf(b.error())));
            if (*b == 0)
                return badInput(Message("sweep.error.in_option")
                                    .with("option", "--sizes")
                                    .with("what", Message("sweep.error.zero_size")));
            sizes.push_back(*b);
        }
        if (sizes.empty())
            return badInput(Message("sweep.error.in_option")
                                .with("option", "--sizes")
                                .with("what", Message("sweep.error.sizes_empty")
                                                  .with("form", "START:END:FACTOR")
                                                  .with("example", "64K,1M,16M")));
        return sizes;
    }
    std::stringstream ss(spec);
    std::string a, b, f;
    std::getline(ss, a, ':');
    std::getline(ss, b, ':');
    std::getline(ss, f, ':');
    auto start = parseBenchSize(a);
    auto end = parseBenchSize(b);
    if (!start)
        return badInput(
            Message("sweep.error.in_option").with("option", "--sizes START").with("what", messageOf(start.error())));
    if (!end)
        return badInput(
            Message("sweep.error.in_option").with("option", "--sizes END").with("what", messageOf(end.error())));
    long factor = 2;
    if (!f.empty()) {
        char* e = nullptr;
        factor = std::strtol(f.c_str(), &e, 10);
        if (*e || factor < 2 || factor > 1024)
            return badInput(
                Message("sweep.error.in_option")
                    .with("option", "--sizes FACTOR")
                    .with("what", Message("sweep.error.factor").with("value", f).with("lo", "2").with("hi", "1024")));
    }
    if (*start == 0)
        return badInput(Message("sweep.error.in_option")
                            .with("option", "--sizes START")
                            .with("what", Message("sweep.error.zero_size")));
    if (*end < *start)
        return badInput(Message("sweep.error.in_option")
                            .with("option", "--sizes")
                            .with("what", Message("sweep.error.end_before_start")
                                              .with("end_name", "END")
                                              .with("end", b)
                                              .with("start_name", "START")
                                              .with("start", a)));
    for (Bytes s = *start; s <= *end && sizes.size() < 64; s *= static_cast<Bytes>(factor))
        sizes.push_back(s);
    return sizes;
}

// nccl-tests rounds each size down to a whole number of elements per rank for the gathering and
// scattering collectives, and to a whole number of elements for the rest.
Bytes roundBenchSize(OpKind kind, Bytes bytes, int ranks)
{
    const Bytes word = 4;
    const Bytes unit = (kind == OpKind::AllGather || kind == OpKind::ReduceScatter || kind == OpKind::AllGatherV
                        || kind == OpKind::ReduceScatterAllGather)
                           ? word * static_cast<Bytes>(ranks)
                           : word;
    return std::max(unit, bytes / unit * unit);
}

Status checkSweepRequest(OpKind kind, int gpus, const std::vector<Bytes>& sizes)
{
    if (!isCollective(kind))
        return badInput(Message("sweep.error.not_collective").with("command", "bench").with("op", opName(kind)));
    if (sizes.empty())
        return badInput(Message("sweep.error.no_sizes").with("command", "bench"));
    if (kind == OpKind::SendRecv && gpus != 2)
        return badInput(Message("sweep.error.send_recv_pair").with("option", "--gpus 2"));
    return {};
}

SweepRow sweepRow(OpKind kind, int ranks, Bytes bytes, double timeUs)
{
    SweepRow row;
    row.bytes = bytes;
    row.count = bytes / 4; // float elements
    row.timeUs = timeUs;
    row.algbwGBps = timeUs > 0 ? static_cast<double>(bytes) / timeUs / 1e3 : 0; // bytes/us -> GB/s
    row.busbwGBps = row.algbwGBps * busBandwidthFactor(kind, ranks);
    return row;
}

std::vector<SweepRow> simulateSweep(CostModel& model, OpKind kind, int ranks, const std::vector<Bytes>& sizes)
{
    std::vector<int> group(static_cast<size_t>(ranks));
    std::iota(group.begin(), group.end(), 0);
    std::vector<SweepRow> rows;
    for (Bytes requested : sizes) {
        const Bytes bytes = roundBenchSize(kind, requested, ranks);
        const CollectiveCost c = model.collective(kind, bytes, group, Algorithm::Auto, 0);
        SweepRow row = sweepRow(kind, ranks, bytes, c.timeUs);
        row.wrong = -1;
        row.algorithm = c.algorithm;
        row.protocol = c.protocol;
        rows.push_back(row);
    }
    return rows;
}

std::string formatSweepTable(OpKind kind, int ranks, const std::vector<SweepRow>& rows, const Message& title,
                             Language language)
{
    auto say = [language](const Message& m) { return render(m, language); };
    std::ostringstream out;
    char buf[256];
    out << "# " << say(title) << "\n";
    // busbw = algbw x factor: busBandwidthFactor(), nccl-tests' doc/PERFORMANCE.md
    const char* factor = kind == OpKind::AllReduce || kind == OpKind::ReduceScatterAllGather ? "2(n-1)/n"
                         : (kind == OpKind::Broadcast || kind == OpKind::Reduce || kind == OpKind::SendRecv)
                             ? "1"
                             : "(n-1)/n";
    out << "# "
        << say(Message("sweep.header").with("collective", opName(kind)).with("ranks", ranks).with("factor", factor))
        << "\n#\n";
    std::snprintf(buf, sizeof buf, "# %12s %12s %6s %6s %5s %10s %8s %8s %6s  ", "size", "count", "type", "redop",
                  "root", "time", "algbw", "busbw", "#wrong");
    out << buf << say(Message("sweep.col.algorithm")) << "\n";
    out << "# " << rightAligned("(B)", 12) << " " << rightAligned(say(Message("sweep.unit.elements")), 12);
    std::snprintf(buf, sizeof buf, " %6s %6s %5s %10s %8s %8s %6s\n", "", "", "", "(us)", "(GB/s)", "(GB/s)", "");
    out << buf;
    const bool reduces = kind == OpKind::AllReduce || kind == OpKind::Reduce || kind == OpKind::ReduceScatter
                         || kind == OpKind::ReduceScatterAllGather;
    const bool rooted = kind == OpKind::Broadcast || kind == OpKind::Reduce;
    const int cross = latencyBandwidthCrossover(rows);
    for (size_t i = 0; i < rows.size(); ++i) {
        const SweepRow& r = rows[i];
        const std::string wrong = r.wrong < 0 ? "N/A" : std::to_string(r.wrong);
        // live rows leave the algorithm to NCCL's tuner, which does not say what it chose
        const std::string algo = r.algorithm == Algorithm::Auto
                                     ? say(Message("sweep.nccl_choice"))
                                     : std::string(algorithmName(r.algorithm)) + "/" + protocolName(r.protocol);
        std::snprintf(buf, sizeof buf, "  %12llu %12llu %6s %6s %5d %10.2f %8.2f %8.2f %6s  ",
                      static_cast<unsigned long long>(r.bytes), static_cast<unsigned long long>(r.count),
                      r.type.c_str(), reduces ? "sum" : "none", rooted ? 0 : -1, r.timeUs, r.algbwGBps, r.busbwGBps,
                      wrong.c_str());
        out << buf << algo << (static_cast<int>(i) == cross ? "  " + say(Message("sweep.bandwidth_bound")) : "")
            << "\n";
    }
    return out.str();
}

const std::vector<std::string>& ncclTestsTableWords()
{
    static const std::vector<std::string> words = {"size",  "count",  "type",  "redop", "root", "time", "algbw",
                                                   "busbw", "#wrong", "float", "sum",   "none", "N/A"};
    return words;
}

std::string sweepJson(OpKind kind, int ranks, const std::vector<SweepRow>& rows, const std::string& mode)
{
    nlohmann::json doc = {{"collective", opName(kind)}, {"ranks", ranks}, {"mode", mode}, {"type", "float"}};
    doc["rows"] = nlohmann::json::array();
    for (const SweepRow& r : rows) {
        nlohmann::json row = {{"size", r.bytes},
                              {"count", r.count},
                              {"type", r.type},
                              {"time_us", r.timeUs},
                              {"algbw_gbps", r.algbwGBps},
                              {"busbw_gbps", r.busbwGBps},
                              {"algorithm", algorithmName(r.algorithm)},
                              {"protocol", protocolName(r.protocol)}};
        row["wrong"] = r.wrong < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.wrong);
        if (r.algorithm == Algorithm::Auto)
            row["protocol"] = nullptr; // chosen by NCCL at run time, not reported by it
        doc["rows"].push_back(row);
    }
    const int cross = latencyBandwidthCrossover(rows);
    doc["bandwidth_bound_from"] =
        cross < 0 ? nlohmann::json(nullptr) : nlohmann::json(rows[static_cast<size_t>(cross)].bytes);
    return doc.dump(2) + "\n";
}

} // namespace shardlab

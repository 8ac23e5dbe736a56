#include "shardlab/plan/compute_calibration.h"

#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"
#include "shardlab/base/resources.h"
#include "shardlab/plan/compute_model.h"

#include <algorithm>
#include <cctype>

namespace shardlab {

namespace {

using detail::json;
using detail::JsonReader;

template <class Row>
std::vector<Row> rows(JsonReader& reader, const json& doc, const char* key,
                      const std::vector<std::pair<const char*, double Row::*>>& fields, bool required)
{
    std::vector<Row> out;
    const json* list = reader.find(doc, key);
    if (!list) {
        if (required)
            reader.fail(JsonReader::key("$", key),
                        Message("error.json.missing").with("expected", Message("plan.expects.list")));
        return out;
    }
    if (!list->is_array()) {
        reader.fail(JsonReader::key("$", key), detail::foundInstead(*list, Message("plan.expects.list")));
        return out;
    }
    for (size_t i = 0; i < list->size(); ++i) {
        const std::string path = JsonReader::index(JsonReader::key("$", key), i);
        if (!reader.expectObject((*list)[i], path))
            continue;
        Row row;
        bool ok = true;
        for (const auto& [name, member] : fields) {
            const auto value = reader.number((*list)[i], path, name, true, 1e-9, 1e15);
            ok = ok && value.has_value();
            if (value)
                row.*member = *value;
        }
        if (ok)
            out.push_back(row);
    }
    return out;
}

} // namespace

Result<ComputeCalibration> computeCalibrationFromJson(const std::string& text, const std::string& origin)
{
    auto doc = detail::parseJsonText(text, origin);
    if (!doc)
        return doc.error();
    JsonReader reader(origin);
    if (!reader.expectObject(*doc, "$"))
        return reader.error();
    ComputeCalibration c;
    c.device = reader.string(*doc, "$", "device", true).value_or("");
    c.source = origin + ", measured " + reader.string(*doc, "$", "date", false).value_or("(no date)");
    const std::vector<std::pair<const char*, double GemmPoint::*>> gemm{
        {"m", &GemmPoint::m}, {"n", &GemmPoint::n}, {"k", &GemmPoint::k}, {"tflops", &GemmPoint::tflops}};
    c.gemmBf16 = rows<GemmPoint>(reader, *doc, "gemm_bf16", gemm, true);
    c.gemmFp8 = rows<GemmPoint>(reader, *doc, "gemm_fp8", gemm, false);
    c.attention = rows<AttentionPoint>(reader, *doc, "attention",
                                       {{"seq", &AttentionPoint::seq},
                                        {"heads", &AttentionPoint::heads},
                                        {"head_dim", &AttentionPoint::headDim},
                                        {"fwd_tflops", &AttentionPoint::forwardTflops},
                                        {"bwd_tflops", &AttentionPoint::backwardTflops}},
                                       false);
    struct Copy {
        double bytes = 0, gbps = 0;
    };
    for (const Copy& copy : rows<Copy>(reader, *doc, "copy", {{"bytes", &Copy::bytes}, {"gbps", &Copy::gbps}}, false))
        c.copyGBps = std::max(c.copyGBps, copy.gbps);
    if (reader.failed())
        return reader.error();
    if (c.gemmBf16.empty())
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$.gemm_bf16")
                            .with("what", Message("plan.error.no_gemms")));
    return c;
}

std::optional<ComputeCalibration> shippedComputeCalibration(const std::string& acceleratorName)
{
    std::string file;
    for (char ch : acceleratorName)
        file += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const std::filesystem::path path = resourceDirectory() / "compute" / (file + ".json");
    std::error_code ec;
    if (file.empty() || !std::filesystem::is_regular_file(path, ec))
        return std::nullopt;
    auto text = readUserFile(path, Message("error.file_kind.compute_calibration"));
    if (!text)
        return std::nullopt;
    auto calibration = computeCalibrationFromJson(*text, "resources/compute/" + file + ".json");
    if (!calibration)
        return std::nullopt;
    return *calibration;
}

Result<ComputeCalibration> loadComputeCalibration(const std::string& path)
{
    auto text = readUserFile(path, Message("error.file_kind.compute_calibration"));
    if (!text)
        return text.error();
    return computeCalibrationFromJson(*text, path);
}

Result<std::optional<ComputeCalibration>> planComputeCalibration(const Gpu& gpu,
                                                                 std::optional<ComputeCalibration> measured)
{
    const AcceleratorSpec spec = acceleratorOf(gpu);
    std::optional<ComputeCalibration> shipped = shippedComputeCalibration(spec.name);
    if (!measured)
        return shipped;
    Gpu measuredOn;
    measuredOn.name = measured->device;
    if (const std::string on = acceleratorOf(measuredOn).name; on != spec.name)
        return badInput(Message("plan.error.calibration_other_gpu")
                            .with("source", measured->source)
                            .with("device", measured->device)
                            .with("gpu", gpu.name)
                            .with("option", "--preset"));
    if (measured->attention.empty() && shipped && !shipped->attention.empty()) {
        measured->attention = shipped->attention;
        measured->source = english(Message("plan.calibration.attention_from")
                                       .with("source", measured->source)
                                       .with("shipped", shipped->source));
    }
    return measured;
}

std::string computeMeasurementJson(const ComputeMeasurementFile& file)
{
    json doc = json::object();
    doc["device"] = file.device;
    doc["sms"] = file.sms;
    doc["date"] = file.date;
    doc["tool"] = file.tool;
    json gemms = json::array();
    for (const GemmPoint& g : file.gemmBf16)
        gemms.push_back({{"m", static_cast<long long>(g.m)},
                         {"n", static_cast<long long>(g.n)},
                         {"k", static_cast<long long>(g.k)},
                         {"tflops", g.tflops}});
    doc["gemm_bf16"] = std::move(gemms);
    doc["gemm_fp8"] = json::array();
    doc["attention"] = json::array();
    json copies = json::array();
    for (const CopyPoint& c : file.copies)
        copies.push_back({{"bytes", c.bytes}, {"gbps", c.gbps}});
    doc["copy"] = std::move(copies);
    return doc.dump(1) + "\n";
}

std::vector<GemmPoint> calibrationGemmGrid()
{
    std::vector<GemmPoint> grid;
    for (double m : {512, 1024, 2048, 4096, 8192, 16384})
        for (double n : {1024, 2048, 4096, 8192, 16384, 28672, 53248})
            for (double k : {1024, 2048, 4096, 8192, 16384, 28672, 53248}) {
                if (m * n + n * k + m * k > 1.2e9 || 2 * m * n * k > 1e13)
                    continue;
                grid.push_back({m, n, k, 0});
            }
    return grid;
}

} // namespace shardlab

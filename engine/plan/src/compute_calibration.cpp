#include "shardlab/plan/compute_calibration.h"

#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"
#include "shardlab/base/resources.h"

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

} // namespace shardlab

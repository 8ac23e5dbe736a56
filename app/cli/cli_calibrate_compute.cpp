// `shardlab calibrate --compute`: cuBLAS GEMMs and device copies timed on one of this machine's
// GPUs (live/live_gemm.h), set against what the planner assumed for that GPU until now, and saved in
// the format `shardlab plan --compute FILE` reads (plan/compute_calibration.h, docs/planner.md
// "Compute calibration").
#include "cli.h"
#include "progress.h"

#include "shardlab/base/file_io.h"
#include "shardlab/live/live.h"
#include "shardlab/live/live_gemm.h"
#include "shardlab/plan/compute_calibration.h"
#include "shardlab/plan/compute_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <ostream>
#include <sstream>

namespace shardlab::cli {

namespace {

Result<std::vector<GemmShape>> parseShapes(const std::string& text)
{
    std::vector<GemmShape> shapes;
    std::stringstream list(text);
    std::string item;
    auto refuse = [&] {
        return badInput(
            Message("error.line.option_value")
                .with("option", "shapes")
                .with("value", item)
                .with("expected",
                      Message("error.expected.gemm_shapes").with("syntax", "MxNxK").with("example", "4096x4096x4096")));
    };
    while (std::getline(list, item, ',')) {
        GemmShape s;
        char x1 = 0, x2 = 0;
        std::istringstream in(item);
        if (!(in >> s.m >> x1 >> s.n >> x2 >> s.k) || (x1 != 'x' && x1 != 'X') || (x2 != 'x' && x2 != 'X')
            || !(in >> std::ws).eof())
            return refuse();
        shapes.push_back(s);
    }
    if (shapes.empty())
        return refuse();
    if (Status ok = checkGemmShapes(shapes); !ok)
        return ok.error();
    return shapes;
}

std::string today()
{
    const std::time_t now = std::time(nullptr);
    std::tm t{};
    gmtime_r(&now, &t);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &t);
    return text;
}

// "NVIDIA H200" -> "shardlab-compute-nvidia-h200.json"
std::string defaultFileName(const std::string& device)
{
    std::string slug;
    for (char c : device) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            slug += static_cast<char>(std::tolower(u));
        else if (!slug.empty() && slug.back() != '-')
            slug += '-';
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return "shardlab-compute-" + (slug.empty() ? std::string("gpu") : slug) + ".json";
}

// Measured against the planner's model before this measurement: error = (model - measured) / measured.
std::string formatTable(const GemmMeasurement& m, Io io)
{
    Gpu gpu;
    gpu.name = m.device;
    const AcceleratorSpec spec = acceleratorOf(gpu);
    const ComputeModel before(spec, Precision::Bf16, shippedComputeCalibration(spec.name));
    const std::string source = before.calibration() ? before.calibration()->source : spec.source;
    std::ostringstream out;
    out << io.say(Message("calibration.compute.title")
                      .with("device", m.device)
                      .with("sms", m.multiprocessors)
                      .with("library", m.library)
                      .with("source", source))
        << "\n";
    char line[160];
    std::snprintf(line, sizeof line, "%7s %7s %7s %14s %14s %8s\n", "m", "n", "k",
                  io.say("calibration.compute.measured").c_str(), io.say("calibration.compute.model").c_str(),
                  io.say("calibration.col.error").c_str());
    out << line;
    std::vector<double> errors;
    for (const GemmTiming& t : m.bf16) {
        const GemmShape& s = t.shape;
        const double modelUs =
            before.gemmUs(static_cast<double>(s.m), static_cast<double>(s.n), static_cast<double>(s.k));
        const double modelTflops = s.flops() / modelUs / 1e6;
        const double error = (modelTflops - t.tflops()) / t.tflops() * 100;
        errors.push_back(std::abs(error));
        std::snprintf(line, sizeof line, "%7lld %7lld %7lld %14.1f %14.1f %+8.1f\n", s.m, s.n, s.k, t.tflops(),
                      modelTflops, error);
        out << line;
    }
    if (!errors.empty()) {
        std::sort(errors.begin(), errors.end());
        out << io.say(Message("calibration.compute.summary")
                          .with("count", static_cast<int>(errors.size()))
                          .with("median", number("%.1f", errors[errors.size() / 2]))
                          .with("worst", number("%.1f", errors.back())))
            << "\n";
    }
    for (const CopyTiming& c : m.copies)
        out << io.say(Message("calibration.compute.copy")
                          .with("mib", number("%.0f", c.bytes / 2 / (1 << 20)))
                          .with("gbps", number("%.0f", c.gbps()))
                          // the rate the model gives element-wise work of these bytes
                          .with("model", number("%.0f", c.bytes / before.memoryBoundUs(c.bytes) / 1e3)))
            << "\n";
    for (const GemmShape& s : m.tooLarge)
        out << io.say(Message("calibration.compute.too_large")
                          .with("m", std::to_string(s.m))
                          .with("n", std::to_string(s.n))
                          .with("k", std::to_string(s.k)))
            << "\n";
    return out.str();
}

ComputeMeasurementFile measurementFile(const GemmMeasurement& m, const std::string& date)
{
    ComputeMeasurementFile file;
    file.device = m.device;
    file.sms = m.multiprocessors;
    file.date = date;
    file.tool = "shardlab calibrate --compute, " + m.library;
    for (const GemmTiming& t : m.bf16)
        file.gemmBf16.push_back({static_cast<double>(t.shape.m), static_cast<double>(t.shape.n),
                                 static_cast<double>(t.shape.k), t.tflops()});
    for (const CopyTiming& c : m.copies)
        file.copies.push_back({c.bytes, c.gbps()});
    return file;
}

} // namespace

int calibrateCompute(const ComputeCalibrateArgs& a, Io io)
{
    std::vector<GemmShape> shapes;
    if (a.shapes.empty()) {
        for (const GemmPoint& p : calibrationGemmGrid())
            shapes.push_back({static_cast<long long>(p.m), static_cast<long long>(p.n), static_cast<long long>(p.k)});
    } else {
        auto parsed = parseShapes(a.shapes);
        if (!parsed)
            return reportError(parsed.error(), io);
        shapes = *parsed;
    }
    const std::filesystem::path folder = std::filesystem::absolute(a.out.empty() ? "." : a.out).parent_path();
    if (std::error_code ec; !a.noSave && !std::filesystem::is_directory(folder, ec))
        return reportError(
            badInput(Message("calibration.compute.no_folder").with("option", "--out").with("folder", folder.string())),
            io);
    if (!liveBuiltIn()) {
        io.err << "shardlab: "
               << io.say(Message("cli.error.calibrate_compute_no_live")
                             .with("command", "calibrate --compute")
                             .with("why", liveBuildInfo())
                             .with("script", "bench/calibrate_compute.py"))
               << "\n";
        return kExitBadInput;
    }
    ProgressLine progress = progressLine("calibrate --compute", "GEMM");
    GemmMeasureOptions options;
    options.device = a.device;
    options.progress = [&](int done, int total, const GemmShape&) { progress.update(done, total); };
    auto measured = measureGemms(shapes, options);
    progress.finish();
    if (!measured)
        return reportError(measured.error(), io);
    if (measured->bf16.empty())
        return reportError(runFailed(Message("calibration.compute.nothing_fits")
                                         .with("device", measured->device)
                                         .with("count", static_cast<int>(shapes.size()))),
                           io);
    const std::string json = computeMeasurementJson(measurementFile(*measured, today()));
    io.out << (a.json ? json : formatTable(*measured, io));
    if (!a.noSave) {
        const std::string path = a.out.empty() ? defaultFileName(measured->device) : a.out;
        if (Status st = writeFileAtomically(path, json); !st)
            return reportError(st.error(), io);
        io.err << io.say(Message("calibration.compute.saved")
                             .with("path", path)
                             .with("command", "shardlab plan MODEL --compute " + path))
               << "\n";
    }
    return kExitOk;
}

} // namespace shardlab::cli

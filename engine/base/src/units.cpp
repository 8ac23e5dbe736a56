#include "shardlab/base/units.h"

#include "shardlab/base/visible_text.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

namespace shardlab {
namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

// Splits "16.5 GiB" into 16.5 and "GiB". Fails on anything that is not number + optional unit.
bool splitNumber(std::string_view text, double& number, std::string& unit)
{
    text = trim(text);
    size_t i = 0;
    while (i < text.size()
           && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' || text[i] == 'e' || text[i] == 'E'
               || text[i] == '+' || text[i] == '-')) {
        // 'e' only counts as an exponent when followed by a digit or sign
        if ((text[i] == 'e' || text[i] == 'E')
            && !(
                i + 1 < text.size()
                && (std::isdigit(static_cast<unsigned char>(text[i + 1])) || text[i + 1] == '-' || text[i + 1] == '+')))
            break;
        ++i;
    }
    if (i == 0)
        return false;
    std::string num(text.substr(0, i));
    char* end = nullptr;
    number = std::strtod(num.c_str(), &end);
    if (end != num.c_str() + num.size() || !std::isfinite(number))
        return false;
    unit = std::string(trim(text.substr(i)));
    return true;
}

Result<Bytes> toBytes(double number, double multiplier, std::string_view original)
{
    if (number < 0)
        return badInput(Message("error.line.size_negative").with("value", visibleText(original)));
    const double bytes = number * multiplier;
    if (bytes > static_cast<double>(kMaxBytes))
        return badInput(Message("error.line.size_over_pb").with("value", visibleText(original)));
    const double rounded = std::round(bytes);
    if (std::fabs(bytes - rounded) > 1e-6 * std::max(1.0, bytes))
        return badInput(Message("error.line.size_not_whole").with("value", visibleText(original)));
    return static_cast<Bytes>(rounded);
}

std::string threeDigits(double v)
{
    char buf[32];
    if (!(std::fabs(v) < 1e6)) { // huge, infinite or NaN: "1.23e+300", never hundreds of digits
        std::snprintf(buf, sizeof buf, "%.3g", v);
        return buf;
    }
    if (v >= 100 || std::fabs(v - std::round(v)) < 1e-9)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else if (v >= 10)
        std::snprintf(buf, sizeof buf, "%.1f", v);
    else
        std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.')
            s.pop_back();
    }
    return s;
}

} // namespace

Result<Bytes> parseSize(std::string_view text)
{
    double number = 0;
    std::string unit;
    if (!splitNumber(text, number, unit))
        return badInput(Message("error.line.size_as_typed")
                            .with("value", visibleText(text))
                            .with("examples", "\"16 GB\", \"512 MiB\""));
    struct Unit {
        const char* name;
        double mult;
    };
    static const Unit units[] = {
        {"", 1},
        {"B", 1},
        {"kB", 1e3},
        {"KB", 1e3},
        {"MB", 1e6},
        {"GB", 1e9},
        {"TB", 1e12},
        {"PB", 1e15},
        {"KiB", 1024.0},
        {"MiB", 1048576.0},
        {"GiB", 1073741824.0},
        {"TiB", 1099511627776.0},
        {"PiB", 1125899906842624.0},
    };
    for (const Unit& u : units)
        if (unit == u.name)
            return toBytes(number, u.mult, text);
    return badInput(Message("error.line.size_unit").with("value", visibleText(text)).with("unit", visibleText(unit)));
}

Result<Bytes> parseBenchSize(std::string_view text)
{
    double number = 0;
    std::string unit;
    if (!splitNumber(text, number, unit))
        return badInput(
            Message("error.line.not_a_size").with("value", visibleText(text)).with("examples", "8, 8B, 64K, 1M, 4G"));
    std::string u;
    for (char c : unit)
        u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (u.size() == 2 && u[1] == 'B')
        u.pop_back();
    else if (u.size() == 3 && u.substr(1) == "IB")
        u = u.substr(0, 1);
    double mult = 0;
    if (u.empty() || u == "B")
        mult = 1;
    else if (u == "K")
        mult = 1024.0;
    else if (u == "M")
        mult = 1048576.0;
    else if (u == "G")
        mult = 1073741824.0;
    else if (u == "T")
        mult = 1099511627776.0;
    else
        return badInput(Message("error.line.bench_size_unit").with("value", visibleText(text)));
    return toBytes(number, mult, text);
}

Result<double> parseBandwidth(std::string_view text)
{
    double number = 0;
    std::string unit;
    if (!splitNumber(text, number, unit) || number < 0)
        return badInput(Message("error.line.not_a_bandwidth").with("value", visibleText(text)));
    if (unit.empty() || unit == "GB/s" || unit == "GBps")
        return number;
    if (unit == "MB/s")
        return number / 1e3;
    if (unit == "TB/s")
        return number * 1e3;
    if (unit == "Gb/s" || unit == "Gbps" || unit == "Gbit/s")
        return number / 8.0;
    if (unit == "Tb/s")
        return number * 1e3 / 8.0;
    return badInput(
        Message("error.line.bandwidth_unit").with("value", visibleText(text)).with("unit", visibleText(unit)));
}

std::string formatBytes(Bytes bytes)
{
    static const char* names[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    double v = static_cast<double>(bytes);
    int i = 0;
    while (v >= 1000.0 && i < 5) {
        v /= 1000.0;
        ++i;
    }
    return threeDigits(v) + " " + names[i];
}

std::string formatBinaryBytes(Bytes bytes)
{
    static const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int i = 0;
    while (v >= 1024.0 && i < 4) {
        v /= 1024.0;
        ++i;
    }
    return threeDigits(v) + " " + names[i];
}

std::string formatMicros(double us)
{
    char buf[32];
    const double a = std::fabs(us);
    if (!(a < 1e12)) // past 11 days, and infinity or NaN: three significant digits, not hundreds
        std::snprintf(buf, sizeof buf, "%.3g s", us / 1e6);
    else if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%.2f s", us / 1e6);
    else if (a >= 1e3)
        std::snprintf(buf, sizeof buf, "%.2f ms", us / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.1f us", us);
    return buf;
}

Result<double> parseFlops(std::string_view text)
{
    double number = 0;
    std::string unit;
    const std::string example = "\"4 TFLOP\"";
    if (!splitNumber(text, number, unit))
        return badInput(Message("error.line.not_work").with("value", visibleText(text)).with("example", example));
    struct Unit {
        const char* name;
        double mult;
    };
    static const Unit units[] = {{"", 1},        {"FLOP", 1},     {"kFLOP", 1e3}, {"MFLOP", 1e6},
                                 {"GFLOP", 1e9}, {"TFLOP", 1e12}, {"PFLOP", 1e15}};
    for (const Unit& u : units)
        if (unit == u.name) {
            const double flops = number * u.mult;
            if (!(flops >= 0 && flops <= 1e24))
                return badInput(
                    Message("error.line.work_out_of_range").with("value", visibleText(text)).with("example", example));
            return flops;
        }
    return badInput(Message("error.line.work_unit")
                        .with("value", visibleText(text))
                        .with("unit", visibleText(unit))
                        .with("example", example));
}

std::string formatFlops(double flops)
{
    static const char* names[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP"};
    double v = std::fabs(flops);
    int i = 0;
    while (v >= 1000.0 && i < 6) {
        v /= 1000.0;
        ++i;
    }
    return (flops < 0 ? "-" : "") + threeDigits(v) + " " + names[i];
}

std::string formatBandwidth(double gbps) { return threeDigits(std::fabs(gbps)) + " GB/s"; }

std::string formatPercent(double share)
{
    const double p = share * 100;
    char buf[64];
    std::snprintf(buf, sizeof buf, std::fabs(p) < 9.95 && p != 0 ? "%.1f%%" : "%.0f%%", p);
    return buf;
}

} // namespace shardlab

#include "shardlab/sim/profiles.h"

#include "shardlab/text/foreign_text.h"

#include "shardlab/base/file_io.h"
#include "shardlab/base/json_reader.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace shardlab {

using detail::json;
using detail::JsonReader;

std::filesystem::path profileDirectory()
{
    if (const char* d = std::getenv("SHARDLAB_PROFILE_DIR"); d && *d)
        return d;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
        return std::filesystem::path(x) / "shardlab" / "profiles";
    if (const char* h = std::getenv("HOME"); h && *h)
        return std::filesystem::path(h) / ".local" / "share" / "shardlab" / "profiles";
    return std::filesystem::path(".shardlab-profiles");
}

namespace {
const char* kProtocolKeys[] = {"LL", "LL128", "Simple"};
const char* kLinkKeys[] = {"nvlink", "pcie", "cross-socket", "network"};
} // namespace

std::string profileToJson(const CostProfile& p)
{
    json doc = {{"shardlab_profile", 1},
                {"name", p.name},
                {"source", p.source},
                {"launch_us", p.launchUs},
                {"nvls_efficiency", p.nvlsEfficiency},
                {"ll_max_bus_gbps", p.llMaxBusGBps}};
    for (int i = 0; i < 3; ++i)
        doc["protocols"][kProtocolKeys[i]] = {{"base_us", p.protocol[static_cast<size_t>(i)].baseUs},
                                              {"bandwidth_factor", p.protocol[static_cast<size_t>(i)].bandwidthFactor}};
    for (int i = 0; i < 4; ++i)
        doc["links"][kLinkKeys[i]] = {{"efficiency", p.link[static_cast<size_t>(i)].efficiency},
                                      {"hop_us", p.link[static_cast<size_t>(i)].hopUs}};
    doc["compute_efficiency"] = p.computeEfficiency;
    doc["corrections"] = json::object();
    for (const auto& [k, pts] : p.corrections) {
        json arr = json::array();
        for (const CorrectionPoint& c : pts)
            arr.push_back({{"bytes", c.bytes}, {"factor", c.factor}});
        doc["corrections"][k.text()] = arr;
    }
    return doc.dump(2) + "\n";
}

Result<CostProfile> profileFromJson(const std::string& text, const std::string& origin)
{
    auto parsed = detail::parseJsonText(text, origin);
    if (!parsed)
        return parsed.error();
    json doc = std::move(parsed).value();
    JsonReader rd(origin);
    CostProfile p = CostProfile::defaults();
    if (!rd.expectObject(doc, "$"))
        return rd.error();
    rd.onlyKeys(doc, "$",
                {"shardlab_profile", "name", "source", "launch_us", "nvls_efficiency", "ll_max_bus_gbps", "protocols",
                 "links", "compute_efficiency", "corrections"});
    rd.integer(doc, "$", "shardlab_profile", true, 1, 1);
    p.name = rd.string(doc, "$", "name", true).value_or("");
    p.source = rd.string(doc, "$", "source", false).value_or("");
    p.launchUs = rd.number(doc, "$", "launch_us", false, 0, 1e6).value_or(p.launchUs);
    p.nvlsEfficiency = rd.number(doc, "$", "nvls_efficiency", false, 1e-6, 10).value_or(p.nvlsEfficiency);
    if (const json* ll = rd.find(doc, "ll_max_bus_gbps")) {
        if (!ll->is_array() || ll->size() != 2 || !(*ll)[0].is_number() || !(*ll)[1].is_number()
            || !((*ll)[0].get<double>() > 0) || !((*ll)[1].get<double>() > 0))
            rd.fail("$.ll_max_bus_gbps",
                    Message("error.says.expected").with("expected", Message("error.expects.two_caps")));
        else
            for (size_t k = 0; k < 2; ++k)
                p.llMaxBusGBps[k] = (*ll)[k].get<double>();
    }
    if (const json* prot = rd.find(doc, "protocols"); prot && rd.expectObject(*prot, "$.protocols"))
        for (int i = 0; i < 3; ++i)
            if (const json* e = rd.find(*prot, kProtocolKeys[i]);
                e && rd.expectObject(*e, std::string("$.protocols.") + kProtocolKeys[i])) {
                const std::string path = std::string("$.protocols.") + kProtocolKeys[i];
                auto& pp = p.protocol[static_cast<size_t>(i)];
                pp.baseUs = rd.number(*e, path, "base_us", false, 0, 1e6).value_or(pp.baseUs);
                pp.bandwidthFactor =
                    rd.number(*e, path, "bandwidth_factor", false, 1e-6, 10).value_or(pp.bandwidthFactor);
            }
    if (const json* links = rd.find(doc, "links"); links && rd.expectObject(*links, "$.links"))
        for (int i = 0; i < 4; ++i)
            if (const json* e = rd.find(*links, kLinkKeys[i]);
                e && rd.expectObject(*e, std::string("$.links.") + kLinkKeys[i])) {
                const std::string path = std::string("$.links.") + kLinkKeys[i];
                auto& lp = p.link[static_cast<size_t>(i)];
                lp.efficiency = rd.number(*e, path, "efficiency", false, 1e-6, 10).value_or(lp.efficiency);
                if (const json* h = rd.find(*e, "hop_us")) {
                    if (!h->is_array() || h->size() != 3 || !(*h)[0].is_number() || !(*h)[1].is_number()
                        || !(*h)[2].is_number())
                        rd.fail(path + ".hop_us",
                                Message("error.says.expected").with("expected", Message("error.expects.three_hops")));
                    else
                        for (size_t k = 0; k < 3; ++k)
                            lp.hopUs[k] = (*h)[k].get<double>();
                }
            }
    if (const json* ce = rd.find(doc, "compute_efficiency"); ce && rd.expectObject(*ce, "$.compute_efficiency"))
        for (auto it = ce->begin(); it != ce->end(); ++it) {
            if (!it->is_number() || !(it->get<double>() > 0))
                rd.fail("$.compute_efficiency." + it.key(),
                        Message("error.says.expected").with("expected", Message("error.expects.positive_number")));
            else
                p.computeEfficiency[it.key()] = it->get<double>();
        }
    if (const json* corr = rd.find(doc, "corrections"); corr && rd.expectObject(*corr, "$.corrections"))
        for (auto it = corr->begin(); it != corr->end(); ++it) {
            const std::string path = "$.corrections." + it.key();
            const std::optional<CorrectionKey> key = CorrectionKey::fromText(it.key());
            if (!key) {
                rd.fail(path,
                        Message("error.says.expected")
                            .with("expected", Message("error.expects.correction_key").with("example", "all_reduce/4")));
                continue;
            }
            if (!it->is_array()) {
                rd.fail(path, Message("error.says.expected")
                                  .with("expected", Message("error.expects.array_of").with("pair", "{bytes, factor}")));
                continue;
            }
            std::vector<CorrectionPoint> pts;
            for (size_t k = 0; k < it->size(); ++k) {
                const json& e = (*it)[k];
                const std::string ep = JsonReader::index(path, k);
                if (!rd.expectObject(e, ep))
                    continue;
                CorrectionPoint c;
                c.bytes = rd.size(e, ep, "bytes", true).value_or(1);
                c.factor = rd.number(e, ep, "factor", true, 1e-3, 1e3).value_or(1);
                if (!pts.empty() && c.bytes <= pts.back().bytes)
                    rd.fail(ep + ".bytes",
                            Message("error.says.expected").with("expected", Message("error.expects.increasing_sizes")));
                pts.push_back(c);
            }
            p.corrections[*key] = pts;
        }
    if (rd.failed())
        return rd.error();
    return p;
}

Result<CostProfile> loadProfile(const std::string& name)
{
    if (name.empty() || name == "default")
        return CostProfile::defaults();
    if (name.find('/') != std::string::npos || name.find("..") != std::string::npos)
        return badInput(Message("error.line.profile_name").with("name", name));
    const auto path = profileDirectory() / (name + ".json");
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        std::string known = "default";
        for (const std::string& n : profileNames())
            known += ", " + n;
        return badInput(Message("error.line.profile_missing")
                            .with("name", name)
                            .with("folder", profileDirectory().string())
                            .with("known", known)
                            .with("command", "shardlab calibrate --name " + name));
    }
    auto text = readUserFile(path, Message("error.file_kind.cost_profile"));
    if (!text)
        return text.error();
    return profileFromJson(*text, path.string());
}

Result<CostProfile> profileFor(const Scenario& scenario) { return loadProfile(scenario.costProfile); }

Status saveProfile(const CostProfile& profile)
{
    if (profile.name.empty() || profile.name == "default" || profile.name.find('/') != std::string::npos)
        return badInput(Message("error.line.profile_save_name").with("default", "default"));
    std::error_code ec;
    std::filesystem::create_directories(profileDirectory(), ec);
    if (ec)
        return badInput(Message("error.line.cannot_create")
                            .with("folder", profileDirectory().string())
                            .with("why", systemWords(ec.message())));
    return writeFileAtomically(profileDirectory() / (profile.name + ".json"), profileToJson(profile));
}

std::vector<std::string> profileNames()
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(profileDirectory(), ec))
        if (e.path().extension() == ".json")
            names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace shardlab

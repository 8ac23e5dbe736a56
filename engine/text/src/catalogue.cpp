#include "shardlab/text/catalogue.h"

#include <string>
#include <unordered_map>

namespace shardlab {
namespace {

// Each .inc file holds the entries of one area of the engine; add a file here when an area gets
// its own. Entries: {"id", "English", "中文"}.
constexpr CatalogueEntry kEntries[] = {
#include "catalogue/common.inc"
#include "catalogue/summary.inc"
#include "catalogue/diagnosis.inc"
#include "catalogue/hang.inc"
#include "catalogue/warnings.inc"
#include "catalogue/links.inc"
#include "catalogue/scaling.inc"
#include "catalogue/comparison.inc"
#include "catalogue/cli.inc"
#include "catalogue/report.inc"
#include "catalogue/sweep.inc"
#include "catalogue/calibration.inc"
#include "catalogue/topo.inc"
#include "catalogue/live.inc"
#include "catalogue/errors.inc"
#include "catalogue/readers.inc"
#include "catalogue/help.inc"
#include "catalogue/profile.inc"
#include "catalogue/remote.inc"
#include "catalogue/import.inc"
#include "catalogue/import_sweep.inc"
#include "catalogue/flight_recorder.inc"
#include "catalogue/plan.inc"
#include "catalogue/strategy.inc"
#include "catalogue/difference.inc"
#include "catalogue/errors_io.inc"
#include "catalogue/errors_cluster.inc"
#include "catalogue/errors_import.inc"
};

struct Index {
    std::unordered_map<std::string_view, const CatalogueEntry*> byId;
    Index()
    {
        for (const CatalogueEntry& e : kEntries)
            byId.emplace(e.id, &e);
    }
};

const Index& index()
{
    static const Index instance;
    return instance;
}

} // namespace

std::span<const CatalogueEntry> catalogue() { return kEntries; }

const std::string_view* wording(std::string_view id, Language language)
{
    const auto& byId = index().byId;
    const auto it = byId.find(id);
    if (it == byId.end())
        return nullptr;
    return language == Language::Chinese ? &it->second->zh : &it->second->en;
}

} // namespace shardlab

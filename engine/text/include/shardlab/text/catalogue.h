// The wording of every Message, in English and Simplified Chinese, side by side. The entries live
// in src/catalogue/*.inc, one file per area of the engine (summary, diagnosis, warnings, hang,
// scaling, report, cli...), each line {"id", "English {placeholder}", "中文 {placeholder}"}.
// tests/engine/text/test_catalogue.cpp checks that every entry has both languages, the same
// placeholders in both, no duplicate ids and no Latin-script words in the Chinese wording other
// than the technical terms of kTechnicalTerms.
#pragma once

#include "shardlab/text/language.h"

#include <span>
#include <string_view>

namespace shardlab {

struct CatalogueEntry {
    std::string_view id;
    std::string_view en;
    std::string_view zh;
};

std::span<const CatalogueEntry> catalogue();
// The wording of `id` in `language`; nullptr for an id the catalogue lacks.
const std::string_view* wording(std::string_view id, Language language);

} // namespace shardlab

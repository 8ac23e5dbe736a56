// The two languages ShardLab speaks, and how the command line picks one. The GUI has its own
// choice (app/gui/i18n/language.h) and passes it down as a Language.
#pragma once

#include <optional>
#include <string_view>

namespace shardlab {

enum class Language { English, Chinese };

const char* languageCode(Language language); // "en", "zh"
// "en", "zh", "zh_CN.UTF-8", "zh-Hans", "en_US", "C"...: the language part decides; nullopt for
// others. Traditional Chinese (zh_TW, zh_HK, zh-Hant) is refused rather than shown in Simplified
// characters.
std::optional<Language> languageFromCode(std::string_view code);
// LC_ALL, then LC_MESSAGES, then LANG, as setlocale() reads them; English where none says zh.
Language languageFromEnvironment();

} // namespace shardlab

#include "shardlab/text/language.h"

#include <cctype>
#include <cstdlib>
#include <string>

namespace shardlab {

const char* languageCode(Language language) { return language == Language::Chinese ? "zh" : "en"; }

std::optional<Language> languageFromCode(std::string_view code)
{
    std::string lang, rest;
    size_t i = 0;
    for (; i < code.size(); ++i) {
        const char c = code[i];
        if (c == '_' || c == '-' || c == '.' || c == '@')
            break;
        lang += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    for (; i < code.size(); ++i)
        rest += static_cast<char>(std::tolower(static_cast<unsigned char>(code[i])));
    if (lang == "zh") {
        // zh_TW, zh_HK, zh_MO and zh-Hant are Traditional Chinese: not ours to show.
        for (const char* traditional : {"tw", "hk", "mo", "hant"})
            if (rest.find(traditional) != std::string::npos)
                return std::nullopt;
        return Language::Chinese;
    }
    if (lang == "en" || lang == "c" || lang == "posix")
        return Language::English;
    return std::nullopt;
}

Language languageFromEnvironment()
{
    // setlocale()'s order: the first of these that is set decides, even when it names a language
    // we do not speak (then English).
    for (const char* var : {"LC_ALL", "LC_MESSAGES", "LANG"})
        if (const char* v = std::getenv(var); v && *v)
            return languageFromCode(v).value_or(Language::English);
    return Language::English;
}

} // namespace shardlab

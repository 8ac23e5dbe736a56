// For tests of an error that is born a Message where it arises (issue 26): the error carries its
// Message, its English is that Message's English, and its Chinese has no English word left but the
// values the input holds (`kept`: file names, keys, a program's name), no id or placeholder unfilled.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/text/message.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

namespace shardlab::test {

inline void expectBornInBothLanguages(const Error& error, const std::vector<std::string>& kept = {})
{
    SCOPED_TRACE(error.message);
    ASSERT_FALSE(error.what.empty()) << "written in English, not born a Message";
    EXPECT_EQ(english(error.what), error.message);
    const std::string zh = render(error.what, Language::Chinese);
    EXPECT_NE(zh, error.message);
    static const std::regex leftover(R"(\[[a-z_]+\.[a-z_.]+\]|\{[a-z_]+\})");
    EXPECT_FALSE(std::regex_search(zh, leftover)) << zh;
    // JSON paths ($.program[0].item) and quoted values stay as the input has them
    static const std::regex typed(R"(\$[^\s：（）]*|'[^']*'|“[^”]*”|`[^`]*`)");
    std::string joined;
    for (const std::string& w : untranslatedWords(std::regex_replace(zh, typed, " "), kept))
        joined += (joined.empty() ? "" : ", ") + w;
    EXPECT_EQ(joined, "") << zh;
}

} // namespace shardlab::test

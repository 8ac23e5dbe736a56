// The engine's message catalogue: both languages for every entry, the same placeholders in both,
// no English left in the Chinese wording, and render() filling placeholders (also nested ones).
#include "shardlab/text/catalogue.h"
#include "shardlab/text/message.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace shardlab;

namespace {

std::set<std::string> placeholders(std::string_view s)
{
    std::set<std::string> out;
    for (size_t i = s.find('{'); i != std::string_view::npos; i = s.find('{', i + 1)) {
        const size_t close = s.find('}', i);
        if (close == std::string_view::npos)
            break;
        out.emplace(s.substr(i + 1, close - i - 1));
    }
    return out;
}

} // namespace

TEST(Catalogue, EveryEntryHasBothLanguagesAndTheSamePlaceholders)
{
    ASSERT_FALSE(catalogue().empty());
    std::set<std::string_view> ids;
    for (const CatalogueEntry& e : catalogue()) {
        SCOPED_TRACE(std::string(e.id));
        EXPECT_TRUE(ids.insert(e.id).second) << "duplicate id";
        EXPECT_FALSE(e.en.empty());
        EXPECT_FALSE(e.zh.empty());
        EXPECT_EQ(placeholders(e.en), placeholders(e.zh));
    }
}

TEST(Catalogue, TheChineseWordingHasNoEnglishWords)
{
    for (const CatalogueEntry& e : catalogue()) {
        // Placeholders are filled later; their names are not text.
        std::string zh(e.zh);
        for (size_t i = zh.find('{'); i != std::string::npos; i = zh.find('{', i)) {
            const size_t close = zh.find('}', i);
            if (close == std::string::npos)
                break;
            zh.erase(i, close - i + 1);
        }
        // --help keeps what users type (options, file patterns, values: "--sizes", "*.lesson.json",
        // "START:END:FACTOR") as the English has it; every other Latin word is English left over,
        // and a Chinese description has Chinese in it.
        const bool help = e.id.starts_with("help.") && !e.id.starts_with("help.label.");
        const std::vector<std::string> kept =
            help ? std::vector<std::string>{std::string(e.en)} : std::vector<std::string>{};
        EXPECT_EQ(untranslatedWords(zh, kept), std::vector<std::string>{}) << e.id << ": " << e.zh;
        if (help) {
            EXPECT_NE(std::string(e.zh), std::string(e.en)) << e.id;
        }
    }
}

TEST(Catalogue, RenderFillsPlaceholdersAndWordsNestedMessagesInTheSameLanguage)
{
    const Message inner = verbatim("gradients");
    const Message m = Message("verbatim").with("text", inner);
    EXPECT_EQ(render(m, Language::English), "gradients");
    EXPECT_EQ(render(Message("common.none"), Language::English), "none");
    EXPECT_EQ(render(Message("common.none"), Language::Chinese), "无");
    EXPECT_EQ(render(verbatim("{x} stays"), Language::Chinese), "{x} stays"); // a value is not a pattern
}

TEST(Catalogue, ListsAndLinesKeepTheirPiecesInOrderInBothLanguages)
{
    const std::vector<Message> pieces{verbatim("a"), Message("common.none"), verbatim("c")};
    EXPECT_EQ(render(listOf(pieces), Language::English), "a, none, c");
    EXPECT_EQ(render(listOf(pieces), Language::Chinese), "a、无、c");
    EXPECT_EQ(render(linesOf(pieces), Language::English), "a\nnone\nc");
    EXPECT_EQ(render(linesOf(pieces), Language::Chinese), "a\n无\nc");
    EXPECT_EQ(render(linesOf({verbatim("one")}), Language::English), "one");
    EXPECT_EQ(render(linesOf({}), Language::English), "");
}

TEST(Catalogue, AnUnknownIdOrAMissingValueShowsInsteadOfVanishing)
{
    EXPECT_EQ(render(Message("no.such.id"), Language::Chinese), "[no.such.id]");
    EXPECT_EQ(render(Message("verbatim"), Language::English), "{text}");
    EXPECT_EQ(render(Message(), Language::English), "");
}

TEST(Language, TheLanguagePartOfALocaleDecides)
{
    EXPECT_EQ(languageFromCode("zh_CN.UTF-8"), Language::Chinese);
    EXPECT_EQ(languageFromCode("zh-Hans"), Language::Chinese);
    EXPECT_EQ(languageFromCode("zh"), Language::Chinese);
    EXPECT_EQ(languageFromCode("en_GB.UTF-8"), Language::English);
    EXPECT_EQ(languageFromCode("POSIX"), Language::English);
    EXPECT_FALSE(languageFromCode("zh_TW.UTF-8").has_value()); // Traditional: not shown in Simplified
    EXPECT_FALSE(languageFromCode("zh-Hant").has_value());
    EXPECT_FALSE(languageFromCode("fr_FR").has_value());
}

TEST(Untranslated, FindsEnglishWordsButNotTermsUnitsNumbersOrTheUsersNames)
{
    EXPECT_EQ(untranslatedWords("第 2 个 GPU 的 All-Reduce 用了 12.5 ms，总线带宽 180 GB/s（1.6x）"),
              std::vector<std::string>{});
    EXPECT_EQ(untranslatedWords("ZeRO-3 在 H200 与 NV18 上；Reduce-Scatter+All-Gather"), std::vector<std::string>{});
    EXPECT_EQ(untranslatedWords("问题：Every sync point waits"),
              (std::vector<std::string>{"Every", "sync", "point", "waits"}));
    EXPECT_EQ(untranslatedWords("rank 0 持有 gradients 的一半", {"gradients"}), std::vector<std::string>{});
    EXPECT_EQ(untranslatedWords("rank 0 持有 gradients 的一半"), std::vector<std::string>{"gradients"});
    // a command as typed, in a code span, is not prose; an unclosed backtick guards nothing
    EXPECT_EQ(untranslatedWords("可用 `shardlab sim FILE` 模拟"), std::vector<std::string>{});
    EXPECT_EQ(untranslatedWords("可用 `shardlab sim 模拟"), std::vector<std::string>{"sim"});
}

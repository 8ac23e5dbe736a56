// The data-only pickle reader (engine/import pickle_reader.h): what Python's pickle writes at
// protocols 2 and 4 (the byte strings below are pickle.dumps of the value in the comment, made with
// Python 3.12), shared containers as Python shares them, and hostile input: code it must not run,
// nesting, lengths and references that would blow up, every cut of a real dump. Every refusal is
// worded in Chinese too.
#include "shardlab/import/pickle_reader.h"

#include "shardlab/text/foreign_text.h"
#include "shardlab/text/message.h"
#include "shardlab/text/untranslated.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

namespace shardlab {
namespace {

using nlohmann::json;

template <size_t N>
std::string bytes(const char (&literal)[N])
{
    return std::string(literal, N - 1);
}

std::string fileBytes(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

// Issue 26: the refusal is born a Message, which says in both languages exactly what the catalogue's
// templates made of its English.
void expectBorn(const Error& e)
{
    SCOPED_TRACE(e.message);
    EXPECT_FALSE(e.what.empty());
    EXPECT_EQ(english(e.what), e.message);
    EXPECT_FALSE(e.what.empty());
}

std::string refusal(const std::string& pickle, const PickleLimits& limits = {})
{
    auto v = parsePickle(pickle, "t.pkl", limits);
    EXPECT_FALSE(v);
    if (v)
        return {};
    // The refusal in Chinese: a template of the catalogue, no English but the opcode's name.
    const std::string zh = worded(v.error(), Language::Chinese);
    EXPECT_NE(zh, v.error().message);
    EXPECT_EQ(worded(v.error(), Language::English), v.error().message);
    static const std::regex leftover(R"(\[error\.[a-z_.]+\]|\{[a-z_0-9]+\})");
    EXPECT_FALSE(std::regex_search(zh, leftover)) << zh;
    const auto left = untranslatedWords(zh, {"t.pkl", "GLOBAL", "REDUCE", "STACK_GLOBAL", "BUILD", "0x49", "'I'"});
    EXPECT_TRUE(left.empty()) << zh << " has English: " << left.front();
    expectBorn(v.error());
    return v.error().message;
}

TEST(PickleReader, IntegersOfEveryWidth)
{
    // [0, 1, 255, 256, 65535, 65536, -1, -2**31, 2**31, -2**40, 2**63-1, -2**63], protocol 2
    auto v = parsePickle(
        bytes("\x80\x02\x5d\x71\x00\x28\x4b\x00\x4b\x01\x4b\xff\x4d\x00\x01\x4d\xff\xff\x4a\x00\x00\x01\x00\x4a\xff\xff"
              "\xff\xff\x4a\x00\x00\x00\x80\x8a\x05\x00\x00\x00\x80\x00\x8a\x06\x00\x00\x00\x00\x00\xff\x8a\x08\xff"
              "\xff\xff\xff\xff\xff\xff\x7f\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80\x65\x2e"),
        "t.pkl");
    ASSERT_TRUE(v) << v.error().message;
    const std::vector<std::int64_t> expected = {
        0, 1, 255, 256, 65535, 65536, -1, -2147483648LL, 2147483648LL, -(std::int64_t{1} << 40), INT64_MAX, INT64_MIN};
    ASSERT_TRUE(v->is_array());
    EXPECT_EQ(v->get<std::vector<std::int64_t>>(), expected);
}

TEST(PickleReader, DictsTuplesStringsFloatsAndConstantsAtProtocols2And4)
{
    // {'a': 'héllo', 'b': (1, 2.5, None, True, False), 'c': [], 'd': {}, 'e': ('x',)}
    const json expected = {{"a", "h\xc3\xa9llo"},
                           {"b", {1, 2.5, nullptr, true, false}},
                           {"c", json::array()},
                           {"d", json::object()},
                           {"e", {"x"}}};
    auto p2 = parsePickle(
        bytes("\x80\x02\x7d\x71\x00\x28\x58\x01\x00\x00\x00\x61\x71\x01\x58\x06\x00\x00\x00\x68\xc3\xa9\x6c\x6c\x6f\x71"
              "\x02\x58\x01\x00\x00\x00\x62\x71\x03\x28\x4b\x01\x47\x40\x04\x00\x00\x00\x00\x00\x00\x4e\x88\x89\x74"
              "\x71\x04\x58\x01\x00\x00\x00\x63\x71\x05\x5d\x71\x06\x58\x01\x00\x00\x00\x64\x71\x07\x7d\x71\x08\x58"
              "\x01\x00\x00\x00\x65\x71\x09\x58\x01\x00\x00\x00\x78\x71\x0a\x85\x71\x0b\x75\x2e"),
        "t.pkl");
    ASSERT_TRUE(p2) << p2.error().message;
    EXPECT_EQ(*p2, expected);
    auto p4 = parsePickle(
        bytes("\x80\x04\x95\x3d\x00\x00\x00\x00\x00\x00\x00\x7d\x94\x28\x8c\x01\x61\x94\x8c\x06\x68\xc3\xa9\x6c\x6c\x6f"
              "\x94\x8c\x01\x62\x94\x28\x4b\x01\x47\x40\x04\x00\x00\x00\x00\x00\x00\x4e\x88\x89\x74\x94\x8c\x01\x63"
              "\x94\x5d\x94\x8c\x01\x64\x94\x7d\x94\x8c\x01\x65\x94\x8c\x01\x78\x94\x85\x94\x75\x2e"),
        "t.pkl");
    ASSERT_TRUE(p4) << p4.error().message;
    EXPECT_EQ(*p4, expected);
}

TEST(PickleReader, AContainerStoredInTheMemoWhileEmptyIsTheFilledOneWhenFetched)
{
    // x = [1, 2]; {'x': x, 'y': x}: the list is memoised empty, filled, then fetched for 'y'.
    const json expected = {{"x", {1, 2}}, {"y", {1, 2}}};
    auto p2 = parsePickle(
        bytes("\x80\x02\x7d\x71\x00\x28\x58\x01\x00\x00\x00\x78\x71\x01\x5d\x71\x02\x28\x4b\x01\x4b\x02\x65\x58\x01\x00"
              "\x00\x00\x79\x71\x03\x68\x02\x75\x2e"),
        "t.pkl");
    ASSERT_TRUE(p2) << p2.error().message;
    EXPECT_EQ(*p2, expected);
    auto p4 = parsePickle(
        bytes("\x80\x04\x95\x17\x00\x00\x00\x00\x00\x00\x00\x7d\x94\x28\x8c\x01\x78\x94\x5d\x94\x28\x4b\x01\x4b\x02\x65"
              "\x8c\x01\x79\x94\x68\x02\x75\x2e"),
        "t.pkl");
    ASSERT_TRUE(p4) << p4.error().message;
    EXPECT_EQ(*p4, expected);
}

TEST(PickleReader, CodeIsNeverRun)
{
    // os.system('echo hi') as pickle writes it: GLOBAL, arguments, REDUCE.
    const std::string global = refusal(bytes("\x80\x02\x63os\nsystem\nq\x00X\x07\x00\x00\x00"
                                             "echo hi\x85R."));
    EXPECT_EQ(
        global,
        "t.pkl: byte 2: the pickle asks to load or call a Python object (GLOBAL); ShardLab reads data only and never "
        "runs what a file asks");
    // REDUCE alone (after data), STACK_GLOBAL (protocol 4), BUILD.
    EXPECT_NE(refusal(bytes("\x80\x02N)R.")).find("(REDUCE)"), std::string::npos);
    EXPECT_NE(refusal(bytes("\x80\x04\x8c\x02os\x8c\x06system\x93.")).find("(STACK_GLOBAL)"), std::string::npos);
    EXPECT_NE(refusal(bytes("\x80\x02}}b.")).find("(BUILD)"), std::string::npos);
    // An opcode it does not read (protocol 0's INT) is refused by name, not skipped.
    EXPECT_EQ(refusal(bytes("\x80\x02I1\n.")),
              "t.pkl: byte 2: pickle opcode 0x49 'I' is not one ShardLab reads (it reads data only: "
              "dicts, lists, tuples, strings, numbers)");
}

TEST(PickleReader, NestingAndCyclesStopAtTheDepthLimit)
{
    // 100 lists, each appended to the one below it: 99 deep.
    const std::string deep = "\x80\x02" + std::string(100, ']') + std::string(99, 'a') + ".";
    EXPECT_EQ(refusal(deep), "t.pkl: byte 201: the pickle nests containers more than 64 deep");
    PickleLimits roomy;
    roomy.maxDepth = 128;
    EXPECT_TRUE(parsePickle(deep, "t.pkl", roomy));
    // A list that holds itself.
    EXPECT_NE(refusal(bytes("\x80\x02]q\x00h\x00"
                            "a."))
                  .find("more than 64 deep"),
              std::string::npos);
    // A million MARKs.
    EXPECT_NE(refusal("\x80\x02" + std::string(1000000, '(')).find("more than 64 deep"), std::string::npos);
}

TEST(PickleReader, ABillionCopiesOfOneStringStopAtTheSizeLimit)
{
    // s = 'x' * 1000; l1 = [s] * 10; l2 = [l1] * 10; ... l9: 10^9 strings of 1000 bytes.
    std::string p =
        "\x80\x02X" + std::string("\xe8\x03\x00\x00", 4) + std::string(1000, 'x') + "q" + std::string(1, '\0') + "0";
    for (int level = 1; level <= 9; ++level) {
        p += "(";
        for (int i = 0; i < 10; ++i)
            p += "h" + std::string(1, static_cast<char>(level - 1));
        p += "lq" + std::string(1, static_cast<char>(level));
        if (level < 9)
            p += "0";
    }
    p += ".";
    EXPECT_NE(refusal(p).find("the pickle would make more than 67108864 values and string bytes"), std::string::npos);
    // The same with few copies is read.
    PickleLimits limits;
    auto small = parsePickle("\x80\x02X" + std::string("\x03\x00\x00\x00", 4) + "abcq" + std::string(1, '\0') + "0(h"
                                 + std::string(1, '\0') + "h" + std::string(1, '\0') + "l.",
                             "t.pkl", limits);
    ASSERT_TRUE(small) << small.error().message;
    EXPECT_EQ(*small, json({"abc", "abc"}));
}

TEST(PickleReader, HugeLengthsAreCheckedAgainstTheBytesLeftBeforeAnythingIsAllocated)
{
    EXPECT_EQ(refusal(bytes("\x80\x02X\xff\xff\xff\x7f"
                            "abc")),
              "t.pkl: the pickle is cut short at byte 10 (the dump was not written whole)");
    EXPECT_NE(refusal(bytes("\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7f"
                            "abc"))
                  .find("cut short"),
              std::string::npos);
    EXPECT_NE(refusal(bytes("\x80\x02\x8b\xff\xff\xff\x7f\x01")).find("cut short"), std::string::npos);
    // A LONG1 of nine bytes does not fit in 64 bits.
    EXPECT_EQ(refusal(bytes("\x80\x02\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01.")),
              "t.pkl: byte 2: an integer of the pickle does not fit in 64 bits");
    PickleLimits limits;
    EXPECT_NE(refusal(bytes("\x80\x02Nr\xff\xff\xff\x7f."), limits).find("memo index is beyond"), std::string::npos);
}

TEST(PickleReader, MalformedPicklesAreRefusedWithWhereAndWhat)
{
    EXPECT_EQ(refusal(bytes("{\"version\": 1}")), "t.pkl: not a pickle (it does not begin with the protocol opcode)");
    EXPECT_EQ(refusal(bytes("\x80\x06N.")), "t.pkl: pickle protocol 6 (ShardLab reads protocols 2 to 5)");
    EXPECT_EQ(refusal(bytes("\x80\x02N.N")), "t.pkl: byte 4: bytes follow the pickle's end");
    EXPECT_EQ(refusal(bytes("\x80\x02NN.")), "t.pkl: the pickle ends with 2 values on its stack instead of one");
    EXPECT_EQ(refusal(bytes("\x80\x02h\x05.")),
              "t.pkl: byte 2: the pickle refers to memo entry 5, which it never stored");
    EXPECT_EQ(refusal(bytes("\x80\x02u.")), "t.pkl: byte 2: the pickle closes a mark it never opened");
    EXPECT_EQ(refusal(bytes("\x80\x02"
                            "a.")),
              "t.pkl: byte 2: the pickle takes a value its stack does not hold");
    EXPECT_EQ(refusal(bytes("\x80\x02}(]]u.")),
              "t.pkl: byte 6: a dict key of the pickle is not a string or an integer");
    EXPECT_EQ(refusal(bytes("\x80\x02}(Nu.")), "t.pkl: byte 5: a dict of the pickle has a key without a value");
    EXPECT_EQ(refusal(bytes("\x80\x02NNa.")),
              "t.pkl: byte 4: the pickle adds items to something that is not a list or a dict");
    EXPECT_EQ(refusal(bytes("\x80\x02")), "t.pkl: the pickle is cut short at byte 2 (the dump was not written whole)");
}

TEST(PickleReader, EveryCutOfARealDumpIsRefusedAndTheWholeIsRead)
{
    const std::string whole = fileBytes(std::filesystem::path(SHARDLAB_SOURCE_DIR)
                                        / "tests/import/data/flight_recorder/hang2/fr_hang_rank1.pkl");
    ASSERT_EQ(whole.size(), 3210u);
    auto v = parsePickle(whole, "fr_hang_rank1.pkl");
    ASSERT_TRUE(v) << v.error().message;
    EXPECT_EQ((*v)["version"], "2.10");
    EXPECT_EQ((*v)["entries"].size(), 15u);
    for (size_t n = 0; n < whole.size(); ++n) {
        auto cut = parsePickle(std::string_view(whole).substr(0, n), "fr_hang_rank1.pkl");
        ASSERT_FALSE(cut) << n;
        EXPECT_FALSE(cut.error().message.empty());
        expectBorn(cut.error());
    }
}

} // namespace
} // namespace shardlab

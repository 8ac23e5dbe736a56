#include "shardlab/text/message.h"

#include "shardlab/text/catalogue.h"

#include <cmath>
#include <cstdio>

namespace shardlab {

Message& Message::arg(std::string name, std::string text)
{
    args.push_back(MessageArg{std::move(name), std::move(text), {}});
    return *this;
}

Message& Message::arg(std::string name, Message piece)
{
    MessageArg a{std::move(name), {}, {}};
    a.message.push_back(std::move(piece));
    args.push_back(std::move(a));
    return *this;
}

Message& Message::arg(std::string name, int value) { return arg(std::move(name), std::to_string(value)); }

Message verbatim(std::string text) { return Message("verbatim").with("text", std::move(text)); }

std::vector<std::string> english(const std::vector<Message>& messages)
{
    std::vector<std::string> out;
    out.reserve(messages.size());
    for (const Message& m : messages)
        out.push_back(english(m));
    return out;
}

Message listOf(std::vector<Message> pieces)
{
    if (pieces.empty())
        return {};
    Message out = std::move(pieces.back());
    for (size_t i = pieces.size() - 1; i-- > 0;)
        out = Message("common.list").with("first", std::move(pieces[i])).with("rest", std::move(out));
    return out;
}

Message linesOf(std::vector<Message> pieces)
{
    if (pieces.empty())
        return {};
    Message out = std::move(pieces.back());
    for (size_t i = pieces.size() - 1; i-- > 0;)
        out = Message("common.lines").with("first", std::move(pieces[i])).with("rest", std::move(out));
    return out;
}

std::string number(const char* format, double value)
{
    char buf[64];
    if (std::fabs(value) < 1e15) {
        std::snprintf(buf, sizeof buf, format, value);
        return buf;
    }
    // A fixed-point conversion of 1e300 is 300 digits (and of infinity "inf"): past 1e15 the
    // format's conversion is "%.3g" ("1e+300"), whatever it was, its text around it kept.
    std::string f = format;
    size_t p = f.find('%');
    while (p != std::string::npos && p + 1 < f.size() && f[p + 1] == '%')
        p = f.find('%', p + 2);
    const size_t e = p == std::string::npos ? p : f.find_first_of("fFeEgGaA", p);
    if (e != std::string::npos)
        f.replace(p, e - p + 1, "%.3g");
    std::snprintf(buf, sizeof buf, f.c_str(), value);
    return buf;
}

std::string render(const Message& message, Language language)
{
    if (message.empty())
        return {};
    const std::string_view* pattern = wording(message.id, language);
    if (!pattern)
        return "[" + message.id + "]";
    std::string out;
    out.reserve(pattern->size() + 32);
    for (size_t i = 0; i < pattern->size();) {
        const char c = (*pattern)[i];
        const size_t close = c == '{' ? pattern->find('}', i) : std::string_view::npos;
        if (close == std::string_view::npos) {
            out += c;
            ++i;
            continue;
        }
        const std::string_view name = pattern->substr(i + 1, close - i - 1);
        const MessageArg* found = nullptr;
        for (const MessageArg& a : message.args)
            if (a.name == name)
                found = &a;
        if (!found)
            out.append(*pattern, i, close - i + 1);
        else if (!found->message.empty())
            out += render(found->message.front(), language);
        else
            out += found->text;
        i = close + 1;
    }
    return out;
}

} // namespace shardlab

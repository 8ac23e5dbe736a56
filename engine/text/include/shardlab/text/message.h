// A sentence the engine wants a user to read, as data: the id of its wording in the catalogue
// (catalogue.h) and the values that fill its placeholders. The engine keeps Messages, not
// strings, wherever a sentence reaches a user (findings, warnings, the summary, the hang report,
// the lab report), so that the GUI, the command line and the report can each word it in the
// user's language (docs/translations.md, "The engine's sentences").
//
// Values are text already formatted the same way in every language (numbers with their units:
// "12.5 ms", "24 GB"; names the user chose: "gradients"), or Messages themselves, worded in the
// same language as the sentence around them.
#pragma once

#include "shardlab/text/language.h"

#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

struct Message;

struct MessageArg {
    std::string name;
    std::string text;                               // when the value is plain text
    std::vector<Message> message;                   // when it is a sentence piece to be worded: exactly one element
    bool operator==(const MessageArg& other) const; // (below: Message is complete there)
};

struct Message {
    std::string id; // "summary.straggler"; empty: no message
    std::vector<MessageArg> args;

    Message() = default;
    explicit Message(std::string messageId) : id(std::move(messageId)) {}

    Message& arg(std::string name, std::string text);
    Message& arg(std::string name, const char* text) { return arg(std::move(name), std::string(text)); }
    Message& arg(std::string name, Message piece);
    Message& arg(std::string name, int value);
    Message&& with(std::string name, std::string text) &&
    {
        arg(std::move(name), std::move(text));
        return std::move(*this);
    }
    Message&& with(std::string name, Message piece) &&
    {
        arg(std::move(name), std::move(piece));
        return std::move(*this);
    }
    Message&& with(std::string name, int value) &&
    {
        arg(std::move(name), value);
        return std::move(*this);
    }

    bool empty() const { return id.empty(); }
    bool operator==(const Message&) const = default;
};

inline bool MessageArg::operator==(const MessageArg& other) const
{
    return name == other.name && text == other.text && message == other.message;
}

// The message worded in `language`: its wording from the catalogue with every {name} replaced by
// the argument of that name (worded in the same language when it is a Message). An id the
// catalogue lacks gives "[id]" and a placeholder without an argument stays "{name}", so a mistake
// shows on screen and in tests instead of vanishing.
std::string render(const Message& message, Language language);
// The same, English: what the engine's files and logs keep beside the message.
inline std::string english(const Message& message) { return render(message, Language::English); }
// Each message's English, in order (a list of notes as files keep it).
std::vector<std::string> english(const std::vector<Message>& messages);

// Plain text as a message, for a value that must travel where a Message is expected (an error
// text from the system, a name the user chose). Worded the same in every language.
Message verbatim(std::string text);

// Pieces listed in the language of the sentence around them: "a, b, c" in English, "a、b、c" in
// Chinese (common.list_separator). An empty list is an empty message.
Message listOf(std::vector<Message> pieces);
// Pieces one per line, in order (common.lines): several refusals of one file or one model read as
// one message. An empty list is an empty message.
Message linesOf(std::vector<Message> pieces);
// A number formatted with printf's `format` ("%.1f"), as a value: the same in every language.
std::string number(const char* format, double value);

} // namespace shardlab

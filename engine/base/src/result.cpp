// Errors born as Messages, and any error worded for the user (result.h).
#include "shardlab/base/result.h"

namespace shardlab {

Error::Error(ErrorKind k, Message sentence) : kind(k), message(english(sentence)), what(std::move(sentence)) {}

Message messageOf(const Error& error) { return error.what.empty() ? verbatim(error.message) : error.what; }

std::string worded(const Error& error, Language language)
{
    if (language == Language::English)
        return error.message;
    return render(messageOf(error), language);
}

} // namespace shardlab

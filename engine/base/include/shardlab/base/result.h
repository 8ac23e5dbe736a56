// Errors as values. Every fallible engine call returns Result<T> or Status; the message is
// written for the person who has to act on it (it names the file, JSON path, rank, bytes...).
// An error is born a Message (an id of the catalogue and its values, shardlab/text/message.h), so
// that the CLI and the GUI word it in the user's language; `message` is its English, for logs,
// files and tests.
#pragma once

#include "shardlab/text/language.h"
#include "shardlab/text/message.h"

#include <string>
#include <utility>
#include <variant>

namespace shardlab {

enum class ErrorKind {
    BadInput,  // the user's file, arguments or scenario are wrong (CLI exit status 2)
    RunFailed, // the run itself failed: GPU error, out of memory, hang (CLI exit status 3)
    Cancelled, // the caller asked to stop
};

struct Error {
    ErrorKind kind = ErrorKind::BadInput;
    std::string message; // in English: english(what)
    // The sentence as data (text/message.h), worded in the user's language. Every error is born
    // one: there is no constructor from English. Empty only where an error was read back from
    // another program's English (a run stream of another version): `message` is then all there is.
    Message what;

    Error() = default;
    // Its English derived from the Message, so the two never disagree.
    Error(ErrorKind k, Message sentence);
};

// The exit statuses of `shardlab` (fixed by PRODUCT.md), and of every process of a job it runs.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;  // ErrorKind::BadInput
inline constexpr int kExitRunFailed = 3; // ErrorKind::RunFailed (and a run that was cancelled)
inline constexpr int exitStatusOf(ErrorKind kind)
{
    return kind == ErrorKind::BadInput ? kExitBadInput : kExitRunFailed;
}

inline Error badInput(Message what) { return Error(ErrorKind::BadInput, std::move(what)); }
inline Error runFailed(Message what) { return Error(ErrorKind::RunFailed, std::move(what)); }

// The error as a Message: `what`, or its English verbatim where it has none (read back from
// another program). And that message worded in `language`.
Message messageOf(const Error& error);
std::string worded(const Error& error, Language language);

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_value(std::move(value)) {}
    Result(Error error) : m_value(std::move(error)) {}

    bool ok() const { return m_value.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<0>(m_value); }
    const T& value() const& { return std::get<0>(m_value); }
    T&& value() && { return std::get<0>(std::move(m_value)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<1>(m_value); }

private:
    std::variant<T, Error> m_value;
};

class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error) : m_error(std::move(error)), m_failed(true) {}
    bool ok() const { return !m_failed; }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return m_error; }

private:
    Error m_error;
    bool m_failed = false;
};

} // namespace shardlab

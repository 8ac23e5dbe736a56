// Errors as values. Every fallible engine call returns Result<T> or Status; the message is
// written for the person who has to act on it (it names the file, JSON path, rank, bytes...).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace shardlab {

enum class ErrorKind {
    BadInput,   // the user's file, arguments or scenario are wrong (CLI exit status 2)
    RunFailed,  // the run itself failed: GPU error, out of memory, hang (CLI exit status 3)
    Cancelled,  // the caller asked to stop
};

struct Error {
    ErrorKind kind = ErrorKind::BadInput;
    std::string message;
};

// The exit statuses of `shardlab` (fixed by PRODUCT.md), and of every process of a job it runs.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;  // ErrorKind::BadInput
inline constexpr int kExitRunFailed = 3; // ErrorKind::RunFailed (and a run that was cancelled)
inline constexpr int exitStatusOf(ErrorKind kind) { return kind == ErrorKind::BadInput ? kExitBadInput : kExitRunFailed; }

inline Error badInput(std::string message) { return Error{ErrorKind::BadInput, std::move(message)}; }
inline Error runFailed(std::string message) { return Error{ErrorKind::RunFailed, std::move(message)}; }

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

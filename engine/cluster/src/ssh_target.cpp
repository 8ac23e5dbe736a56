#include "shardlab/cluster/ssh_target.h"

#include <algorithm>
#include <cstdio>

namespace shardlab {

namespace {

constexpr size_t kMaxName = 255;  // a host name, an alias, a user
constexpr size_t kMaxText = 4096; // a command, a path, a launcher

// What each field is called in the messages (error.piece.* of catalogue/remote.inc).
struct Fields {
    const char* host;
    const char* user;
    const char* port;
};
Fields fieldsOf(SshRole role)
{
    if (role == SshRole::Jump)
        return {"the jump host", "the jump host's user", "the jump host's port"};
    return {"the host", "the user", "the port"};
}
constexpr const char* kRemoteCommand = "the remote command";
constexpr const char* kRemoteShardlab = "the remote ShardLab";
constexpr const char* kLauncher = "the launcher";
constexpr const char* kConfigFile = "the ssh config file";

// What a field may hold (error.expects.* of catalogue/remote.inc).
constexpr const char* kHostRule =
    "letters, digits, '.', '-' and '_': a host name or an alias of ~/.ssh/config, or an IPv6 "
    "address in brackets";
constexpr const char* kUserRule = "letters, digits, '.', '-' and '_'";
constexpr const char* kAddressRule = "an IPv6 address: hexadecimal digits, ':' and '.'";
constexpr const char* kTextRule = "visible characters and the ordinary space U+0020";

// A field's name as a piece of a sentence, and a rule as what "(expected ...)" names: the
// catalogue's entries for the English above.
Message fieldPiece(std::string_view field)
{
    static const struct {
        std::string_view english;
        const char* id;
    } pieces[] = {{"the host", "error.piece.ssh_host"},
                  {"the user", "error.piece.ssh_user"},
                  {"the port", "error.piece.ssh_port"},
                  {"the jump host", "error.piece.ssh_jump_host"},
                  {"the jump host's user", "error.piece.ssh_jump_user"},
                  {"the jump host's port", "error.piece.ssh_jump_port"},
                  {kRemoteCommand, "error.piece.ssh_remote_command"},
                  {kRemoteShardlab, "error.piece.ssh_remote_shardlab"},
                  {kLauncher, "error.piece.ssh_launcher"},
                  {kConfigFile, "error.piece.ssh_config_file"}};
    for (const auto& p : pieces)
        if (p.english == field)
            return Message(p.id);
    return verbatim(std::string(field));
}

Message ruleMessage(std::string_view rule)
{
    if (rule == kHostRule)
        return Message("error.expects.ssh_host").with("config", "~/.ssh/config").with("address", "IPv6");
    if (rule == kUserRule)
        return Message("error.expects.ssh_user");
    if (rule == kAddressRule)
        return Message("error.expects.ssh_address").with("kind", "IPv6");
    if (rule == kTextRule)
        return Message("error.expects.ssh_text").with("space", "U+0020");
    return verbatim(std::string(rule));
}

Message portRange() { return Message("error.expects.range").with("lo", "1").with("hi", "65535"); }

// One code point of UTF-8 at `i`: its value and length, or length 0 where the bytes are not UTF-8
// (a stray continuation byte, a sequence cut short, an overlong form, a surrogate, beyond U+10FFFF).
struct CodePoint {
    char32_t value = 0;
    size_t length = 0;
};
CodePoint decodeAt(std::string_view s, size_t i)
{
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80)
        return {c, 1};
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    if (n == 0 || i + n > s.size())
        return {};
    char32_t v = n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80)
            return {};
        v = (v << 6) | (b(i + k) & 0x3F);
    }
    const char32_t least = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
    if (v < least || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return {};
    return {v, n};
}

// Characters a command, path or launcher may not hold: what a terminal or a text field does not
// show as what it is. Controls (C0, DEL, C1 with U+0085), every space of Unicode's White_Space but
// U+0020 (U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), the format and
// invisible characters (soft hyphen, zero widths, bidi controls and isolates, word joiners, the
// byte order mark, variation selectors, fillers that draw as blanks, tags) and noncharacters.
bool refusedInText(char32_t c)
{
    if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
        return true;
    if (c == 0xA0 || c == 0xAD || c == 0x34F || c == 0x61C || c == 0x115F || c == 0x1160 || c == 0x1680 || c == 0x17B4
        || c == 0x17B5 || c == 0x3164 || c == 0xFEFF || c == 0xFFA0)
        return true;
    return (c >= 0x180B && c <= 0x180F) || (c >= 0x2000 && c <= 0x200F) || (c >= 0x2028 && c <= 0x202F)
           || (c >= 0x205F && c <= 0x206F) || c == 0x3000 || (c >= 0xFE00 && c <= 0xFE0F)
           || (c >= 0xFFF0 && c <= 0xFFFB) || (c & 0xFFFE) == 0xFFFE || (c >= 0xFDD0 && c <= 0xFDEF)
           || (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE0FFF);
}

std::string codePointText(char32_t c)
{
    char buf[32];
    if (c > 0x20 && c < 0x7F)
        std::snprintf(buf, sizeof buf, "'%c' (U+%04X)", static_cast<char>(c), static_cast<unsigned>(c));
    else
        std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(c));
    return buf;
}

// `text` as a message shows it: what could not be seen (or would end the line) written as \uXXXX,
// a byte that is not UTF-8 as \xHH.
std::string shown(std::string_view text)
{
    std::string out;
    for (size_t i = 0; i < text.size();) {
        const CodePoint cp = decodeAt(text, i);
        char buf[16];
        if (cp.length == 0) {
            std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(text[i])));
            out += buf;
            ++i;
            continue;
        }
        if (refusedInText(cp.value)) {
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp.value));
            out += buf;
        } else {
            out.append(text.substr(i, cp.length));
        }
        i += cp.length;
    }
    return out;
}

// The first code point of `text` that `allowed` refuses: its position (1-based, in characters) and
// value; a byte that is not UTF-8 is reported by Status.
Status badCharacter(std::string_view field, std::string_view text, const char* rule, bool (*allowed)(char32_t))
{
    size_t position = 0;
    for (size_t i = 0; i < text.size();) {
        const CodePoint cp = decodeAt(text, i);
        if (cp.length == 0)
            return badInput(Message("error.line.ssh_not_utf8")
                                .with("piece_field", fieldPiece(field))
                                .with("position", std::to_string(i + 1)));
        ++position;
        if (!allowed(cp.value))
            return badInput(Message("error.line.ssh_character")
                                .with("piece_field", fieldPiece(field))
                                .with("value", shown(text))
                                .with("code", codePointText(cp.value))
                                .with("position", std::to_string(position))
                                .with("expected", ruleMessage(rule)));
        i += cp.length;
    }
    return {};
}

bool nameCharacter(char32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-'
           || c == '_';
}
bool addressCharacter(char32_t c)
{
    return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || (c >= '0' && c <= '9') || c == ':' || c == '.';
}
bool textCharacter(char32_t c) { return !refusedInText(c); }

// Empty, too long, or beginning with '-': what every field is checked for first.
Status checkStart(std::string_view field, std::string_view text, size_t max)
{
    if (text.empty())
        return badInput(Message("error.line.ssh_empty").with("piece_field", fieldPiece(field)));
    if (text.size() > max)
        return badInput(Message("error.line.ssh_too_long")
                            .with("piece_field", fieldPiece(field))
                            .with("length", std::to_string(text.size()))
                            .with("max", std::to_string(max)));
    if (text.front() == '-')
        return badInput(
            Message("error.line.ssh_dash").with("piece_field", fieldPiece(field)).with("value", shown(text)));
    return {};
}

Status checkName(std::string_view field, std::string_view name, const char* rule)
{
    if (Status st = checkStart(field, name, kMaxName); !st)
        return st;
    return badCharacter(field, name, rule, nameCharacter);
}

// A command, a path or a launcher: any visible text, spaces U+0020 inside only.
Status checkText(std::string_view field, std::string_view text)
{
    if (Status st = checkStart(field, text, kMaxText); !st)
        return st;
    if (Status st = badCharacter(field, text, kTextRule, textCharacter); !st)
        return st;
    if (text.front() == ' ' || text.back() == ' ')
        return badInput(
            Message("error.line.ssh_space_at_end").with("piece_field", fieldPiece(field)).with("value", shown(text)));
    return {};
}

Status checkPort(std::string_view field, std::string_view text)
{
    int port = 0;
    bool digits = !text.empty() && text.size() <= 5;
    for (char c : text) {
        digits = digits && c >= '0' && c <= '9';
        if (digits)
            port = port * 10 + (c - '0');
    }
    if (!digits || port < 1 || port > 65535)
        return badInput(Message("error.line.ssh_port")
                            .with("piece_field", fieldPiece(field))
                            .with("value", shown(text))
                            .with("expected", portRange()));
    return {};
}

Status checkDestination(const SshDestination& d, SshRole role)
{
    const Fields f = fieldsOf(role);
    if (!d.user.empty())
        if (Status st = checkName(f.user, d.user, kUserRule); !st)
            return st;
    if (d.host.find(':') != std::string::npos) { // an IPv6 address
        if (Status st = checkStart(f.host, d.host, kMaxName); !st)
            return st;
        if (Status st = badCharacter(f.host, d.host, kAddressRule, addressCharacter); !st)
            return st;
    } else if (Status st = checkName(f.host, d.host, kHostRule); !st) {
        return st;
    }
    if (d.port != 0 && (d.port < 1 || d.port > 65535))
        return badInput(Message("error.line.ssh_port")
                            .with("piece_field", fieldPiece(f.port))
                            .with("value", std::to_string(d.port))
                            .with("expected", portRange()));
    return {};
}

} // namespace

Result<SshDestination> parseSshDestination(std::string_view text, SshRole role, bool allowPort)
{
    const Fields f = fieldsOf(role);
    SshDestination d;
    std::string_view rest = text;
    if (const size_t at = rest.find('@'); at != std::string_view::npos) {
        d.user = std::string(rest.substr(0, at));
        if (d.user.empty())
            return badInput(Message("error.line.ssh_empty").with("piece_field", fieldPiece(f.user)));
        rest.remove_prefix(at + 1);
    }
    std::string_view portText;
    bool hasPort = false;
    if (!rest.empty() && rest.front() == '[') { // [IPv6] or [IPv6]:PORT
        const size_t close = rest.find(']');
        if (close == std::string_view::npos || rest.substr(1, close).find(':') == std::string_view::npos
            || (close + 1 < rest.size() && rest[close + 1] != ':'))
            return checkName(f.host, rest, kHostRule).error(); // names the '[' or ']' out of place
        d.host = std::string(rest.substr(1, close - 1));
        if (close + 1 < rest.size()) {
            hasPort = true;
            portText = rest.substr(close + 2);
        }
    } else if (const size_t colon = rest.rfind(':'); colon != std::string_view::npos && allowPort) {
        d.host = std::string(rest.substr(0, colon));
        hasPort = true;
        portText = rest.substr(colon + 1);
    } else {
        d.host = std::string(rest);
    }
    if (hasPort && !allowPort)
        return checkName(f.host, rest, kHostRule).error();
    if (d.host.find(':') != std::string::npos && rest.front() != '[')
        return checkName(f.host, d.host, kHostRule).error(); // "a:b:c": an IPv6 address needs its brackets
    if (Status st = checkDestination(d, role); !st)
        return st.error();
    if (hasPort) {
        if (Status st = checkPort(f.port, portText); !st)
            return st.error();
        d.port = std::stoi(std::string(portText));
    }
    return d;
}

std::string sshDestinationText(const SshDestination& d)
{
    std::string s = d.user.empty() ? std::string() : d.user + "@";
    s += d.host.find(':') != std::string::npos ? "[" + d.host + "]" : d.host;
    if (d.port > 0)
        s += ":" + std::to_string(d.port);
    return s;
}

Status checkRemoteCommand(std::string_view command) { return checkText(kRemoteCommand, command); }

Result<std::vector<std::string>> sshArguments(const SshTarget& target, const std::string& remoteCommand)
{
    if (Status st = checkDestination(target.destination, SshRole::Destination); !st)
        return st.error();
    if (target.jump)
        if (Status st = checkDestination(*target.jump, SshRole::Jump); !st)
            return st.error();
    if (!target.configFile.empty())
        if (Status st = checkText(kConfigFile, target.configFile); !st)
            return st.error();
    if (Status st = checkRemoteCommand(remoteCommand); !st)
        return st.error();
    std::vector<std::string> args{"-o", "BatchMode=yes",          "-o", "ConnectTimeout=20",
                                  "-o", "ServerAliveInterval=15", "-T"};
    if (target.destination.port > 0)
        args.insert(args.end(), {"-p", std::to_string(target.destination.port)});
    if (target.jump)
        args.insert(args.end(), {"-J", sshDestinationText(*target.jump)});
    if (!target.configFile.empty())
        args.insert(args.end(), {"-F", target.configFile});
    args.insert(args.end(), target.programOptions.begin(), target.programOptions.end());
    // `--`: whatever follows is the destination and the command, never an option of ssh
    const SshDestination& d = target.destination;
    args.insert(args.end(), {"--", d.user.empty() ? d.host : d.user + "@" + d.host, remoteCommand});
    return args;
}

std::string shellQuoted(std::string_view word)
{
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.'
               || c == '/' || c == '-';
    });
    if (plain)
        return std::string(word);
    std::string q = "'";
    for (char c : word) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    return q + "'";
}

Result<std::string> remoteCommandLine(const RemoteProgram& program, const std::vector<std::string>& args)
{
    std::string line;
    const auto add = [&](std::string_view word) { line += (line.empty() ? "" : " ") + shellQuoted(word); };
    if (!program.launcher.empty()) {
        if (Status st = checkText(kLauncher, program.launcher); !st)
            return st.error();
        for (size_t i = 0; i < program.launcher.size();) {
            const size_t space = program.launcher.find(' ', i);
            const size_t end = space == std::string::npos ? program.launcher.size() : space;
            if (end > i)
                add(std::string_view(program.launcher).substr(i, end - i));
            i = end + 1;
        }
    }
    if (Status st = checkText(kRemoteShardlab, program.shardlab); !st)
        return st.error();
    add(program.shardlab);
    for (const std::string& a : args)
        add(a);
    return line;
}

} // namespace shardlab

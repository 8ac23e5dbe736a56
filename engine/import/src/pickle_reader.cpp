#include "shardlab/import/pickle_reader.h"

#include "shardlab/text/message.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

namespace shardlab {

namespace {

using nlohmann::json;

// One value the pickle made. Containers are shared, as Python's are: the memo and the stack hold
// indices into the machine's arena, so that a container stored in the memo while empty and filled
// afterwards (as pickle writes every container) is the filled one when the memo gives it back.
struct Node {
    enum class Kind { Scalar, List, Dict } kind = Kind::Scalar;
    json scalar;                                      // Scalar: null, bool, integer, float or string
    std::vector<size_t> items;                        // List (and tuple): node indices
    std::vector<std::pair<std::string, size_t>> dict; // Dict: key, node index (a later key replaces)
};

std::string opcodeText(unsigned char op)
{
    static const char* const hex = "0123456789abcdef";
    std::string s = "0x";
    s += hex[op >> 4];
    s += hex[op & 15];
    if (op >= 0x21 && op < 0x7f)
        s += std::string(" '") + static_cast<char>(op) + "'";
    return s;
}

// Opcodes that name, build or call a Python object: never run.
std::optional<std::string_view> forbiddenName(unsigned char op)
{
    switch (op) {
    case 'c': return "GLOBAL";
    case 0x93: return "STACK_GLOBAL";
    case 'R': return "REDUCE";
    case 'b': return "BUILD";
    case 'i': return "INST";
    case 'o': return "OBJ";
    case 0x81: return "NEWOBJ";
    case 0x92: return "NEWOBJ_EX";
    case 0x82: return "EXT1";
    case 0x83: return "EXT2";
    case 0x84: return "EXT4";
    case 'P': return "PERSID";
    case 'Q': return "BINPERSID";
    default: return std::nullopt;
    }
}

class Machine {
public:
    Machine(std::string_view bytes, const std::string& origin, const PickleLimits& limits)
        : m_bytes(bytes), m_origin(origin), m_limits(limits)
    {
    }

    Result<json> run()
    {
        if (m_bytes.size() < 2 || static_cast<unsigned char>(m_bytes[0]) != 0x80)
            return fail(Message("error.line.pickle_not").with("file", m_origin));
        while (true) {
            if (m_pos >= m_bytes.size())
                return truncated();
            m_at = m_pos;
            const unsigned char op = static_cast<unsigned char>(m_bytes[m_pos++]);
            if (op == '.')
                break;
            if (auto st = step(op); !st)
                return st.error();
        }
        const size_t stop = m_at;
        m_at = m_pos;
        if (m_pos != m_bytes.size())
            return fail(at("error.line.pickle_trailing"));
        m_at = stop; // what toJson refuses is refused at the end
        if (m_stack.size() != 1 || !m_marks.empty())
            return fail(Message("error.line.pickle_result")
                            .with("file", m_origin)
                            .with("count", static_cast<int>(m_stack.size())));
        size_t budget = m_limits.maxCost;
        return toJson(m_stack.back(), 0, budget);
    }

private:
    Error fail(Message m) const { return badInput(std::move(m)); }
    Message at(const char* id) const { return Message(id).with("file", m_origin).with("offset", std::to_string(m_at)); }
    Error truncated() const
    {
        return fail(Message("error.line.pickle_truncated")
                        .with("file", m_origin)
                        .with("offset", std::to_string(m_bytes.size())));
    }
    Error tooBig() const
    {
        return fail(at("error.line.pickle_too_big").with("limit", std::to_string(m_limits.maxCost)));
    }
    Error tooDeep() const
    {
        return fail(at("error.line.pickle_too_deep").with("limit", static_cast<int>(m_limits.maxDepth)));
    }

    // The value as JSON: every reference to a node is copied in full, and pays for it, so that a
    // pickle that refers to one big value many times (or to a container inside itself) stops at
    // the limits instead of filling the memory.
    Result<json> toJson(size_t index, size_t depth, size_t& budget) const
    {
        if (depth > m_limits.maxDepth)
            return tooDeep();
        const Node& node = m_nodes[index];
        const size_t cost = 1 + (node.scalar.is_string() ? node.scalar.get_ref<const std::string&>().size() : 0);
        if (cost > budget)
            return tooBig();
        budget -= cost;
        if (node.kind == Node::Kind::Scalar)
            return node.scalar;
        json out = node.kind == Node::Kind::List ? json::array() : json::object();
        if (node.kind == Node::Kind::List) {
            for (size_t item : node.items) {
                auto v = toJson(item, depth + 1, budget);
                if (!v)
                    return v;
                out.push_back(std::move(*v));
            }
        } else {
            for (const auto& [key, item] : node.dict) {
                auto v = toJson(item, depth + 1, budget);
                if (!v)
                    return v;
                out[key] = std::move(*v);
            }
        }
        return out;
    }

    // `n` bytes from the input, or nullopt where fewer are left.
    std::optional<std::string_view> take(std::uint64_t n)
    {
        if (n > m_bytes.size() - m_pos)
            return std::nullopt;
        const std::string_view s = m_bytes.substr(m_pos, static_cast<size_t>(n));
        m_pos += static_cast<size_t>(n);
        return s;
    }
    std::optional<std::uint64_t> unsignedLE(size_t n)
    {
        auto s = take(n);
        if (!s)
            return std::nullopt;
        std::uint64_t v = 0;
        for (size_t i = n; i-- > 0;)
            v = (v << 8) | static_cast<unsigned char>((*s)[i]);
        return v;
    }

    Status make(Node node, size_t extraCost = 0)
    {
        const size_t cost = 1 + extraCost;
        if (cost > m_limits.maxCost - std::min(m_spent, m_limits.maxCost))
            return tooBig();
        m_spent += cost;
        m_nodes.push_back(std::move(node));
        m_stack.push_back(m_nodes.size() - 1);
        return {};
    }
    Status push(json scalar, size_t extraCost = 0)
    {
        Node n;
        n.scalar = std::move(scalar);
        return make(std::move(n), extraCost);
    }
    Status pushString(std::optional<std::string_view> s)
    {
        if (!s)
            return truncated();
        return push(json(std::string(*s)), s->size());
    }
    Status needStack(size_t n) const
    {
        const size_t floor = m_marks.empty() ? 0 : m_marks.back();
        if (m_stack.size() < floor + n)
            return fail(at("error.line.pickle_stack"));
        return {};
    }
    Result<size_t> popMark()
    {
        if (m_marks.empty())
            return fail(at("error.line.pickle_mark"));
        const size_t mark = m_marks.back();
        m_marks.pop_back();
        return mark;
    }
    // Stack items [from, end) into the container node `into`, then off the stack.
    Status fill(size_t into, size_t from)
    {
        Node& target = m_nodes[into];
        if (target.kind == Node::Kind::List) {
            for (size_t i = from; i < m_stack.size(); ++i)
                target.items.push_back(m_stack[i]);
        } else if (target.kind == Node::Kind::Dict) {
            if ((m_stack.size() - from) % 2 != 0)
                return fail(at("error.line.pickle_odd"));
            for (size_t i = from; i < m_stack.size(); i += 2) {
                const json& k = m_nodes[m_stack[i]].scalar;
                std::string key;
                if (m_nodes[m_stack[i]].kind == Node::Kind::Scalar && k.is_string())
                    key = k.get<std::string>();
                else if (m_nodes[m_stack[i]].kind == Node::Kind::Scalar && k.is_number_integer())
                    key = std::to_string(k.get<std::int64_t>());
                else
                    return fail(at("error.line.pickle_key"));
                auto same =
                    std::find_if(target.dict.begin(), target.dict.end(), [&](const auto& e) { return e.first == key; });
                if (same != target.dict.end())
                    same->second = m_stack[i + 1];
                else
                    target.dict.emplace_back(std::move(key), m_stack[i + 1]);
            }
        } else {
            return fail(at("error.line.pickle_container"));
        }
        m_stack.resize(from);
        return {};
    }
    Status pushContainer(Node::Kind kind, size_t from)
    {
        Node n;
        n.kind = kind;
        // The new node goes below its items: make it, then move it under them.
        if (auto st = make(std::move(n)); !st)
            return st;
        const size_t node = m_stack.back();
        m_stack.pop_back();
        m_stack.insert(m_stack.begin() + static_cast<std::ptrdiff_t>(from), node);
        return fill(node, from + 1);
    }
    Status memoPut(std::uint64_t index)
    {
        if (auto st = needStack(1); !st)
            return st;
        if (index >= m_limits.maxMemo)
            return fail(at("error.line.pickle_memo_big").with("limit", std::to_string(m_limits.maxMemo)));
        if (m_memo.size() <= index)
            m_memo.resize(static_cast<size_t>(index) + 1, kNone);
        m_memo[static_cast<size_t>(index)] = m_stack.back();
        return {};
    }
    Status memoGet(std::uint64_t index)
    {
        if (index >= m_memo.size() || m_memo[static_cast<size_t>(index)] == kNone)
            return fail(at("error.line.pickle_memo").with("index", std::to_string(index)));
        if (m_stack.size() >= m_limits.maxCost)
            return tooBig();
        m_stack.push_back(m_memo[static_cast<size_t>(index)]);
        return {};
    }
    // A little-endian integer of `bytes` bytes, two's complement where `isSigned`.
    Status pushInt(std::optional<std::uint64_t> raw, size_t bytes, bool isSigned)
    {
        if (!raw)
            return truncated();
        if (!isSigned || bytes == 0) {
            if (*raw > static_cast<std::uint64_t>(INT64_MAX))
                return fail(at("error.line.pickle_int"));
            return push(json(static_cast<std::int64_t>(*raw)));
        }
        std::int64_t v = 0;
        if (bytes == 8) {
            std::memcpy(&v, &*raw, sizeof v);
        } else {
            const std::uint64_t sign = std::uint64_t{1} << (8 * bytes - 1);
            v = (*raw & sign) ? static_cast<std::int64_t>(*raw) - static_cast<std::int64_t>(sign << 1)
                              : static_cast<std::int64_t>(*raw);
        }
        return push(json(v));
    }
    Status pushLong(std::optional<std::uint64_t> n)
    {
        if (!n)
            return truncated();
        if (*n > 8)
            return *n > m_bytes.size() - m_pos ? Status(truncated()) : Status(fail(at("error.line.pickle_int")));
        return pushInt(unsignedLE(static_cast<size_t>(*n)), static_cast<size_t>(*n), true);
    }
    std::optional<std::uint64_t> memoLine()
    {
        // PUT / GET (protocol 0): a decimal number and a new line.
        const size_t end = m_bytes.find('\n', m_pos);
        if (end == std::string_view::npos || end == m_pos || end - m_pos > 18)
            return std::nullopt;
        std::uint64_t v = 0;
        for (size_t i = m_pos; i < end; ++i) {
            if (m_bytes[i] < '0' || m_bytes[i] > '9')
                return std::nullopt;
            v = v * 10 + static_cast<std::uint64_t>(m_bytes[i] - '0');
        }
        m_pos = end + 1;
        return v;
    }

    Status step(unsigned char op)
    {
        switch (op) {
        case 0x80: { // PROTO
            auto v = unsignedLE(1);
            if (!v)
                return truncated();
            if (*v < 2 || *v > 5)
                return fail(
                    Message("error.line.pickle_protocol").with("file", m_origin).with("version", std::to_string(*v)));
            return {};
        }
        case 0x95: // FRAME: its length only helps a reader that reads ahead
            return unsignedLE(8) ? Status{} : Status(truncated());
        case '(':
            if (m_marks.size() >= m_limits.maxDepth * 4)
                return tooDeep();
            m_marks.push_back(m_stack.size());
            return {};
        case '}': {
            Node n;
            n.kind = Node::Kind::Dict;
            return make(std::move(n));
        }
        case ']':
        case ')': {
            Node n;
            n.kind = Node::Kind::List;
            return make(std::move(n));
        }
        case 'N': return push(json(nullptr));
        case 0x88: return push(json(true));
        case 0x89: return push(json(false));
        case 'K': return pushInt(unsignedLE(1), 1, false);
        case 'M': return pushInt(unsignedLE(2), 2, false);
        case 'J': return pushInt(unsignedLE(4), 4, true);
        case 0x8a: return pushLong(unsignedLE(1));
        case 0x8b: return pushLong(unsignedLE(4));
        case 'G': {
            auto raw = take(8);
            if (!raw)
                return truncated();
            std::uint64_t bits = 0;
            for (char c : *raw)
                bits = (bits << 8) | static_cast<unsigned char>(c); // big-endian
            double d = 0;
            std::memcpy(&d, &bits, sizeof d);
            return push(json(d));
        }
        case 'X': {
            auto n = unsignedLE(4);
            return n ? pushString(take(*n)) : Status(truncated());
        }
        case 0x8c: {
            auto n = unsignedLE(1);
            return n ? pushString(take(*n)) : Status(truncated());
        }
        case 0x8d: {
            auto n = unsignedLE(8);
            return n ? pushString(take(*n)) : Status(truncated());
        }
        case 'U': {
            auto n = unsignedLE(1);
            return n ? pushString(take(*n)) : Status(truncated());
        } // SHORT_BINSTRING (Python 2 str)
        case 'T': {
            auto n = unsignedLE(4);
            return n ? pushString(take(*n)) : Status(truncated());
        } // BINSTRING
        case 'q': {
            auto i = unsignedLE(1);
            return i ? memoPut(*i) : Status(truncated());
        }
        case 'r': {
            auto i = unsignedLE(4);
            return i ? memoPut(*i) : Status(truncated());
        }
        case 0x94: return memoPut(m_memo.size()); // MEMOIZE
        case 'h': {
            auto i = unsignedLE(1);
            return i ? memoGet(*i) : Status(truncated());
        }
        case 'j': {
            auto i = unsignedLE(4);
            return i ? memoGet(*i) : Status(truncated());
        }
        case 'p': {
            auto i = memoLine();
            return i ? memoPut(*i) : Status(fail(at("error.line.pickle_memo_line")));
        }
        case 'g': {
            auto i = memoLine();
            return i ? memoGet(*i) : Status(fail(at("error.line.pickle_memo_line")));
        }
        case '0': // POP: the top item, or a MARK with nothing above it
            if (!m_marks.empty() && m_marks.back() == m_stack.size()) {
                m_marks.pop_back();
                return {};
            }
            if (auto st = needStack(1); !st)
                return st;
            m_stack.pop_back();
            return {};
        case '1': { // POP_MARK
            auto mark = popMark();
            if (!mark)
                return mark.error();
            m_stack.resize(*mark);
            return {};
        }
        case '2': // DUP
            if (auto st = needStack(1); !st)
                return st;
            m_stack.push_back(m_stack.back());
            return {};
        case 0x85:
        case 0x86:
        case 0x87: { // TUPLE1..3
            const size_t n = op - 0x84u;
            if (auto st = needStack(n); !st)
                return st;
            return pushContainer(Node::Kind::List, m_stack.size() - n);
        }
        case 't':
        case 'l':
        case 'd': { // TUPLE, LIST, DICT of the items since MARK
            auto mark = popMark();
            if (!mark)
                return mark.error();
            return pushContainer(op == 'd' ? Node::Kind::Dict : Node::Kind::List, *mark);
        }
        case 'a':
        case 's': { // APPEND, SETITEM
            const size_t n = op == 'a' ? 1 : 2;
            if (auto st = needStack(n + 1); !st)
                return st;
            return fill(m_stack[m_stack.size() - n - 1], m_stack.size() - n);
        }
        case 'e':
        case 'u': { // APPENDS, SETITEMS
            auto mark = popMark();
            if (!mark)
                return mark.error();
            if (*mark == 0 || (!m_marks.empty() && m_marks.back() >= *mark))
                return fail(at("error.line.pickle_stack"));
            return fill(m_stack[*mark - 1], *mark);
        }
        default: break;
        }
        if (auto name = forbiddenName(op))
            return fail(at("error.line.pickle_forbidden").with("opcode", std::string(*name)));
        return fail(at("error.line.pickle_unknown").with("opcode", opcodeText(op)));
    }

    static constexpr size_t kNone = static_cast<size_t>(-1);
    std::string_view m_bytes;
    const std::string& m_origin;
    PickleLimits m_limits;
    size_t m_pos = 0, m_at = 0;
    size_t m_spent = 0;
    std::vector<Node> m_nodes;
    std::vector<size_t> m_stack;
    std::vector<size_t> m_marks;
    std::vector<size_t> m_memo;
};
} // namespace

Result<nlohmann::json> parsePickle(std::string_view bytes, const std::string& origin, const PickleLimits& limits)
{
    return Machine(bytes, origin, limits).run();
}

} // namespace shardlab

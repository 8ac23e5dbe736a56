#include "shardlab/base/message_json.h"

namespace shardlab {

using nlohmann::json;

json messageToJson(const Message& m)
{
    json args = json::object();
    for (const MessageArg& a : m.args)
        args[a.name] = a.message.empty() ? json(a.text) : messageToJson(a.message.front());
    return {{"id", m.id}, {"args", std::move(args)}};
}

Message messageFromJson(const json& j, int depth)
{
    if (!j.is_object() || depth > 16)
        return {};
    const auto id = j.find("id");
    if (id == j.end() || !id->is_string())
        return {};
    Message m(id->get<std::string>());
    if (const auto args = j.find("args"); args != j.end() && args->is_object())
        for (const auto& [name, value] : args->items()) {
            if (value.is_string())
                m.arg(name, value.get<std::string>());
            else if (Message piece = messageFromJson(value, depth + 1); !piece.empty())
                m.arg(name, std::move(piece));
        }
    return m;
}

Message messageSaying(const json* v, const std::string& english)
{
    if (!v)
        return {};
    Message m = messageFromJson(*v);
    return !m.empty() && shardlab::english(m) == english ? m : Message();
}

} // namespace shardlab

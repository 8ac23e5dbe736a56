#include "shardlab/io/result_file.h"
#include "shardlab/base/file_io.h"

#include "shardlab/base/json_reader.h"
#include "shardlab/io/run_result_io.h"
#include "shardlab/io/run_result_json.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/text/foreign_text.h"

#include <fstream>
#include <sstream>
#include <system_error>

namespace shardlab {

using nlohmann::json;

namespace {
constexpr size_t kMaxResultBytes = 1024u << 20; // 1 GiB: a million spans is ~150 MB
}

std::string serializeResult(const ResultFile& r)
{
    json doc = {{"shardlab_result", kResultFormatVersion},
                {"created_by", r.createdBy},
                {"launch", r.launch},
                {"mode", runModeName(r.run.mode)},
                {"clock", english(r.run.clockNote)},
                {"scenario", json::parse(serializeScenario(r.scenario))},
                {"run", detail::runResultToJson(r.run)}};
    // The machine in the scenario format's topology form, when it is complete enough to reload.
    if (r.machine && validateTopology(*r.machine)) {
        Scenario holder;
        holder.topology = *r.machine;
        doc["machine"] = json::parse(serializeScenario(holder)).at("topology");
    }
    return doc.dump(1) + "\n";
}

Result<ResultFile> parseResult(const std::string& text, const std::string& origin)
{
    if (text.size() > kMaxResultBytes)
        return badInput(Message("error.at")
                            .with("origin", origin)
                            .with("path", "$")
                            .with("what", Message("error.says.larger_than")
                                              .with("size", "1 GiB")
                                              .with("expected", Message("error.expects.result_file"))));
    auto parsed = detail::parseJsonText(text, origin);
    if (!parsed)
        return parsed.error();
    json doc = std::move(parsed).value();
    ResultFile r;
    try {
        using namespace detail;
        const long long version = integerAt(member(doc, "$", "shardlab_result"), "$.shardlab_result", 1, 1000);
        if (version != kResultFormatVersion)
            return badInput(Message("error.at")
                                .with("origin", origin)
                                .with("path", "$.shardlab_result")
                                .with("what", Message("error.says.format_version")
                                                  .with("version", std::to_string(version))
                                                  .with("supported", std::to_string(kResultFormatVersion))));
        r.createdBy = stringAt(member(doc, "$", "created_by"), "$.created_by");
        r.launch = stringAt(member(doc, "$", "launch"), "$.launch");
        const std::string mode = stringAt(member(doc, "$", "mode"), "$.mode");
        const std::string clock = stringAt(member(doc, "$", "clock"), "$.clock");
        auto scenario = parseScenario(member(doc, "$", "scenario").dump(), origin + " ($.scenario)");
        if (!scenario)
            return scenario.error();
        r.scenario = std::move(*scenario);
        r.run = runResultFromJson(member(doc, "$", "run"), "$.run");
        if (mode != runModeName(r.run.mode))
            return badInput(Message("error.at")
                                .with("origin", origin)
                                .with("path", "$.mode")
                                .with("what", Message("error.says.mode_differs").with("mode", mode)));
        // the run's own English (not its Message worded anew, which a later catalogue may word otherwise)
        if (clock != stringAt(member(member(doc, "$", "run"), "$.run", "clock"), "$.run.clock"))
            return badInput(Message("error.at")
                                .with("origin", origin)
                                .with("path", "$.clock")
                                .with("what", Message("error.says.clock_differs").with("path", "$.run.clock")));
        if (auto m = doc.find("machine"); m != doc.end()) {
            const json holder = {{"shardlab", kScenarioFormatVersion}, {"name", "machine"}, {"topology", *m}};
            auto machine = parseScenario(holder.dump(), origin + " ($.machine)");
            if (!machine)
                return machine.error();
            r.machine = machine->topology;
        }
    } catch (const detail::JsonPathError& e) {
        return detail::errorAt(origin, e);
    } catch (const json::exception& e) {
        return badInput(Message("error.io.in").with("origin", origin).with("what", parserMessage(e.what())));
    }
    if (Status st = checkRunAgainstScenario(r.run, r.scenario); !st)
        return badInput(
            Message("error.at").with("origin", origin).with("path", "$.run").with("what", messageOf(st.error())));
    return r;
}

Status saveResult(const ResultFile& result, const std::filesystem::path& path)
{
    return writeFileAtomically(path, serializeResult(result));
}

Result<ResultFile> loadResult(const std::filesystem::path& path)
{
    auto text =
        readUserFile(path, Message("error.file_kind.suffix").with("suffix", ".shardlab-result.json"), kMaxRunFileBytes);
    if (!text)
        return text.error();
    return parseResult(*text, path.string());
}

} // namespace shardlab

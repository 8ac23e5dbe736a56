#include "shardlab/cluster/launch.h"

#include <cctype>
#include <charconv>

extern char** environ; // POSIX

namespace shardlab {

Environment processEnvironment()
{
    Environment env;
    for (char** e = environ; e && *e; ++e) {
        const std::string kv = *e;
        const auto eq = kv.find('=');
        if (eq != std::string::npos)
            env.emplace(kv.substr(0, eq), kv.substr(eq + 1));
    }
    return env;
}

const char* launcherName(Launcher launcher)
{
    switch (launcher) {
    case Launcher::OpenMpi: return "Open MPI (mpirun)";
    case Launcher::Slurm: return "Slurm (srun)";
    case Launcher::Pmi: return "MPICH/PMI (Hydra)";
    case Launcher::SharedGpu: return "ShardLab (--share-gpu)";
    }
    return "?";
}

namespace {

const std::string* lookup(const Environment& env, const char* name)
{
    auto it = env.find(name);
    return it == env.end() ? nullptr : &it->second;
}

std::optional<int> toInt(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty())
        return std::nullopt;
    return v;
}

// Reads the named variables into a LaunchInfo, checking each; `optional` ones may be missing.
class Reader {
public:
    explicit Reader(const Environment& env) : m_env(env) {}

    // -1 when missing and optional; sets the error when present but not a number >= lo.
    int get(const char* name, bool required, int lo)
    {
        const std::string* v = lookup(m_env, name);
        if (!v) {
            if (required && m_error.empty())
                m_error = Message("error.line.variable_not_set").with("name", name);
            return -1;
        }
        m_seen += (m_seen.empty() ? "" : ", ") + std::string(name) + "=" + *v;
        auto n = toInt(*v);
        if ((!n || *n < lo) && m_error.empty())
            m_error = Message("error.line.variable_not_whole").with("name", name).with("value", *v).with("lo", lo);
        return n.value_or(-1);
    }
    void fail(Message message)
    {
        if (m_error.empty())
            m_error = std::move(message);
    }
    const Message& error() const { return m_error; }
    const std::string& seen() const { return m_seen; }

private:
    const Environment& m_env;
    Message m_error; // the first problem
    std::string m_seen;
};

Result<std::optional<LaunchInfo>> finish(Reader& rd, LaunchInfo info)
{
    info.variables = rd.seen();
    if (rd.error().empty()) {
        if (info.rank >= info.size)
            rd.fail(Message("error.line.rank_not_below").with("rank", info.rank).with("size", info.size));
        else if (info.localSize > 0 && info.localRank >= info.localSize)
            rd.fail(
                Message("error.line.local_rank_not_below").with("rank", info.localRank).with("count", info.localSize));
        else if (info.localSize > info.size)
            rd.fail(Message("error.line.more_local_than_job").with("local", info.localSize).with("size", info.size));
    }
    if (!rd.error().empty())
        return badInput(Message("error.line.inconsistent_launch")
                            .with("launcher", launcherName(info.launcher))
                            .with("reason", rd.error())
                            .with("variables", info.variables));
    return std::optional<LaunchInfo>(info);
}

} // namespace

Result<std::vector<int>> parseSlurmTasksPerNode(const std::string& text)
{
    // Slurm's compressed form: comma-separated "COUNT" or "COUNT(xREPEAT)".
    std::vector<int> out;
    size_t pos = 0;
    auto bad = [&] {
        return badInput(Message("error.cluster.slurm_tasks").with("value", text).with("example", "\"4(x2),2\""));
    };
    if (text.empty())
        return bad();
    while (pos <= text.size()) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string item = text.substr(pos, comma - pos);
        const size_t paren = item.find('(');
        auto count = toInt(item.substr(0, paren));
        int repeat = 1;
        if (paren != std::string::npos) {
            if (item.size() < paren + 4 || item.compare(paren, 2, "(x") != 0 || item.back() != ')')
                return bad();
            auto r = toInt(item.substr(paren + 2, item.size() - paren - 3));
            if (!r || *r < 1 || *r > 1'000'000)
                return bad();
            repeat = *r;
        }
        if (!count || *count < 0)
            return bad();
        out.insert(out.end(), static_cast<size_t>(repeat), *count);
        if (out.size() > 10'000'000)
            return bad();
        pos = comma + 1;
    }
    return out;
}

Result<std::optional<LaunchInfo>> detectLauncher(const Environment& env)
{
    if (lookup(env, "SHARDLAB_SHARED_RANK") || lookup(env, "SHARDLAB_SHARED_SIZE")) {
        Reader rd(env);
        LaunchInfo info;
        info.launcher = Launcher::SharedGpu;
        info.rank = rd.get("SHARDLAB_SHARED_RANK", true, 0);
        info.size = rd.get("SHARDLAB_SHARED_SIZE", true, 1);
        info.localRank = info.rank; // one machine
        info.localSize = info.size;
        info.node = 0;
        return finish(rd, info);
    }
    if (lookup(env, "OMPI_COMM_WORLD_RANK") || lookup(env, "OMPI_COMM_WORLD_SIZE")) {
        Reader rd(env);
        LaunchInfo info;
        info.launcher = Launcher::OpenMpi;
        info.rank = rd.get("OMPI_COMM_WORLD_RANK", true, 0);
        info.size = rd.get("OMPI_COMM_WORLD_SIZE", true, 1);
        info.localRank = rd.get("OMPI_COMM_WORLD_LOCAL_RANK", true, 0);
        info.localSize = std::max(0, rd.get("OMPI_COMM_WORLD_LOCAL_SIZE", false, 1));
        return finish(rd, info);
    }
    const bool slurmStep = lookup(env, "SLURM_STEP_ID") || lookup(env, "SLURM_STEP_NUM_TASKS");
    if (lookup(env, "SLURM_PROCID") && slurmStep) {
        Reader rd(env);
        LaunchInfo info;
        info.launcher = Launcher::Slurm;
        info.rank = rd.get("SLURM_PROCID", true, 0);
        info.size = lookup(env, "SLURM_STEP_NUM_TASKS") ? rd.get("SLURM_STEP_NUM_TASKS", true, 1)
                                                        : rd.get("SLURM_NTASKS", true, 1);
        info.localRank = rd.get("SLURM_LOCALID", true, 0);
        info.node = rd.get("SLURM_NODEID", false, 0);
        info.localSize = 0;
        // This node's task count: the step's per-node list at this node's index; a plain number
        // (SLURM_NTASKS_PER_NODE) when only that is given.
        for (const char* name : {"SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE"}) {
            const std::string* v = lookup(env, name);
            if (!v || info.localSize > 0)
                continue;
            auto list = parseSlurmTasksPerNode(*v);
            if (!list) {
                rd.fail(
                    Message("error.cluster.variable_says").with("name", name).with("reason", messageOf(list.error())));
                break;
            }
            const int node = std::max(info.node, 0);
            if (node < static_cast<int>(list->size()))
                info.localSize = (*list)[static_cast<size_t>(node)];
            else if (info.node >= 0)
                rd.fail(Message("error.cluster.slurm_nodes")
                            .with("name", name)
                            .with("value", *v)
                            .with("count", static_cast<int>(list->size()))
                            .with("variable", "SLURM_NODEID")
                            .with("node", info.node));
        }
        if (info.localSize == 0 && lookup(env, "SLURM_NTASKS_PER_NODE"))
            info.localSize = rd.get("SLURM_NTASKS_PER_NODE", true, 1);
        return finish(rd, info);
    }
    if (lookup(env, "PMI_RANK") || lookup(env, "PMI_SIZE")) {
        Reader rd(env);
        LaunchInfo info;
        info.launcher = Launcher::Pmi;
        info.rank = rd.get("PMI_RANK", true, 0);
        info.size = rd.get("PMI_SIZE", true, 1);
        // Hydra sets MPI_LOCALRANKID/MPI_LOCALNRANKS; without them assume one node.
        const bool local = lookup(env, "MPI_LOCALRANKID") != nullptr;
        info.localRank = local ? rd.get("MPI_LOCALRANKID", true, 0) : info.rank;
        info.localSize = local ? std::max(0, rd.get("MPI_LOCALNRANKS", false, 1)) : std::max(info.size, 0);
        return finish(rd, info);
    }
    return std::optional<LaunchInfo>();
}

std::optional<std::vector<std::string>> cudaVisibleDevices(const Environment& env)
{
    const std::string* v = lookup(env, "CUDA_VISIBLE_DEVICES");
    if (!v)
        return std::nullopt;
    std::vector<std::string> out;
    size_t pos = 0;
    while (pos <= v->size()) {
        const size_t comma = std::min(v->find(',', pos), v->size());
        std::string item = v->substr(pos, comma - pos);
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
            item.erase(item.begin());
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
            item.pop_back();
        // CUDA stops at the first entry it cannot use (e.g. "-1", often set to hide every GPU).
        const bool uuid = item.rfind("GPU-", 0) == 0 || item.rfind("MIG-", 0) == 0;
        const auto n = toInt(item);
        if (!uuid && (!n || *n < 0))
            break;
        out.push_back(item);
        pos = comma + 1;
    }
    return out;
}

Result<DeviceChoice> deviceForLocalRank(const LaunchInfo& launch, const Environment& env, int visibleDevices)
{
    const auto list = cudaVisibleDevices(env);
    DeviceChoice choice;
    if (list && list->empty())
        return badInput(Message("error.line.no_gpu_visible")
                            .with("local", launch.localRank)
                            .with("rank", launch.rank)
                            .with("size", launch.size)
                            .with("variable", "CUDA_VISIBLE_DEVICES")
                            .with("value", env.at("CUDA_VISIBLE_DEVICES"))
                            .with("example", "srun --gpus-per-task=1"));
    if (list && list->size() == 1) {
        choice.device = 0;
        choice.physical = list->front();
        choice.how = "its only visible GPU (CUDA_VISIBLE_DEVICES=" + list->front() + ")";
        return choice;
    }
    const int count = list ? static_cast<int>(list->size()) : visibleDevices;
    if (count >= 0 && launch.localRank >= count) {
        Message seen =
            list ? Message("error.line.visible_lists").with("variable", "CUDA_VISIBLE_DEVICES").with("count", count)
                 : Message(count == 1 ? "error.line.node_has_gpu" : "error.line.node_has_gpus").with("count", count);
        return badInput(Message("error.line.no_gpu_of_its_own")
                            .with("local", launch.localRank)
                            .with("rank", launch.rank)
                            .with("size", launch.size)
                            .with("reason", std::move(seen))
                            .with("count", count)
                            .with("mpirun", "mpirun --map-by ppr:" + std::to_string(count) + ":node")
                            .with("srun", "srun --ntasks-per-node=" + std::to_string(count)));
    }
    choice.device = launch.localRank;
    choice.physical = list ? (*list)[static_cast<size_t>(launch.localRank)] : std::to_string(launch.localRank);
    choice.how = list ? "local rank " + std::to_string(launch.localRank) + " of CUDA_VISIBLE_DEVICES"
                      : "local rank " + std::to_string(launch.localRank);
    return choice;
}

} // namespace shardlab

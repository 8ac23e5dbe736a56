#include "shardlab/cluster/mpi_loader.h"

#include "mpi_module.h"
#include "shardlab/text/foreign_text.h"

#include <dlfcn.h>

#include <cstdlib>
#include <system_error>

namespace shardlab {

bool mpiBuiltIn()
{
#ifdef SHARDLAB_HAVE_MPI
    return true;
#else
    return false;
#endif
}

std::vector<std::filesystem::path> mpiModuleCandidates()
{
    std::vector<std::filesystem::path> out;
    if (const char* env = std::getenv("SHARDLAB_MPI_MODULE"); env && *env)
        return {env}; // an explicit choice: that one or none
#ifdef SHARDLAB_HAVE_MPI
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec)
        out.push_back(exe.parent_path() / ".." / SHARDLAB_MPI_MODULE_INSTALL_SUBDIR / detail::kMpiModuleFile);
    out.emplace_back(SHARDLAB_MPI_MODULE_BUILD_PATH);
#endif
    return out;
}

namespace {
std::filesystem::path findModule()
{
    std::error_code ec;
    for (const auto& p : mpiModuleCandidates())
        if (std::filesystem::is_regular_file(p, ec))
            return std::filesystem::weakly_canonical(p, ec);
    return {};
}
} // namespace

Message mpiBuildInfo()
{
#ifdef SHARDLAB_HAVE_MPI
    const auto module = findModule();
    if (module.empty())
        return Message("error.line.mpi_no_module")
            .with("library", SHARDLAB_MPI_LIBRARY)
            .with("package", "shardlab-mpi")
            .with("variable", "SHARDLAB_MPI_MODULE");
    return Message("error.line.mpi_built").with("library", SHARDLAB_MPI_LIBRARY).with("module", module.string());
#else
    return Message("error.line.mpi_not_built").with("package", "libopenmpi-dev");
#endif
}

Result<std::unique_ptr<Transport>> openMpiTransport()
{
    if (!mpiBuiltIn() && !std::getenv("SHARDLAB_MPI_MODULE"))
        return badInput(Message("error.line.no_mpi")
                            .with("distribution", "Debian")
                            .with("package", "libopenmpi-dev")
                            .with("doc", "docs/mpi.md")
                            .with("command", "shardlab live FILE"));
    const auto module = findModule();
    if (module.empty()) {
        std::string where;
        for (const auto& p : mpiModuleCandidates())
            where += (where.empty() ? "" : ", ") + p.string();
        return badInput(Message("error.line.mpi_module_missing")
                            .with("module", detail::kMpiModuleFile)
                            .with("where", where)
                            .with("package", "shardlab-mpi")
                            .with("variable", "SHARDLAB_MPI_MODULE"));
    }
    // RTLD_GLOBAL: Open MPI's own plugins resolve symbols of libmpi that the module brings in.
    void* handle = dlopen(module.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle)
        return runFailed(Message("error.line.mpi_module_unloadable")
                             .with("module", module.string())
                             .with("why", systemWords(dlerror()))
                             .with("example", "libopenmpi3"));
    // Never dlclose: MPI libraries do not support being unloaded.
    auto abi = reinterpret_cast<detail::MpiAbiFn>(dlsym(handle, "shardlab_mpi_abi"));
    auto open = reinterpret_cast<detail::MpiOpenFn>(dlsym(handle, "shardlab_mpi_open"));
    if (!abi || !open)
        return runFailed(Message("error.line.mpi_module_foreign").with("module", module.string()));
    if (abi() != detail::kMpiModuleAbi)
        return runFailed(Message("error.line.mpi_module_version")
                             .with("module", module.string())
                             .with("has", std::to_string(abi()))
                             .with("needs", std::to_string(detail::kMpiModuleAbi)));
    char error[1024] = {};
    Transport* t = open(error, sizeof error);
    if (!t)
        return runFailed(Message("error.line.mpi_no_start").with("why", systemWords(error)));
    return std::unique_ptr<Transport>(t);
}

} // namespace shardlab

#include "remote/sharedgpu.h"

#include "remote/profiledialog.h"

#include "shardlab/cluster/shared_gpu_launch.h"

namespace shardlab::gui {

RemoteTarget sharedGpuTarget(const QString& shardlab, int ranks, double watchdogMs)
{
    RemoteTarget t;
    t.host = QCoreApplication::translate("shardlab::gui::SharedGpu", "this machine");
    t.onThisMachine = true;
    t.command =
        QStringLiteral("exec ") + shellQuoted(shardlab) + QStringLiteral(" live --share-gpu ") + QString::number(ranks);
    if (watchdogMs > 0)
        t.command += QStringLiteral(" --watchdog-ms ") + QString::number(watchdogMs, 'g', 10);
    t.command += QStringLiteral(" --stream -");
    return t;
}

QString sharedGpuProblem(int ranks)
{
    if (ranks >= kMinSharedGpuRanks && ranks <= kMaxSharedGpuRanks)
        return {};
    return QCoreApplication::translate("shardlab::gui::SharedGpu",
                                       "This scenario has %n GPU(s); between %1 and %2 ranks can share one GPU.",
                                       nullptr, ranks)
        .arg(kMinSharedGpuRanks)
        .arg(kMaxSharedGpuRanks);
}

} // namespace shardlab::gui

#include "resourcepaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace shardlab::gui {

namespace {
bool hasDefault(const QString& dir)
{
    return QFileInfo::exists(QDir(dir).filePath(QStringLiteral("scenarios/default.shardlab.json")));
}
} // namespace

QString resourceDir()
{
    QStringList candidates;
    const QString env = qEnvironmentVariable("SHARDLAB_RESOURCES");
    if (!env.isEmpty())
        candidates << env;
    if (QCoreApplication::instance())
        candidates << QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/shardlab"));
#ifdef SHARDLAB_RESOURCE_DIR
    candidates << QStringLiteral(SHARDLAB_RESOURCE_DIR);
#endif
    for (const QString& c : candidates)
        if (hasDefault(c))
            return QDir(c).absolutePath();
    return {};
}

QString defaultScenarioPath()
{
    const QString dir = resourceDir();
    return dir.isEmpty() ? QString() : QDir(dir).filePath(QStringLiteral("scenarios/default.shardlab.json"));
}

QStringList exampleScenarios()
{
    const QString dir = resourceDir();
    if (dir.isEmpty())
        return {};
    QStringList out;
    const QDir d(QDir(dir).filePath(QStringLiteral("scenarios")));
    for (const QString& f : d.entryList({QStringLiteral("*.shardlab.json")}, QDir::Files, QDir::Name))
        out << d.filePath(f);
    return out;
}

} // namespace shardlab::gui

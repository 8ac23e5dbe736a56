#include "common/resourcepaths.h"

#include "shardlab/base/resources.h"

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
    const QString dir = QString::fromStdString(resourceDirectory().string());
    return hasDefault(dir) ? QDir(dir).absolutePath() : QString();
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

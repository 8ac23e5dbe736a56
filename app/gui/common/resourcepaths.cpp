#include "common/resourcepaths.h"

#include "i18n/language.h"

#include "shardlab/base/resources.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/lessons/lessons.h"

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

QList<ExampleScenario> examplesInCourseOrder(const QString& lessonDir)
{
    const QStringList files = exampleScenarios();
    QStringList ordered;
    const QString dir = lessonDir.isEmpty() ? QString::fromStdString(lessonDirectory().string()) : lessonDir;
    if (auto lessons = loadLessons(dir.toStdString())) { // loadLessons sorts by `order`
        for (const Lesson& l : *lessons)
            for (const std::filesystem::path& p : {l.scenarioPath(), l.compareScenarioPath()}) {
                if (p.empty())
                    continue;
                const QString path = QDir::cleanPath(QFileInfo(QString::fromStdString(p.string())).absoluteFilePath());
                for (const QString& f : files)
                    if (QDir::cleanPath(QFileInfo(f).absoluteFilePath()) == path && !ordered.contains(f))
                        ordered << f;
            }
    }
    for (const QString& f : files)
        if (!ordered.contains(f))
            ordered << f;
    QList<ExampleScenario> out;
    for (const QString& f : ordered) {
        auto scenario = loadScenario(f.toStdString());
        // the name the example opens with: in Chinese, its Chinese one (namedIn)
        QString title =
            scenario ? QString::fromStdString(namedIn(std::move(*scenario), i18n::engineLanguage()).name) : QString();
        if (title.isEmpty())
            title = QFileInfo(f).fileName().remove(QStringLiteral(".shardlab.json"));
        out.push_back({f, title});
    }
    return out;
}

} // namespace shardlab::gui

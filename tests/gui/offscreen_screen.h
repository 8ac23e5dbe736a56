// GUI tests that need a screen of a given size: the offscreen platform takes its screens from a
// JSON file (QT_QPA_PLATFORM=offscreen:configfile=FILE). Call before the QApplication exists.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QSize>
#include <QString>
#include <QtGlobal>

namespace shardlab::gui::test {

// One screen of `size` (96 dpi, no scaling). The file is written under the system's temporary
// folder, named for the size; the platform reads it once, at start.
inline void useOffscreenScreen(QSize size)
{
    const QString path =
        QDir::temp().filePath(QStringLiteral("shardlab-offscreen-%1x%2.json").arg(size.width()).arg(size.height()));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    file.write(QStringLiteral(R"({"synchronousWindowSystemEvents": false, "windowFrameMargins": true, )"
                              R"("screens": [{"name": "screen", "x": 0, "y": 0, "width": %1, "height": %2, )"
                              R"("logicalDpi": %3, "logicalBaseDpi": 96, "dpr": 1}]})")
                   .arg(size.width())
                   .arg(size.height())
                   .arg(qEnvironmentVariableIntValue("SHARDLAB_TEST_DPI") > 0
                            ? qEnvironmentVariableIntValue("SHARDLAB_TEST_DPI")
                            : 96)
                   .toUtf8());
    file.close();
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + path.toLocal8Bit());
}

} // namespace shardlab::gui::test

#include "i18n/language.h"
#include "shell/mainwindow.h"

#include <QApplication>
#include <QTimer>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("ShardLab"));
    QApplication::setOrganizationName(QStringLiteral("ShardLab"));
    QApplication::setApplicationDisplayName(QStringLiteral("ShardLab"));
    // The interface language (Preferences > Language, else the system's): before any widget.
    shardlab::gui::i18n::installTranslations(&app);
    shardlab::gui::MainWindow window;
    const QStringList args = QApplication::arguments();
    if (args.size() > 1)
        window.openFile(args.at(1));
    window.restoreWindowGeometry(); // as left, or fitted to the screen on the first start
    window.restoreLessonsDock();    // opens with the welcome on the first start
    window.show();

    // For headless runs (tools/dev.sh gui without a display, screenshots in docs and reviews):
    // SHARDLAB_SCREENSHOT=file.png saves the window once it has settled; SHARDLAB_QUIT_AFTER_MS quits.
    const QString shot = qEnvironmentVariable("SHARDLAB_SCREENSHOT");
    const int quitAfter = qEnvironmentVariableIntValue("SHARDLAB_QUIT_AFTER_MS");
    if (!shot.isEmpty())
        QTimer::singleShot(quitAfter > 1000 ? quitAfter - 500 : 1500, &window,
                           [&window, shot] { window.grab().save(shot); });
    else
        QTimer::singleShot(0, &window, &shardlab::gui::MainWindow::offerRecovery); // never block a headless run
    if (quitAfter > 0)
        QTimer::singleShot(quitAfter, &app, &QApplication::quit);
    return app.exec();
}

// The translation files (resources/translations/*.ts): every entry finished, none vanished or
// obsolete; lupdate over today's sources adds nothing unfinished and removes nothing (so a tr()
// text added without a translation fails here); every placeholder, HTML tag and accelerator of
// a source survives in its translation; the compiled .qm files are embedded and translate.
// No network, no display.
#include "tsfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <algorithm>

using namespace shardlab::test;

namespace {

QString tsPath(const QString& name) { return QDir(QStringLiteral(SHARDLAB_TRANSLATIONS_DIR)).filePath(name); }

// "%1", "%2", ..., "%n" (and QProgressBar's "%v", "%m"), sorted: each must appear in the
// translation as often as in the source.
QStringList placeholders(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("%(\\d{1,2}|n|v|m)"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(0);
    out.sort();
    return out;
}

// Tags such as <b>, </b>, <br>, <i>, <font color='#c62828'>: the same multiset.
QStringList tags(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("<(/?[a-zA-Z]+)[^>]*>"));
    QStringList out;
    for (auto it = re.globalMatch(text); it.hasNext();)
        out << it.next().captured(1).toLower();
    out.sort();
    return out;
}

// An accelerator: '&' before a letter or a placeholder, not "&&" and not an entity (&nbsp;).
bool hasAccelerator(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("(?<!&)&(?!&)(?![a-zA-Z]+;)(?=[\\w%])"));
    return re.match(text).hasMatch();
}

QString describe(const TsMessage& m) { return QStringLiteral("[%1] \"%2\"").arg(m.context, m.source); }

QString runLupdate(const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(QStringLiteral(SHARDLAB_LUPDATE), args);
    if (!p.waitForFinished(120000))
        return QStringLiteral("lupdate did not finish: ") + p.errorString();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return QStringLiteral("lupdate failed (%1): %2").arg(p.exitCode()).arg(QString::fromLocal8Bit(p.readAll()));
    return {};
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private slots:
    void filesAreComplete_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("minimum");
        // Every tr() text of app/ in Chinese; the English file holds the texts with %n.
        QTest::newRow("zh_CN") << QStringLiteral("shardlab_zh_CN.ts") << 700;
        QTest::newRow("en") << QStringLiteral("shardlab_en.ts") << 10;
    }
    void filesAreComplete()
    {
        QFETCH(QString, file);
        QFETCH(int, minimum);
        auto ts = readTsFile(tsPath(file));
        QVERIFY2(ts, qPrintable(ts.error));
        QVERIFY2(ts.messages.size() >= minimum, qPrintable(QStringLiteral("only %1 entries").arg(ts.messages.size())));
        QStringList bad;
        for (const TsMessage& m : ts.messages) {
            if (!m.type.isEmpty())
                bad << describe(m) + QStringLiteral(" is ") + m.type;
            else if (m.translations.isEmpty()
                     || std::any_of(m.translations.begin(), m.translations.end(),
                                    [](const QString& t) { return t.isEmpty(); }))
                bad << describe(m) + QStringLiteral(" has an empty translation");
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    void placeholdersTagsAndAcceleratorsSurvive_data() { filesAreComplete_data(); }
    void placeholdersTagsAndAcceleratorsSurvive()
    {
        QFETCH(QString, file);
        auto ts = readTsFile(tsPath(file));
        QVERIFY2(ts, qPrintable(ts.error));
        QStringList bad;
        for (const TsMessage& m : ts.messages) {
            if (m.numerus && ts.language == QStringLiteral("zh_CN") && m.translations.size() != 1)
                bad << describe(m) + QStringLiteral(": Chinese has one plural form");
            if (m.numerus && ts.language.startsWith(QStringLiteral("en")) && m.translations.size() != 2)
                bad << describe(m) + QStringLiteral(": English has two plural forms");
            for (const QString& t : m.translations) {
                if (placeholders(t) != placeholders(m.source))
                    bad << describe(m)
                               + QStringLiteral(": placeholders %1 became %2 in \"%3\"")
                                     .arg(placeholders(m.source).join(QLatin1Char(' ')),
                                          placeholders(t).join(QLatin1Char(' ')), t);
                if (tags(t) != tags(m.source))
                    bad << describe(m) + QStringLiteral(": HTML tags differ in \"%1\"").arg(t);
                if (hasAccelerator(m.source) && !hasAccelerator(t))
                    bad << describe(m) + QStringLiteral(": the accelerator (&) is lost in \"%1\"").arg(t);
            }
        }
        QVERIFY2(bad.isEmpty(), qPrintable(bad.join(QLatin1Char('\n'))));
    }

    // lupdate over the sources of today into a copy: nothing new to translate, nothing gone.
    void filesFollowTheSources()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QStringList options =
            QStringLiteral(SHARDLAB_LUPDATE_OPTIONS).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (const QString& name : {QStringLiteral("shardlab_zh_CN.ts"), QStringLiteral("shardlab_en.ts")}) {
            const QString copy = dir.filePath(name);
            QVERIFY(QFile::copy(tsPath(name), copy));
            QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
            QStringList args = options;
            if (name == QStringLiteral("shardlab_en.ts"))
                args << QStringLiteral("-pluralonly");
            args << QStringLiteral(SHARDLAB_APP_SOURCE_DIR) << QStringLiteral("-ts") << copy;
            const QString failure = runLupdate(args);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
            auto ts = readTsFile(copy);
            QVERIFY2(ts, qPrintable(ts.error));
            QStringList stale;
            for (const TsMessage& m : ts.messages)
                if (!m.type.isEmpty())
                    stale << describe(m) + QStringLiteral(" is ")
                                 + (m.type == QStringLiteral("unfinished") ? QStringLiteral("new in the sources")
                                                                           : QStringLiteral("gone from the sources"));
            QVERIFY2(stale.isEmpty(),
                     qPrintable(name
                                + QStringLiteral(" does not match app/: run `ninja update_translations`, translate, "
                                                 "and commit (docs/translations.md).\n")
                                + stale.join(QLatin1Char('\n'))));
        }
    }

    // The build compiled the .ts files and embedded them; a few texts translate as shipped.
    void embeddedTranslationsLoad()
    {
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/shardlab_zh_CN.qm")));
        QCOMPARE(zh.translate("shardlab::gui::MainWindow", "&File"), QStringLiteral("文件(&F)"));
        QCOMPARE(zh.translate("shardlab::gui::MainWindow", "%n GPU(s)", nullptr, 3), QStringLiteral("%n 张 GPU"));
        QTranslator en;
        QVERIFY(en.load(QStringLiteral(":/i18n/shardlab_en.qm")));
        QCOMPARE(en.translate("shardlab::gui::MainWindow", "%n GPU(s)", nullptr, 1), QStringLiteral("%n GPU"));
        QCOMPARE(en.translate("shardlab::gui::MainWindow", "%n GPU(s)", nullptr, 4), QStringLiteral("%n GPUs"));

        // Every finished Chinese entry is in the .qm under its context.
        auto ts = readTsFile(tsPath(QStringLiteral("shardlab_zh_CN.ts")));
        QVERIFY2(ts, qPrintable(ts.error));
        QStringList missing;
        for (const TsMessage& m : ts.messages) {
            const QByteArray ctx = m.context.toUtf8(), src = m.source.toUtf8();
            const QString got = zh.translate(ctx.constData(), src.constData(), nullptr, m.numerus ? 2 : -1);
            if (got != m.translations.value(0))
                missing << describe(m);
        }
        QVERIFY2(missing.isEmpty(), qPrintable(missing.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "test_translations.moc"

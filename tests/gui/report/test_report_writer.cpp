// The GUI's report action helper: writes HTML and PDF, on this thread or a worker, and drops a
// report that a newer one superseded.
#include "i18n/language.h"
#include "report/report_writer.h"
#include "shardlab/io/scenario_io.h"

#include <QAction>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWidget>
#include <QtTest>

using namespace shardlab;
using namespace shardlab::gui;

class TestReportWriter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void writesHtmlAndPdf();
    void buildsOnAWorkerThread();
    void aNewerReportSupersedesAnOlderOne();
    void failuresAreSignalled();
    void actionForTheMainWindow();
    void writesInTheInterfaceLanguage();

private:
    Scenario m_scenario;
    QTemporaryDir m_dir;
};

void TestReportWriter::init()
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/straggler-12-6-4-2.shardlab.json");
    QVERIFY(s.ok());
    m_scenario = *s;
}

void TestReportWriter::writesHtmlAndPdf()
{
    ReportWriter writer;
    writer.setScenario(m_scenario, QStringLiteral("straggler-12-6-4-2.shardlab.json"));
    const QString html = m_dir.filePath(QStringLiteral("r.html"));
    QVERIFY(writer.write(html).ok());
    QFile h(html);
    QVERIFY(h.open(QIODevice::ReadOnly));
    const QByteArray text = h.readAll();
    QVERIFY(text.contains("id=\"per-rank-output\""));
    QVERIFY(text.contains("the straggler is rank 0"));
    const QString pdf = m_dir.filePath(QStringLiteral("r.pdf"));
    QVERIFY(writer.write(pdf).ok());
    QFile p(pdf);
    QVERIFY(p.open(QIODevice::ReadOnly));
    QVERIFY(p.readAll().startsWith("%PDF-"));
}

// By default the report speaks the interface language (English here: no translator installed);
// setLanguage() chooses another.
void TestReportWriter::writesInTheInterfaceLanguage()
{
    QCOMPARE(i18n::engineLanguage(), Language::English);
    ReportWriter writer;
    writer.setScenario(m_scenario);
    const QString html = m_dir.filePath(QStringLiteral("lang.html"));
    QVERIFY(writer.write(html).ok());
    QFile en(html);
    QVERIFY(en.open(QIODevice::ReadOnly));
    QVERIFY(en.readAll().contains("<html lang=\"en\">"));
    writer.setLanguage(Language::Chinese);
    QVERIFY(writer.write(html).ok());
    QFile zh(html);
    QVERIFY(zh.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(zh.readAll());
    QVERIFY(text.contains(QStringLiteral("<html lang=\"zh-CN\">")));
    QVERIFY(text.contains(QStringLiteral("1. 各 Rank 的输出")));
}

void TestReportWriter::buildsOnAWorkerThread()
{
    ReportWriter writer;
    writer.setScenario(m_scenario);
    writer.setSizes({1 << 20, 8 << 20, 64 << 20});
    QSignalSpy done(&writer, &ReportWriter::reportAvailable);
    const QString path = m_dir.filePath(QStringLiteral("async.pdf"));
    writer.start(path);
    QVERIFY(writer.isRunning());
    QVERIFY(done.wait(60000));
    QVERIFY(!writer.isRunning());
    QCOMPARE(done.at(0).at(0).toString(), path);
    QVERIFY(QFileInfo(path).size() > 1000);
}

void TestReportWriter::aNewerReportSupersedesAnOlderOne()
{
    ReportWriter writer;
    writer.setScenario(m_scenario);
    QSignalSpy done(&writer, &ReportWriter::reportAvailable);
    const QString first = m_dir.filePath(QStringLiteral("first.html"));
    const QString second = m_dir.filePath(QStringLiteral("second.html"));
    writer.start(first);
    writer.start(second);
    QVERIFY(done.wait(60000));
    // both jobs' work has come back (the first's dropped): nothing else can arrive
    QTRY_COMPARE_WITH_TIMEOUT(writer.pendingJobs(), 0, 60000);
    QCOMPARE(done.count(), 1);
    QCOMPARE(done.at(0).at(0).toString(), second);
    QVERIFY(!QFileInfo::exists(first));
}

void TestReportWriter::failuresAreSignalled()
{
    ReportWriter writer;
    writer.setScenario(m_scenario);
    QSignalSpy failed(&writer, &ReportWriter::failed);
    writer.start(m_dir.filePath(QStringLiteral("report.txt")));
    QVERIFY(failed.wait(60000));
    QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral(".html or .pdf")));
    Scenario broken = m_scenario;
    broken.program[1].group = {7};
    writer.setScenario(broken);
    const auto st = writer.write(m_dir.filePath(QStringLiteral("x.html")));
    QVERIFY(!st.ok());
    QCOMPARE(st.error().kind, ErrorKind::BadInput);
}

void TestReportWriter::actionForTheMainWindow()
{
    QWidget window;
    ReportWriter writer;
    QAction* action = writer.createAction(&window);
    QVERIFY(action);
    QCOMPARE(action->parent(), &window);
    QVERIFY(action->text().startsWith(QStringLiteral("Lab report")));
    QVERIFY(!action->toolTip().isEmpty());
}

QTEST_MAIN(TestReportWriter)
#include "test_report_writer.moc"

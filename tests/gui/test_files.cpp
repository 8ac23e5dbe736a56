// File handling: save then load gives the same scenario; a corrupt file leaves the open document
// unchanged and says what is wrong; unsaved-changes prompts; recent files; autosave and recovery.
#include "gui_test_main.h"
#include "../common/full_disk.h"
#include "document/autosave.h"
#include "document/document.h"
#include "document/documentcontroller.h"
#include "document/edits.h"
#include "document/recentfiles.h"
#include "gui_test_helpers.h"
#include "shardlab/io/scenario_io.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace shardlab;
using namespace shardlab::gui;

// A document with its file handling, answering questions from a script.
struct Session {
    Document doc;
    test::ScriptedPrompter prompter;
    RecentFiles recent;
    DocumentController files{&doc, &prompter, &recent};
};

class TestFiles : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString path(const QString& name) const { return QDir(m_dir.path()).filePath(name); }
    static void write(const QString& file, const QByteArray& text)
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(text);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("ShardLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("shardlab-test-files"));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }

    void saveThenLoadGivesTheSameScenario()
    {
        Session session;
        auto& [doc, prompter, recent, files] = session;
        QVERIFY(files.openPath(QStringLiteral(SHARDLAB_SCENARIO_DIR "/default.shardlab.json")));
        // edit it in several ways so that the file holds explicit shards, a new machine, a new step
        QVERIFY(Edits::splitItem(doc, 4, evenShards(2'000'000'000ULL, 7)).ok());
        QVERIFY(Edits::dropShards(doc, {ShardRef{4, 6, 3}}, 0, true).ok());
        QVERIFY(Edits::setGpuTflops(doc, 2, 9.5).ok());
        Op bcast;
        bcast.kind = OpKind::Broadcast;
        bcast.name = "weights";
        bcast.item = "parameters";
        bcast.group = {0, 1};
        bcast.root = 1;
        QVERIFY(Edits::insertOp(doc, 1, bcast).ok());
        QVERIFY(doc.isModified());
        prompter.savePath = path(QStringLiteral("copy")); // the controller adds the extension
        QVERIFY(files.saveAs());
        QCOMPARE(doc.filePath(), path(QStringLiteral("copy.shardlab.json")));
        QVERIFY(!doc.isModified());
        auto loaded = loadScenario(doc.filePath().toStdString());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().message.c_str());
        QVERIFY(*loaded == doc.scenario());
        QCOMPARE(recent.files().first(), doc.filePath());
        // and through the controller: open it in a fresh document
        Session other;
        QVERIFY(other.files.openPath(doc.filePath()));
        QVERIFY(other.doc.scenario() == doc.scenario());
    }

    void aCorruptFileLeavesTheDocumentUnchanged()
    {
        Session session;
        auto& [doc, prompter, recent, files] = session;
        QVERIFY(files.openPath(QStringLiteral(SHARDLAB_SCENARIO_DIR "/balance-14-10.shardlab.json")));
        QVERIFY(Edits::setGpuTflops(doc, 0, 3).ok());
        const Scenario before = doc.scenario();
        const QString beforePath = doc.filePath();
        const int undoSteps = doc.undoStack()->count();
        const QString bad = path(QStringLiteral("bad.shardlab.json"));
        write(
            bad,
            R"({"shardlab": 1, "topology": {"preset": "teaching-4x16gb-pcie"}, "workload": [{"name": "x", "size": "lots"}]})");
        prompter.saveChoice = Prompter::SaveChoice::Discard;
        QVERIFY(!files.openPath(bad));
        QCOMPARE(prompter.errors.size(), 1);
        QVERIFY(prompter.errors[0].contains(QStringLiteral("bad.shardlab.json")));
        QVERIFY(prompter.errors[0].contains(QStringLiteral("$.workload[0].size")));
        QVERIFY(prompter.errors[0].contains(QStringLiteral("unchanged")));
        QVERIFY(doc.scenario() == before);
        QCOMPARE(doc.filePath(), beforePath);
        QCOMPARE(doc.undoStack()->count(), undoSteps);
        QVERIFY(doc.isModified());
        // not JSON at all, and a file that is not there
        write(bad, "{ this is not json");
        QVERIFY(!files.openPath(bad));
        QVERIFY(!files.openPath(path(QStringLiteral("missing.shardlab.json"))));
        QCOMPARE(prompter.errors.size(), 3);
        QVERIFY(doc.scenario() == before);
    }

    void unsavedChangesAreAskedAbout()
    {
        Session session;
        auto& [doc, prompter, recent, files] = session;
        doc.reset(test::fourCardsOneItem(), QString());
        QVERIFY(files.maybeSave()); // nothing to save: no question
        QCOMPARE(prompter.saveQuestions, 0);
        QVERIFY(Edits::dropShards(doc, {ShardRef{0, 0, -1}}, 0, false).ok());
        prompter.saveChoice = Prompter::SaveChoice::Cancel;
        QVERIFY(!files.newDocument());
        QVERIFY(doc.isModified());
        prompter.saveChoice = Prompter::SaveChoice::Save;
        prompter.savePath = QString(); // the user cancels the file dialog: nothing is replaced
        QVERIFY(!files.newDocument());
        prompter.savePath = path(QStringLiteral("kept.shardlab.json"));
        QVERIFY(files.newDocument());
        QVERIFY(QFile::exists(prompter.savePath));
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.scenario().ranks(), 4);
        QVERIFY(doc.scenario().workload.items.empty());
        QCOMPARE(prompter.saveQuestions, 3);
    }

    void recentFilesKeepTheNewestEight()
    {
        RecentFiles recent;
        recent.clear();
        for (int i = 0; i < 10; ++i)
            recent.add(path(QStringLiteral("f%1.shardlab.json").arg(i)));
        recent.add(path(QStringLiteral("f3.shardlab.json")));
        QCOMPARE(recent.files().size(), RecentFiles::kMax);
        QCOMPARE(recent.files().first(), path(QStringLiteral("f3.shardlab.json")));
        QCOMPARE(recent.files().at(1), path(QStringLiteral("f9.shardlab.json")));
        RecentFiles again; // read back from the settings
        QCOMPARE(again.files(), recent.files());
    }

    void autosaveIsRecoveredAfterACrash()
    {
        const QString dir = path(QStringLiteral("autosave"));
        Document doc;
        doc.reset(test::fourCardsOneItem(), QStringLiteral("/data/course/lab1.shardlab.json"));
        QVERIFY(Edits::dropShards(doc, {ShardRef{0, 0, -1}}, 2, false).ok());
        {
            Autosave live(&doc, dir);
            QVERIFY(live.saveNow().ok());
            const QStringList files = QDir(dir).entryList({QStringLiteral("*.shardlab.json")}, QDir::Files);
            QCOMPARE(files.size(), 1);
            // a second session does not offer the files of one that is still running
            Document otherDoc;
            Autosave other(&otherDoc, dir);
            QVERIFY(other.findOrphans().isEmpty());
        }
        // a clean exit removed it
        QVERIFY(QDir(dir).entryList({QStringLiteral("*.shardlab.json")}, QDir::Files).isEmpty());

        // A crashed session leaves its autosave behind without a live lock.
        QVERIFY(Autosave::write(dir, QStringLiteral("session-crashed"), doc.scenario(), doc.filePath()).ok());
        Document fresh;
        fresh.reset(test::loadExample("default.shardlab.json"), QString());
        Autosave next(&fresh, dir);
        const QList<AutosaveEntry> orphans = next.findOrphans();
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(orphans[0].originalPath, QStringLiteral("/data/course/lab1.shardlab.json"));
        test::ScriptedPrompter prompter;
        RecentFiles recent;
        DocumentController files(&fresh, &prompter, &recent);
        QVERIFY(files.offerRecovery(next));
        QVERIFY(fresh.scenario() == doc.scenario());
        QCOMPARE(fresh.filePath(), QStringLiteral("/data/course/lab1.shardlab.json"));
        QVERIFY(fresh.isModified());           // recovered work is not in its file yet
        QVERIFY(next.findOrphans().isEmpty()); // offered once
        // declining discards it too
        QVERIFY(Autosave::write(dir, QStringLiteral("session-crashed-2"), doc.scenario(), QString()).ok());
        prompter.recover = false;
        QVERIFY(!files.offerRecovery(next));
        QVERIFY(next.findOrphans().isEmpty());
    }

    // Issue 14: autosave goes through the atomic write; on a full disk it fails and the previous
    // autosave (what recovery would offer) is unchanged.
    void aFullDiskKeepsThePreviousAutosave()
    {
        const QString dir = path(QStringLiteral("autosave-full"));
        QVERIFY(QDir().mkpath(dir));
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QString());
        QVERIFY(Autosave::write(dir, QStringLiteral("session-full"), doc.scenario(), QString()).ok());
        const std::string file = QDir(dir).filePath(QStringLiteral("session-full.shardlab.json")).toStdString();
        const std::string previous = fs_test::fileText(file);
        QVERIFY(previous.size() > 512);
        doc.reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
        Status st;
        {
            fs_test::FullDisk disk(512);
            QVERIFY(disk.active());
            st = Autosave::write(dir, QStringLiteral("session-full"), doc.scenario(), QString());
        }
        QVERIFY(!st.ok());
        QCOMPARE(fs_test::fileText(file), previous);
    }

    void autosaveFollowsTheModifiedState()
    {
        const QString dir = path(QStringLiteral("autosave2"));
        Document doc;
        doc.reset(test::fourCardsOneItem(), QString());
        Autosave autosave(&doc, dir);
        autosave.setInterval(20);
        const QString own = QDir(dir).filePath(autosave.sessionId() + QStringLiteral(".shardlab.json"));
        QVERIFY(Edits::dropShards(doc, {ShardRef{0, 0, -1}}, 1, false).ok());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(own), 2000); // written by the timer
        auto saved = loadScenario(own.toStdString());
        QVERIFY(saved.ok());
        QVERIFY(*saved == doc.scenario());
        doc.undoStack()->undo(); // back to the file's state: nothing to recover
        QVERIFY(!QFile::exists(own));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_files, TestFiles)
#include "test_files.moc"

// The document: one undo command per edit, undo and redo restore each state exactly, merged
// typing, refused invalid edits, and the modified flag.
#include "gui_test_main.h"
#include "document/document.h"
#include "document/edits.h"
#include "gui_test_helpers.h"
#include "shardlab/analysis/summary.h"
#include "shardlab/model/strategies.h"
#include "shardlab/sim/simulator.h"

#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <cmath>

using namespace shardlab;
using namespace shardlab::gui;

class TestDocument : public QObject {
    Q_OBJECT
private slots:
    void undoAndRedoRestoreEveryStateExactly()
    {
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QStringLiteral("/tmp/x.shardlab.json"));
        std::vector<Scenario> states{doc.scenario()};
        auto step = [&](const Status& st) {
            QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
            states.push_back(doc.scenario());
        };
        step(Edits::dropShards(doc, {ShardRef{4, 1, 1}}, 0, false));     // move a batch shard from GPU 1 to 0
        step(Edits::dropShards(doc, {ShardRef{0, 0, -1}}, 2, false));    // parameters to GPU 2 alone
        step(Edits::splitItem(doc, 3, evenShards(6'000'000'000ULL, 8))); // activations into 8
        step(Edits::setGpuMemory(doc, 1, 32'000'000'000ULL));
        step(Edits::addGpuLike(doc, 3));
        step(Edits::removeGpu(doc, 0));
        step(Edits::moveOp(doc, 0, 2));
        step(Edits::placeByStrategy(doc, Strategy::Zero3).ok() ? Status{} : Status(badInput(verbatim("strategy"))));
        QCOMPARE(doc.undoStack()->count(), 8);
        for (size_t i = 1; i < states.size(); ++i)
            QVERIFY(!(states[i] == states[i - 1])); // each step changed something
        for (int i = static_cast<int>(states.size()) - 2; i >= 0; --i) {
            doc.undoStack()->undo();
            QVERIFY2(doc.scenario() == states[static_cast<size_t>(i)], qPrintable(QStringLiteral("undo to %1").arg(i)));
        }
        for (size_t i = 1; i < states.size(); ++i) {
            doc.undoStack()->redo();
            QVERIFY2(doc.scenario() == states[i], qPrintable(QStringLiteral("redo to %1").arg(i)));
        }
    }

    void noOpEditsPushNothing()
    {
        Document doc;
        doc.reset(test::fourCardsOneItem(), QString());
        QVERIFY(Edits::dropShards(doc, {ShardRef{0, 0, -1}}, 1, false).ok());
        QCOMPARE(doc.undoStack()->count(), 1);
        // the same drop again changes nothing
        QVERIFY(Edits::dropShards(doc, {ShardRef{0, 0, -1}}, 1, false).ok());
        QCOMPARE(doc.undoStack()->count(), 1);
        // moving a shard onto the GPU it came from changes nothing either
        QVERIFY(Edits::dropShards(doc, {ShardRef{0, 0, 1}}, 1, false).ok());
        QCOMPARE(doc.undoStack()->count(), 1);
    }

    void invalidEditsAreRefusedAndNamed()
    {
        Document doc;
        doc.reset(test::fourCardsOneItem(), QString());
        const Scenario before = doc.scenario();
        Status st = Edits::setGpuMemory(doc, 0, 0);
        QVERIFY(!st.ok());
        QVERIFY(QString::fromStdString(st.error().message).contains(QStringLiteral("memory")));
        QVERIFY(doc.scenario() == before);
        QCOMPARE(doc.undoStack()->count(), 0);
        QVERIFY(!Edits::dropShards(doc, {ShardRef{0, 0, -1}}, 9, false).ok());
        QVERIFY(!Edits::removeGpu(doc, 7).ok());
        QVERIFY(!Edits::renameItem(doc, 0, QString()).ok());
        QVERIFY(doc.scenario() == before);
    }

    void typingInOneFieldMergesIntoOneStep()
    {
        Document doc;
        doc.reset(test::fourCardsOneItem(), QString());
        const Scenario before = doc.scenario();
        for (double t : {1.0, 12.0, 120.0})
            QVERIFY(Edits::setGpuTflops(doc, 2, t).ok());
        QCOMPARE(doc.undoStack()->count(), 1);
        QCOMPARE(doc.scenario().topology.gpus[2].tflops, 120.0);
        QVERIFY(Edits::setGpuTflops(doc, 3, 5.0).ok()); // another field: a new step
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
    }

    void modifiedFollowsTheUndoStackAndSaves()
    {
        Document doc;
        QSignalSpy modified(&doc, &Document::modifiedChanged);
        doc.reset(test::fourCardsOneItem(), QStringLiteral("/tmp/a.shardlab.json"));
        QVERIFY(!doc.isModified());
        QVERIFY(Edits::dropShards(doc, {ShardRef{0, 0, -1}}, 1, false).ok());
        QVERIFY(doc.isModified());
        doc.undoStack()->undo();
        QVERIFY(!doc.isModified());
        doc.undoStack()->redo();
        doc.markSaved(QStringLiteral("/tmp/b.shardlab.json"));
        QVERIFY(!doc.isModified());
        QCOMPARE(doc.filePath(), QStringLiteral("/tmp/b.shardlab.json"));
        QCOMPARE(doc.displayName(), QStringLiteral("b.shardlab.json"));
        doc.undoStack()->undo();
        QVERIFY(doc.isModified()); // the file holds the redone state
        QVERIFY(modified.count() >= 3);
        // a recovered document is modified before any edit, and stays so after undoing edits
        doc.reset(test::fourCardsOneItem(), QString(), true);
        QVERIFY(doc.isModified());
        QCOMPARE(doc.undoStack()->count(), 0);
        QCOMPARE(doc.displayName(), QStringLiteral("Untitled"));
    }

    void strategyOutcomeSaysWhatItReplicatedAndSplit()
    {
        Document doc;
        doc.reset(test::loadExample("capacity-replicate-24gb.shardlab.json"), QString());
        auto outcome = Edits::placeByStrategy(doc, Strategy::Zero2);
        QVERIFY(outcome.ok());
        QCOMPARE(outcome->replicated, (std::vector<std::string>{"parameters"}));
        QCOMPARE(outcome->split, (std::vector<std::string>{"gradients", "optimizer state"}));
        QCOMPARE(doc.scenario().strategy, std::string("zero2"));
        // a manual move afterwards makes the placement the user's
        QVERIFY(Edits::dropShards(doc, {ShardRef{1, 0, 0}}, 1, false).ok());
        QVERIFY(doc.scenario().strategy.empty());
    }

    // Issue 29: ZeRO-3's cost shows. Placing the 24 GB example by ZeRO-3 gives its program the
    // two gathers and the reduce-scatter (one undo step takes placement and program back), and
    // the run communicates half as much again as the replicated one for the same compute.
    void zeroThreeGivesTheProgramItsCommunicationInOneUndoableStep()
    {
        Document doc;
        doc.reset(test::loadExample("capacity-replicate-24gb.shardlab.json"), QString());
        const Scenario before = doc.scenario();
        auto outcome = Edits::placeByStrategy(doc, Strategy::Zero3);
        QVERIFY(outcome.ok());
        QCOMPARE(doc.undoStack()->count(), 1);
        const std::vector<Op>& program = doc.scenario().program;
        QCOMPARE(program.size(), size_t(5));
        QCOMPARE(program[0].kind, OpKind::AllGather);
        QCOMPARE(program[2].kind, OpKind::AllGather);
        QCOMPARE(program[4].kind, OpKind::ReduceScatter);
        QCOMPARE(outcome->programChanges.size(), size_t(4));
        QCOMPARE(outcome->summary.id, std::string("strategy.summary.zero3"));
        auto replicated = simulate(before), sharded = simulate(doc.scenario());
        QVERIFY(replicated.ok() && sharded.ok());
        const Summary a = summarize(before, *replicated), b = summarize(doc.scenario(), *sharded);
        QVERIFY(std::fabs(b.perRank[0].computeMs - a.perRank[0].computeMs) < 1e-6 * a.perRank[0].computeMs);
        const double ratio = b.perRank[0].commMs / a.perRank[0].commMs;
        QVERIFY2(ratio > 1.45 && ratio < 1.55, qPrintable(QString::number(ratio)));
        doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
    }
};

SHARDLAB_GUI_TEST_MAIN(test_document, TestDocument)
#include "test_document.moc"

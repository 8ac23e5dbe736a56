// The step program editor: the "Which collective?" helper names the collective the course
// teaches for each need; the step editor's fields become undoable edits; bad input is refused
// with a message and leaves the step as it was.
#include "gui_test_main.h"
#include "document/document.h"
#include "gui_test_helpers.h"
#include "program/collectivehelper.h"
#include "program/opeditor.h"
#include "program/programmodel.h"
#include "program/programpanel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QUndoStack>

using namespace shardlab;
using namespace shardlab::gui;

class TestProgram : public QObject {
    Q_OBJECT
private slots:
    void helperNamesTheCollectiveForEachNeed()
    {
        CollectiveHelper helper;
        const struct {
            Need need;
            bool unequal;
            OpKind expected;
            const char* name;
        } cases[] = {
            {Need::SumOnOneRank, false, OpKind::Reduce, "Reduce"},
            {Need::SumOnEveryRank, false, OpKind::AllReduce, "All-Reduce"},
            {Need::SliceOfSumOnEveryRank, false, OpKind::ReduceScatter, "Reduce-Scatter"},
            {Need::ConcatenationOnEveryRank, false, OpKind::AllGather, "All-Gather"},
            {Need::ConcatenationOnEveryRank, true, OpKind::AllGatherV, nullptr},
            {Need::CopyOfOneRanksData, false, OpKind::Broadcast, "Broadcast"},
        };
        for (const auto& c : cases) {
            helper.setNeed(c.need, c.unequal);
            QCOMPARE(helper.chosen(), c.expected);
            if (c.name)
                QVERIFY2(helper.answerText().contains(QString::fromLatin1(c.name)), qPrintable(helper.answerText()));
        }
    }

    void stepEditorFieldsAreUndoableEdits()
    {
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QString());
        const Scenario before = doc.scenario();
        OpEditor editor(&doc);
        QSignalSpy failed(&editor, &OpEditor::editFailed);
        editor.setStep(2); // the gradient all-reduce
        QCOMPARE(editor.bucketsBox()->value(), 4);
        editor.bucketsBox()->setValue(8);
        editor.bucketsBox()->setValue(16);
        QCOMPARE(doc.scenario().program[2].buckets, 16);
        QCOMPARE(doc.undoStack()->count(), 1); // typing in one field merges
        editor.kindBox()->setCurrentIndex(editor.kindBox()->findData(static_cast<int>(OpKind::ReduceScatter)));
        QCOMPARE(doc.scenario().program[2].kind, OpKind::ReduceScatter);
        editor.ranksEdit()->setText(QStringLiteral("0-1"));
        emit editor.ranksEdit()->editingFinished();
        QCOMPARE(doc.scenario().program[2].group, (std::vector<int>{0, 1}));
        editor.sizeEdit()->setText(QStringLiteral("64 MB"));
        emit editor.sizeEdit()->editingFinished();
        QCOMPARE(doc.scenario().program[2].bytes.value_or(0), 64'000'000ULL);
        // refused: ranks that do not exist, and text that is not a list
        const Scenario good = doc.scenario();
        editor.ranksEdit()->setText(QStringLiteral("0-9"));
        emit editor.ranksEdit()->editingFinished();
        editor.ranksEdit()->setText(QStringLiteral("everyone"));
        emit editor.ranksEdit()->editingFinished();
        QCOMPARE(failed.count(), 2);
        QVERIFY(failed.at(0).first().toString().contains(QStringLiteral("rank 4 does not exist")));
        QVERIFY(doc.scenario() == good);
        QCOMPARE(editor.ranksEdit()->text(), QStringLiteral("0, 1"));
        while (doc.undoStack()->canUndo())
            doc.undoStack()->undo();
        QVERIFY(doc.scenario() == before);
    }

    void aComputeStepTurnedCollectiveLeavesItsGemms()
    {
        // a plan's compute step names GEMMs for live mode; made a collective, it drops them rather
        // than being refused for them
        Document doc;
        Scenario s = test::loadExample("default.shardlab.json");
        s.program[0].gemms = {{{64, 64, 64}, 2}};
        s.program[0].gemmShare = 0.5;
        doc.reset(s, QString());
        OpEditor editor(&doc);
        QSignalSpy failed(&editor, &OpEditor::editFailed);
        editor.setStep(0);
        editor.kindBox()->setCurrentIndex(editor.kindBox()->findData(static_cast<int>(OpKind::AllReduce)));
        QCOMPARE(failed.count(), 0);
        QCOMPARE(doc.scenario().program[0].kind, OpKind::AllReduce);
        QVERIFY(doc.scenario().program[0].gemms.empty());
        doc.undoStack()->undo();
        QCOMPARE(doc.scenario().program[0].gemms.size(), size_t{1});
    }

    void everyAlgorithmIsOfferedAndShown()
    {
        // Every algorithm a scenario may name is in the step editor (NVLS ones included), so a
        // step that uses one shows it instead of a blank box, and picking it back is an edit.
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QString());
        OpEditor editor(&doc);
        QStringList offered;
        for (int i = 0; i < editor.algorithmBox()->count(); ++i)
            offered << editor.algorithmBox()->itemText(i);
        QCOMPARE(offered, (QStringList{QStringLiteral("auto"), QStringLiteral("ring"), QStringLiteral("tree"),
                                       QStringLiteral("direct"), QStringLiteral("hierarchical"), QStringLiteral("nvls"),
                                       QStringLiteral("nvls-tree")}));
        Scenario s = doc.scenario();
        s.program[2].algorithm = Algorithm::NvlsTree;
        doc.reset(s, QString());
        editor.setStep(2);
        QCOMPARE(editor.algorithmBox()->currentText(), QStringLiteral("nvls-tree"));
        editor.algorithmBox()->setCurrentIndex(editor.algorithmBox()->findData(static_cast<int>(Algorithm::Nvls)));
        QCOMPARE(doc.scenario().program[2].algorithm, Algorithm::Nvls);
        QVERIFY(editor.algorithmBox()->toolTip().contains(QStringLiteral("NVLS")));
    }

    void panelAddsMovesAndRemovesSteps()
    {
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QString());
        ProgramPanel panel(&doc);
        panel.view()->selectRow(0);
        panel.addCompute();
        QCOMPARE(doc.scenario().program.size(), size_t(5));
        QCOMPARE(doc.scenario().program[1].kind, OpKind::Compute);
        QCOMPARE(panel.currentStep(), 1);
        QCOMPARE(panel.editor()->step(), 1);
        panel.moveDown();
        QCOMPARE(doc.scenario().program[2].kind, OpKind::Compute);
        QCOMPARE(doc.scenario().program[1].name, std::string("backward"));
        QCOMPARE(panel.currentStep(), 2);
        panel.removeStep();
        QCOMPARE(doc.scenario().program.size(), size_t(4));
        QCOMPARE(doc.undoStack()->count(), 3);
        QCOMPARE(panel.model()->data(panel.model()->index(2, ProgramModel::Overlap)).toString(),
                 QStringLiteral("overlapped"));
        QCOMPARE(panel.model()->data(panel.model()->index(2, ProgramModel::Ranks)).toString(), QStringLiteral("all"));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_program, TestProgram)
#include "test_program.moc"

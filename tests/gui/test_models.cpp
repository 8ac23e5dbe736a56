// Every item model of the editor passes QAbstractItemModelTester while the document changes
// under it in every way an edit can (rows added, removed, reset, data changed), and its in-place
// edits go through the document.
#include "gui_test_main.h"
#include "document/document.h"
#include "document/edits.h"
#include "document/livefeedback.h"
#include "gui_test_helpers.h"
#include "common/labels.h"
#include "program/programmodel.h"
#include "shardlab/model/presets.h"
#include "topology/gpumodel.h"
#include "workload/capacitymodel.h"
#include "workload/shardmodel.h"
#include "workload/workloadmodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace shardlab;
using namespace shardlab::gui;

class TestModels : public QObject {
    Q_OBJECT

    // Edits that change the number of rows of every model, then undo them all.
    void churn(Document& doc)
    {
        QVERIFY(
            Edits::addItem(
                doc, WorkloadItem{"extra", ItemKind::Activations, 3'000'000'000ULL, {Shard{0, 3'000'000'000ULL, {}}}})
                .ok());
        QVERIFY(Edits::splitItem(doc, 0, evenShards(doc.scenario().workload.items[0].size, 6)).ok());
        QVERIFY(Edits::dropShards(doc, {ShardRef{0, 1, -1}}, 2, true).ok());
        QVERIFY(Edits::addGpuLike(doc, 0).ok());
        QVERIFY(Edits::removeGpu(doc, 1).ok());
        QVERIFY(Edits::insertOp(doc, 0, Op{}).ok());
        QVERIFY(Edits::moveOp(doc, 0, 1).ok());
        QVERIFY(Edits::removeOp(doc, 1).ok());
        QVERIFY(Edits::useTopology(doc, scaleOut(*preset("h200-nvswitch-8"), 16)).ok());
        QVERIFY(Edits::addLink(doc, Link{"gpu0", "gpu1", LinkKind::NvLink, 4, 100, 1}).ok());
        QVERIFY(Edits::removeLink(doc, 0).ok());
        QVERIFY(Edits::removeItem(doc, 1).ok());
        while (doc.undoStack()->canUndo())
            doc.undoStack()->undo();
        doc.reset(test::loadExample("straggler-12-6-4-2.shardlab.json"), QString());
    }

private slots:
    void everyModelPassesTheTester()
    {
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QString());
        LiveFeedback feedback(&doc);
        WorkloadModel workload(&doc);
        ShardModel shardsOfOne(&doc), shardsOfAll(&doc);
        shardsOfOne.setItem(0);
        CapacityModel capacity(&feedback);
        ProgramModel program(&doc);
        GpuModel gpus(&doc);
        LinkModel links(&doc);
        using Mode = QAbstractItemModelTester::FailureReportingMode;
        const QList<QAbstractItemModel*> models{&workload, &shardsOfOne, &shardsOfAll, &capacity,
                                                &program,  &gpus,        &links};
        std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
        for (QAbstractItemModel* m : models)
            testers.push_back(std::make_unique<QAbstractItemModelTester>(m, Mode::QtTest));
        churn(doc);
        shardsOfOne.setItem(1);
        shardsOfOne.setItem(-1);
        QCOMPARE(workload.rowCount(), 2);
        QCOMPARE(capacity.rowCount(), 4);
        QCOMPARE(program.rowCount(), static_cast<int>(doc.scenario().program.size()));
    }

    void modelsShowTheScenario()
    {
        Document doc;
        doc.reset(test::loadExample("capacity-replicate-24gb.shardlab.json"), QString());
        LiveFeedback feedback(&doc);
        WorkloadModel workload(&doc);
        CapacityModel capacity(&feedback);
        ProgramModel program(&doc);
        QCOMPARE(workload.data(workload.index(0, WorkloadModel::Size)).toString(), QStringLiteral("8 GB"));
        QCOMPARE(workload.data(workload.index(0, WorkloadModel::Placement)).toString(),
                 QStringLiteral("replicated on every GPU"));
        QCOMPARE(capacity.data(capacity.index(0, CapacityModel::Owned)).toString(), QStringLiteral("24 GB"));
        QCOMPARE(capacity.data(capacity.index(0, CapacityModel::Used)).toString(), QStringLiteral("150 %"));
        QCOMPARE(capacity.data(capacity.index(3, CapacityModel::Status)).toString(), QStringLiteral("8 GB too much"));
        QCOMPARE(program.data(program.index(1, ProgramModel::Step)).toString(), QStringLiteral("All-Reduce"));
        QCOMPARE(program.data(program.index(1, ProgramModel::Size)).toString(), QStringLiteral("8 GB"));
        QCOMPARE(program.data(program.index(0, ProgramModel::Size)).toString(), QStringLiteral("1.4 TFLOP"));
        QVERIFY(Edits::placeByStrategy(doc, Strategy::Zero3).ok());
        QCOMPARE(workload.data(workload.index(0, WorkloadModel::Placement)).toString(),
                 QStringLiteral("split over GPUs 0-3"));
        QCOMPARE(capacity.data(capacity.index(0, CapacityModel::Owned)).toString(), QStringLiteral("6 GB"));
        QCOMPARE(capacity.data(capacity.index(0, CapacityModel::Status)).toString(), QStringLiteral("fits"));
        QCOMPARE(capacity.data(capacity.index(0, CapacityModel::VsMean)).toString(), QStringLiteral("0 %"));
    }

    void inPlaceEditsAreUndoableOrNamedWhenRefused()
    {
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QString());
        WorkloadModel workload(&doc);
        GpuModel gpus(&doc);
        LinkModel links(&doc);
        QSignalSpy failed(&workload, &WorkloadModel::editFailed);
        QVERIFY(workload.setData(workload.index(4, WorkloadModel::Name), QStringLiteral("micro-batch")));
        QCOMPARE(doc.scenario().program[0].item, std::string("micro-batch")); // the program follows
        QVERIFY(workload.setData(workload.index(4, WorkloadModel::Size), QStringLiteral("4 GB")));
        QCOMPARE(doc.scenario().workload.items[4].size, 4'000'000'000ULL);
        QVERIFY(!workload.setData(workload.index(4, WorkloadModel::Size), QStringLiteral("four gigs")));
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("four gigs")));
        QVERIFY(!workload.setData(workload.index(0, WorkloadModel::Name), QStringLiteral("gradients")));
        QVERIFY(workload.setData(workload.index(3, WorkloadModel::Kind), static_cast<int>(ItemKind::Data)));
        QVERIFY(gpus.setData(gpus.index(1, GpuModel::Memory), QStringLiteral("32 GB")));
        QCOMPARE(doc.scenario().topology.gpus[1].memory, 32'000'000'000ULL);
        QVERIFY(gpus.setData(gpus.index(1, GpuModel::Tflops), 7.5));
        QVERIFY(!gpus.setData(gpus.index(1, GpuModel::Tflops), -1.0));
        QVERIFY(links.setData(links.index(0, LinkModel::Bandwidth), 32.0));
        QVERIFY(!(links.flags(links.index(0, LinkModel::Count)) & Qt::ItemIsEditable)); // PCIe has no bundle
        QCOMPARE(doc.undoStack()->count(), 6);
    }

    void shardDragCarriesReferences()
    {
        Document doc;
        doc.reset(test::loadExample("default.shardlab.json"), QString());
        ShardModel shards(&doc);
        shards.setItem(4);
        QCOMPARE(shards.rowCount(), 4);
        QVERIFY(shards.flags(shards.index(0, 0)) & Qt::ItemIsDragEnabled);
        std::unique_ptr<QMimeData> mime(shards.mimeData({shards.index(1, 0), shards.index(3, 0), shards.index(1, 0)}));
        QCOMPARE(shardRefsFrom(mime.get()), (QList<ShardRef>{{4, 1, -1}, {4, 3, -1}}));
        QCOMPARE(shards.data(shards.index(2, 0), ShardModel::OwnersRole).toList(), QVariantList{2});
    }

    void rankListsReadAndPrint()
    {
        QCOMPARE(Labels::ranks({0, 1, 2, 3, 6}), QStringLiteral("0-3, 6"));
        QCOMPARE(Labels::ranks({1, 2, 5, 6, 7}), QStringLiteral("1, 2, 5-7"));
        QCOMPARE(*Labels::parseRanks(QStringLiteral("0-3, 6")), (std::vector<int>{0, 1, 2, 3, 6}));
        QVERIFY(Labels::parseRanks(QStringLiteral("all"))->empty());
        QVERIFY(!Labels::parseRanks(QStringLiteral("3-1")));
        QVERIFY(!Labels::parseRanks(QStringLiteral("one")));
    }
};

SHARDLAB_GUI_TEST_MAIN(test_models, TestModels)
#include "test_models.moc"

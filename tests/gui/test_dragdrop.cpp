// Shard ownership by drag and drop on the diagram, with the live feedback it drives: a drop
// changes ownership in the model; replicating 24 GB onto four 16 GB GPUs turns every gauge red;
// moving shards to 12/12 clears the imbalance warning; undo and redo restore each state.
#include "gui_test_main.h"
#include "document/document.h"
#include "document/edits.h"
#include "document/shardref.h"
#include "document/livefeedback.h"
#include "editor/editorpage.h"
#include "gui_test_helpers.h"
#include "topology/shardtileitem.h"
#include "topology/topologyscene.h"
#include "workload/feedbackpanel.h"
#include "workload/shardmodel.h"
#include "workload/workloadpanel.h"

#include <QListView>
#include <QTest>
#include <QUndoStack>

#include <memory>

using namespace shardlab;
using namespace shardlab::gui;

class TestDragDrop : public QObject {
    Q_OBJECT

    std::unique_ptr<Document> m_doc;
    std::unique_ptr<EditorPage> m_page;

    void open(const Scenario& s)
    {
        m_page.reset();
        m_doc = std::make_unique<Document>();
        m_doc->reset(s, QString());
        m_page = std::make_unique<EditorPage>(m_doc.get());
        m_page->resize(1400, 900);
        m_page->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_page.get()));
    }
    TopologyScene* scene() const { return m_page->scene(); }
    TopologyView* view() const { return m_page->view(); }
    // The mime data of the shard list's rows, as QListView would build it when a drag starts.
    std::unique_ptr<QMimeData> fromShardList(const QList<int>& rows) const
    {
        ShardModel* model = m_page->workloadPanel()->shardModel();
        QModelIndexList indexes;
        for (int r : rows)
            indexes << model->index(r, 0);
        return std::unique_ptr<QMimeData>(model->mimeData(indexes));
    }
    bool hasImbalanceWarning() const
    {
        for (const QString& w : m_page->feedbackPanel()->warnings())
            if (w.contains(QStringLiteral("unbalanced")))
                return true;
        return false;
    }

private slots:
    void droppingAShardOnAGpuGivesItOwnership()
    {
        open(test::fourCardsOneItem(8'000'000'000ULL));
        QCOMPARE(scene()->cardCount(), 4);
        QCOMPARE(scene()->card(2)->gaugeState(), GpuCardItem::GaugeState::Empty);
        auto mime = fromShardList({0});
        QVERIFY(dropOnCard(2, mime.get()));
        QCOMPARE(m_doc->scenario().workload.items[0].shards[0].owners, std::vector<int>{2});
        QCOMPARE(scene()->card(2)->gaugeState(), GpuCardItem::GaugeState::Fits);
        QCOMPARE(scene()->card(2)->gaugeText(), QStringLiteral("8 GB / 16 GB"));
        QCOMPARE(scene()->card(2)->tiles().size(), size_t(1));
        QCOMPARE(m_doc->undoStack()->count(), 1);
        // from the panel, a plain drop on another GPU moves it there alone
        QVERIFY(dropOnCard(3, mime.get()));
        QCOMPARE(m_doc->scenario().workload.items[0].shards[0].owners, std::vector<int>{3});
        QCOMPARE(scene()->card(2)->gaugeState(), GpuCardItem::GaugeState::Empty);
        QVERIFY(scene()->card(2)->tiles().empty());
    }

    void draggingATileBetweenGpusMovesItAndCtrlReplicates()
    {
        open(test::fourCardsOneItem(8'000'000'000ULL));
        QVERIFY(Edits::dropShards(*m_doc, {ShardRef{0, 0, -1}}, 0, false).ok());
        // the tile on GPU 0's card, picked up and dropped on GPU 1
        QList<ShardTileItem*> tiles = scene()->card(0)->tileItems();
        QCOMPARE(tiles.size(), 1);
        std::unique_ptr<QMimeData> mime(
            shardMimeData({ShardRef{tiles[0]->info().item, tiles[0]->info().shard, tiles[0]->rank()}}));
        QVERIFY(dropOnCard(1, mime.get()));
        QCOMPARE(m_doc->scenario().workload.items[0].shards[0].owners, std::vector<int>{1});
        // Ctrl-drag from GPU 1 onto GPU 3 replicates
        std::unique_ptr<QMimeData> again(shardMimeData({ShardRef{0, 0, 1}}));
        QVERIFY(dropOnCard(3, again.get(), Qt::ControlModifier));
        QCOMPARE(m_doc->scenario().workload.items[0].shards[0].owners, (std::vector<int>{1, 3}));
    }

    void replicatingTwentyFourGigabytesOnFourSixteenGigabyteCardsTurnsEveryGaugeRed()
    {
        open(test::fourCardsOneItem(24'000'000'000ULL));
        auto mime = fromShardList({0});
        for (int r = 0; r < 4; ++r)
            QVERIFY(dropOnCard(r, mime.get(), Qt::ControlModifier));
        QCOMPARE(m_doc->scenario().workload.items[0].shards[0].owners, (std::vector<int>{0, 1, 2, 3}));
        for (int r = 0; r < 4; ++r) {
            GpuCardItem* card = scene()->card(r);
            QCOMPARE(card->gaugeState(), GpuCardItem::GaugeState::Overflow);
            QCOMPARE(card->gaugeColour(), QColor(0xc6, 0x28, 0x28));
            QCOMPARE(card->excessText(), QStringLiteral("8 GB too much"));
        }
        QVERIFY(m_page->feedbackPanel()->warnings().first().startsWith(QStringLiteral("No rank fits")));
        // one undo step per drop; undoing the last leaves GPU 3 fitting
        QCOMPARE(m_doc->undoStack()->count(), 4);
        m_doc->undoStack()->undo();
        QCOMPARE(scene()->card(3)->gaugeState(), GpuCardItem::GaugeState::Empty);
        QCOMPARE(scene()->card(2)->gaugeState(), GpuCardItem::GaugeState::Overflow);
        m_doc->undoStack()->redo();
        QCOMPARE(scene()->card(3)->gaugeState(), GpuCardItem::GaugeState::Overflow);
    }

    void theSameByStrategyAndBackByZero3()
    {
        open(test::loadExample("capacity-zero3-24gb.shardlab.json"));
        for (int r = 0; r < 4; ++r)
            QCOMPARE(scene()->card(r)->gaugeState(), GpuCardItem::GaugeState::Fits);
        QVERIFY(Edits::placeByStrategy(*m_doc, Strategy::Replicate).ok());
        for (int r = 0; r < 4; ++r)
            QCOMPARE(scene()->card(r)->gaugeState(), GpuCardItem::GaugeState::Overflow);
        m_doc->undoStack()->undo();
        for (int r = 0; r < 4; ++r)
            QCOMPARE(scene()->card(r)->gaugeState(), GpuCardItem::GaugeState::Fits);
    }

    void movingShardsToTwelveTwelveClearsTheImbalanceWarning()
    {
        open(test::loadExample("balance-14-10.shardlab.json"));
        const Scenario start = m_doc->scenario();
        QVERIFY(hasImbalanceWarning());
        // cut the 24 GB into twelve 2 GB shards: 7 start on GPU 0, 5 on GPU 1
        QVERIFY(Edits::splitItem(*m_doc, 0, evenShards(24'000'000'000ULL, 12)).ok());
        const Scenario split = m_doc->scenario();
        QVERIFY(hasImbalanceWarning());
        // drag GPU 0's last tile of that item onto GPU 1
        ShardTileItem* last = nullptr;
        for (ShardTileItem* t : scene()->card(0)->tileItems())
            if (t->info().item == 0)
                last = t;
        QVERIFY(last);
        QCOMPARE(last->info().shard, 6);
        std::unique_ptr<QMimeData> mime(shardMimeData({ShardRef{0, 6, 0}}));
        QVERIFY(dropOnCard(1, mime.get()));
        QCOMPARE(m_doc->scenario().workload.items[0].ownedBy(0), 12'000'000'000ULL);
        QCOMPARE(m_doc->scenario().workload.items[0].ownedBy(1), 12'000'000'000ULL);
        QVERIFY(!hasImbalanceWarning());
        QVERIFY(m_page->feedbackPanel()->warnings().isEmpty());
        QCOMPARE(m_page->feedback()->current().capacity.imbalancePct, 0.0);
        const Scenario balanced = m_doc->scenario();
        // undo and redo walk the same three states exactly
        m_doc->undoStack()->undo();
        QVERIFY(m_doc->scenario() == split);
        QVERIFY(hasImbalanceWarning());
        m_doc->undoStack()->undo();
        QVERIFY(m_doc->scenario() == start);
        m_doc->undoStack()->redo();
        m_doc->undoStack()->redo();
        QVERIFY(m_doc->scenario() == balanced);
        QVERIFY(!hasImbalanceWarning());
    }

    void ctrlClickSelectsSeveralTilesThatDragTogether()
    {
        open(test::loadExample("balance-14-10.shardlab.json"));
        QVERIFY(Edits::splitItem(*m_doc, 0, evenShards(24'000'000'000ULL, 12)).ok());
        QList<ShardTileItem*> tiles = scene()->card(0)->tileItems();
        QVERIFY(tiles.size() >= 3);
        // real mouse clicks on the view: a click, then Ctrl-clicks add to the selection
        auto click = [&](ShardTileItem* t, Qt::KeyboardModifiers mods) {
            QTest::mouseClick(view()->viewport(), Qt::LeftButton, mods,
                              view()->mapFromScene(t->sceneBoundingRect().center()));
        };
        click(tiles[0], Qt::NoModifier);
        click(tiles[1], Qt::ControlModifier);
        click(tiles[2], Qt::ControlModifier);
        const QList<ShardRef> selected = scene()->selectedShards();
        QCOMPARE(selected.size(), 3);
        std::unique_ptr<QMimeData> mime(shardMimeData(selected));
        QVERIFY(dropOnCard(1, mime.get()));
        QCOMPARE(m_doc->undoStack()->count(), 2); // the split and one move of three shards
        QCOMPARE(m_doc->scenario().workload.items[0].ownedBy(0), 8'000'000'000ULL);
        QCOMPARE(m_doc->undoStack()->undoText(), QStringLiteral("Move 3 shard(s) to GPU 1"));
    }

    // A plan's scenario (issue 27): a card dropped on another swaps their TP groups (with Shift,
    // their pipeline stages): the labels, the ownership and the mesh's places follow, as one
    // undoable step; a drop on the card's own group does nothing.
    void aPlansTpGroupOrStageDraggedOntoOtherGpusSwapsPlaces()
    {
        open(test::loadExample("plan-mfu-tp2-pp4.shardlab.json"));
        QCOMPARE(scene()->cardCount(), 8);
        const Scenario before = m_doc->scenario();
        const QString stage0 = QStringLiteral("stage 0 \u00b7 TP 0 \u00b7 DP 0");
        const QString stage3 = QStringLiteral("stage 3 \u00b7 TP 0 \u00b7 DP 0");
        QCOMPARE(scene()->card(0)->meshLabel(), stage0);
        QVERIFY(scene()->card(0)->toolTip().contains(QStringLiteral("Drag it onto another GPU")));
        // GPU 0's TP group {0, 1} onto GPU 7's {6, 7}
        std::unique_ptr<QMimeData> mime(meshUnitMimeData({0, MeshUnit::TensorGroup}));
        QVERIFY(dropOnCard(7, mime.get()));
        QCOMPARE(m_doc->undoStack()->count(), 1);
        QCOMPARE(m_doc->scenario().mesh->gpus, (std::vector<int>{6, 7, 2, 3, 4, 5, 0, 1}));
        QCOMPARE(scene()->card(0)->meshLabel(), stage3);
        QCOMPARE(scene()->card(6)->meshLabel(), stage0);
        QCOMPARE(scene()->card(0)->meshColour(), TopologyScene::stageColour(3));
        // what GPU 0 owned (stage 0's weights and activations) is GPU 6's now
        for (size_t i = 0; i < before.workload.items.size(); ++i)
            QCOMPARE(m_doc->scenario().workload.items[i].ownedBy(6), before.workload.items[i].ownedBy(0));
        // undo puts everything back
        m_doc->undoStack()->undo();
        QCOMPARE(m_doc->scenario(), before);
        QCOMPARE(scene()->card(0)->meshLabel(), stage0);
        // the same group: nothing to do, nothing on the undo stack
        m_doc->undoStack()->clear();
        std::unique_ptr<QMimeData> own(meshUnitMimeData({0, MeshUnit::Stage}));
        QVERIFY(dropOnCard(1, own.get()));
        QCOMPARE(m_doc->undoStack()->count(), 0);
        QCOMPARE(m_doc->scenario(), before);
    }

    void aMeshUnitPayloadReadsBackAndAForeignOneDoesNot()
    {
        for (const MeshUnitRef ref : {MeshUnitRef{5, MeshUnit::Stage}, MeshUnitRef{0, MeshUnit::TensorGroup}}) {
            std::unique_ptr<QMimeData> mime(meshUnitMimeData(ref));
            QCOMPARE(meshUnitFrom(mime.get()), std::optional<MeshUnitRef>(ref));
        }
        for (const char* bad : {"", "3", "3 2", "-1 0", "x 1", "3 1 1"}) {
            QMimeData mime;
            mime.setData(QString::fromLatin1(kMeshUnitMimeType), QByteArray(bad));
            QVERIFY2(!meshUnitFrom(&mime), bad);
        }
        QMimeData text;
        text.setText(QStringLiteral("3 1"));
        QVERIFY(!meshUnitFrom(&text));
        QVERIFY(!meshUnitFrom(nullptr));
    }

    void foreignDropsAreRefused()
    {
        open(test::fourCardsOneItem());
        QMimeData text;
        text.setText(QStringLiteral("0,0,-1"));
        QVERIFY(!dropOnCard(0, &text));
        QCOMPARE(m_doc->undoStack()->count(), 0);
    }

    void cleanup() { m_page.reset(); }

private:
    bool dropOnCard(int rank, QMimeData* mime, Qt::KeyboardModifiers mods = Qt::NoModifier)
    {
        return test::dropOnCard(view(), scene()->card(rank), mime, mods);
    }
};

SHARDLAB_GUI_TEST_MAIN(test_dragdrop, TestDragDrop)
#include "test_dragdrop.moc"

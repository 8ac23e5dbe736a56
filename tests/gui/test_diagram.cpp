// The diagram: a readable layout for every preset and for clusters up to 64 GPUs (nothing
// overlaps, labels never cover a card or each other), labels by link class, and the playback
// contract: setActivity() shows each rank's state, whom a waiting rank waits for, and traffic on
// each link; an empty frame clears it.
#include "gui_test_main.h"
#include "document/document.h"
#include "document/livefeedback.h"
#include "gui_test_helpers.h"
#include "i18n/language.h"
#include "shell/presentermode.h"
#include "style/theme.h"
#include "topology/gpucarditem.h"
#include "shardlab/model/presets.h"
#include "shardlab/model/scenario_edit.h"
#include "topology/linkitem.h"
#include "topology/topologylayout.h"
#include "topology/topologyscene.h"

#include <QTest>
#include <QTranslator>

using namespace shardlab;
using namespace shardlab::gui;

namespace {

std::vector<std::pair<QString, Topology>> machines()
{
    std::vector<std::pair<QString, Topology>> out;
    for (const PresetInfo& p : presetList())
        out.push_back({QString::fromStdString(p.id), *preset(p.id)});
    out.push_back({QStringLiteral("h200 x 64"), scaleOut(*preset("h200-nvswitch-8"), 64)});
    out.push_back({QStringLiteral("teaching x 64"), scaleOut(*preset("teaching-4x16gb-pcie"), 64)});
    out.push_back({QStringLiteral("dgx1 x 16"), scaleOut(*preset("dgx1-p100"), 16)});
    return out;
}

// A scene on a scenario that has only a machine.
struct SceneOn {
    Document doc;
    LiveFeedback feedback{&doc};
    TopologyScene scene{&doc, &feedback};
    explicit SceneOn(const Topology& t)
    {
        Scenario s;
        s.topology = t;
        doc.reset(s, QString());
    }
};

} // namespace

class TestDiagram : public QObject {
    Q_OBJECT
private slots:
    void layoutOfEveryMachineHasNoOverlaps()
    {
        for (const auto& [name, t] : machines()) {
            const TopologyLayout lay = layoutTopology(t);
            QCOMPARE(lay.vertices.size(), size_t(t.vertexCount()));
            QCOMPARE(lay.nodes.size(), size_t(t.nodeCount()));
            for (int a = 0; a < t.vertexCount(); ++a) {
                const QRectF ra = lay.vertices[size_t(a)].rect;
                QVERIFY2(!ra.isEmpty(), qPrintable(name));
                QVERIFY2(lay.bounds.contains(ra), qPrintable(name));
                for (int b = a + 1; b < t.vertexCount(); ++b)
                    QVERIFY2(!ra.intersects(lay.vertices[size_t(b)].rect),
                             qPrintable(QStringLiteral("%1: %2 overlaps %3")
                                            .arg(name, QString::fromStdString(t.vertexId(a)),
                                                 QString::fromStdString(t.vertexId(b)))));
                // everything of a node sits inside its frame
                if (t.nodeOf(a) >= 0)
                    for (const NodeFrame& f : lay.nodes)
                        if (f.node == t.nodeOf(a))
                            QVERIFY2(f.rect.contains(ra), qPrintable(name));
            }
            for (size_t i = 0; i < t.links.size(); ++i)
                QVERIFY2(lay.links[i].points.size() >= 2, qPrintable(name));
            // node frames never overlap
            for (size_t i = 0; i < lay.nodes.size(); ++i)
                for (size_t j = i + 1; j < lay.nodes.size(); ++j)
                    QVERIFY2(!lay.nodes[i].rect.intersects(lay.nodes[j].rect), qPrintable(name));
        }
    }

    void sixtyFourGpusFitALandscapeWindow()
    {
        const TopologyLayout lay = layoutTopology(scaleOut(*preset("h200-nvswitch-8"), 64));
        const double aspect = lay.bounds.width() / lay.bounds.height();
        QVERIFY2(aspect > 1.0 && aspect < 2.6, qPrintable(QString::number(aspect)));
        // cards in rank order, left to right within a node
        QVERIFY(lay.vertices[1].rect.left() > lay.vertices[0].rect.left());
        QCOMPARE(lay.vertices[1].rect.top(), lay.vertices[0].rect.top());
    }

    void linksAreLabelledByClassAndLabelsNeverCollide()
    {
        for (const auto& [name, t] : machines()) {
            SceneOn on(t);
            TopologyScene& scene = on.scene;
            std::vector<QRectF> shown;
            for (size_t i = 0; i < t.links.size(); ++i) {
                LinkItem* link = scene.linkItem(int(i));
                QVERIFY(link);
                if (!link->labelVisible())
                    continue;
                const QRectF r = link->labelRect();
                for (int v = 0; v < t.vertexCount(); ++v)
                    QVERIFY2(!r.intersects(scene.topologyLayout().vertices[size_t(v)].rect),
                             qPrintable(name + link->label()));
                for (const QRectF& o : shown)
                    QVERIFY2(!r.intersects(o), qPrintable(name + link->label()));
                shown.push_back(r);
            }
            QVERIFY2(!shown.empty(), qPrintable(name));
        }
        Scenario s;
        s.topology = *preset("h200-nv18-4");
        SceneOn on(s.topology);
        Document& doc = on.doc;
        TopologyScene& scene = on.scene;
        QStringList labels;
        for (size_t i = 0; i < s.topology.links.size(); ++i)
            labels << scene.linkItem(int(i))->label();
        QVERIFY(labels.contains(QStringLiteral("NV18 450 GB/s")));
        QVERIFY(labels.contains(QStringLiteral("PCIe 63 GB/s")));
        QVERIFY(labels.contains(QStringLiteral("SYS 62.4 GB/s")));
        s.topology = *preset("2x8-h100-ib");
        doc.reset(s, QString());
        QCOMPARE(scene.cardCount(), 16);
        QCOMPARE(scene.linkItem(int(s.topology.links.size()) - 1)->label(), QStringLiteral("IB 50 GB/s"));
        s.topology = *preset("teaching-4x16gb-pcie");
        doc.reset(s, QString());
        QCOMPARE(scene.linkItem(0)->label(), QStringLiteral("PCIe 15.8 GB/s"));
    }

    void ownershipEditsKeepTheSceneItems()
    {
        // an ownership edit updates cards in place; only a topology edit rebuilds
        Document doc;
        doc.reset(test::fourCardsOneItem(), QString());
        LiveFeedback feedback(&doc);
        TopologyScene scene(&doc, &feedback);
        GpuCardItem* card = scene.card(1);
        QVERIFY(doc.apply(QStringLiteral("own"), [](Scenario& s) { s.workload.items[0].shards[0].owners = {1}; }).ok());
        QCOMPARE(scene.card(1), card);
        QCOMPARE(card->gaugeState(), GpuCardItem::GaugeState::Overflow);
        QVERIFY(doc.apply(QStringLiteral("gpu"), [](Scenario& s) { addGpuLike(s, 0); }).ok());
        QCOMPARE(scene.cardCount(), 5);
        QCOMPARE(scene.card(1)->gaugeState(), GpuCardItem::GaugeState::Overflow);
        QCOMPARE(scene.card(4)->gaugeState(), GpuCardItem::GaugeState::Empty);
    }

    // A plan's scenario (issue 27): every card names its stage, TP rank and DP replica, with its
    // stage's stripe; TP partners share a stage colour, stages differ. Adding a GPU leaves a mesh
    // that no longer covers the ranks, which is then not drawn.
    void aPlansCardsShowTheirPlaceOnTheMesh()
    {
        Document doc;
        doc.reset(test::loadExample("plan-mfu-tp2-pp4.shardlab.json"), QString());
        LiveFeedback feedback(&doc);
        TopologyScene scene(&doc, &feedback);
        QCOMPARE(scene.cardCount(), 8);
        // TP 2 x PP 4, TP innermost: rank 3 is stage 1's second TP rank
        QCOMPARE(scene.card(3)->meshLabel(), QStringLiteral("stage 1 \u00b7 TP 1 \u00b7 DP 0"));
        QVERIFY(scene.card(3)->toolTip().contains(QStringLiteral("<br>stage 1 \u00b7 TP 1 \u00b7 DP 0<br>")));
        QCOMPARE(scene.card(0)->meshColour(), scene.card(1)->meshColour());
        QVERIFY(scene.card(0)->meshColour() != scene.card(2)->meshColour());
        QCOMPARE(scene.card(7)->meshColour(), TopologyScene::stageColour(3));
        QVERIFY(doc.apply(QStringLiteral("gpu"), [](Scenario& s) { addGpuLike(s, 0); }).ok());
        QCOMPARE(scene.cardCount(), 9);
        QVERIFY(scene.card(3)->meshLabel().isEmpty());

        // a scenario without a mesh has none
        SceneOn plain(*preset("h200-nvswitch-8"));
        QVERIFY(plain.scene.card(0)->meshLabel().isEmpty());
    }

    void activityFramesAnimateTheDiagram()
    {
        Scenario s;
        s.topology = *preset("teaching-4x16gb-pcie");
        SceneOn on(s.topology);
        TopologyScene& scene = on.scene;
        ActivitySnapshot frame;
        frame.timeUs = 120;
        frame.ranks = {ActivityState::Compute, ActivityState::Communicate, ActivityState::Wait, ActivityState::Idle};
        frame.waitingFor = {-1, -1, 0, -1};
        frame.links.resize(s.topology.links.size());
        frame.links[0] = {1.0, 4e6, true};
        frame.links[1] = {0.25, 1e6, false};
        scene.setActivity(frame);
        QCOMPARE(scene.card(0)->activity(), ActivityState::Compute);
        QCOMPARE(scene.card(0)->activityText(), QStringLiteral("computing"));
        QCOMPARE(scene.card(2)->activityText(), QStringLiteral("waits for GPU 0"));
        QCOMPARE(scene.waitArrowCount(), 1);
        LinkItem* busy = scene.linkItem(0);
        LinkItem* light = scene.linkItem(1);
        QVERIFY(busy->hasTraffic() && light->hasTraffic());
        QVERIFY(!scene.linkItem(2)->hasTraffic());
        // width follows the bytes, colour the utilisation
        QCOMPARE(busy->trafficWidth(), 16.0);
        QCOMPARE(light->trafficWidth(), 3.0 + 13.0 * 0.25);
        QVERIFY(busy->trafficColour() != light->trafficColour());
        QCOMPARE(busy->trafficColour(), QColor(0xd5, 0x00, 0x00));
        QVERIFY(!light->traffic().forward);
        // an empty frame clears everything
        scene.setActivity(ActivitySnapshot{});
        QCOMPARE(scene.waitArrowCount(), 0);
        QVERIFY(!busy->hasTraffic());
        QVERIFY(!scene.card(0)->showsActivity());
        QVERIFY(scene.card(2)->activityText().isEmpty());
    }

    // Issue 29: in presenter mode's larger diagram text a card's state was cut ("computi…"). The
    // state right of the title shrinks (down to 75%) before anything is elided, in both languages.
    void aCardsStateStaysWholeInPresenterText()
    {
        Scenario s;
        s.topology = *preset("teaching-4x16gb-pcie");
        const double before = theme::diagramTextScale();
        for (const char* language : {"en", "zh_CN"}) {
            const QList<QTranslator*> old = QCoreApplication::instance()->findChildren<QTranslator*>();
            i18n::installTranslations(QCoreApplication::instance(), QString::fromLatin1(language), false);
            theme::setDiagramTextScale(PresenterMode::kDiagramTextScale);
            {
                SceneOn on(s.topology);
                ActivitySnapshot frame;
                frame.timeUs = 1;
                frame.ranks = {ActivityState::Communicate, ActivityState::Compute, ActivityState::Wait,
                               ActivityState::Paging};
                frame.waitingFor = {-1, -1, 1, -1};
                frame.links.resize(s.topology.links.size());
                on.scene.setActivity(frame);
                for (int r = 0; r < 4; ++r) {
                    const GpuCardItem::HeaderRight right = on.scene.card(r)->headerRight();
                    QCOMPARE(right.text, on.scene.card(r)->activityText());
                    QVERIFY(right.font.pointSizeF() >= 0.74 * theme::diagramFont(9.5, true).pointSizeF());
                }
            }
            for (QTranslator* t : QCoreApplication::instance()->findChildren<QTranslator*>())
                if (!old.contains(t)) {
                    QCoreApplication::removeTranslator(t);
                    delete t;
                }
        }
        theme::setDiagramTextScale(before);
    }

    // Issue 29: 63 ranks waiting for one straggler drew 63 curves over 64 small cards. Beyond
    // kMaxWaitArrows waiting ranks there is one badge per rank waited for instead, in screen pixels.
    void manyWaitersGetABadgeNotATangleOfArrows()
    {
        i18n::installTranslations(QCoreApplication::instance(), i18n::kEnglish, false); // the plural
        const Topology machine = scaleOut(*preset("h200-nvswitch-8"), 64);
        SceneOn on(machine);
        TopologyScene& scene = on.scene;
        ActivitySnapshot frame;
        frame.timeUs = 50;
        frame.ranks.assign(64, ActivityState::Wait);
        frame.waitingFor.assign(64, 5);
        frame.ranks[5] = ActivityState::Compute;
        frame.waitingFor[5] = -1;
        frame.links.resize(machine.links.size());
        scene.setActivity(frame);
        QCOMPARE(scene.waitArrowCount(), 0);
        QCOMPARE(scene.waitBadges(), QStringList{QStringLiteral("63 ranks wait for GPU 5")});
        QCOMPARE(scene.card(9)->activityText(), QStringLiteral("waits for GPU 5"));
        // two ranks waited for: a badge each
        frame.waitingFor[40] = 41;
        frame.waitingFor[41] = -1;
        frame.ranks[41] = ActivityState::Communicate;
        scene.setActivity(frame);
        QCOMPARE(scene.waitBadges(),
                 (QStringList{QStringLiteral("61 ranks wait for GPU 5"), QStringLiteral("1 rank waits for GPU 41")}));
        // up to kMaxWaitArrows waiting ranks keep their arrows
        for (int r = 0; r < 64; ++r)
            if (r >= TopologyScene::kMaxWaitArrows)
                frame.ranks[static_cast<size_t>(r)] = ActivityState::Compute;
        scene.setActivity(frame);
        QCOMPARE(scene.waitArrowCount(), TopologyScene::kMaxWaitArrows - 1); // rank 5 itself computes
        QVERIFY(scene.waitBadges().isEmpty());
        i18n::installTranslations(QCoreApplication::instance(), i18n::kChinese, false);
        frame.ranks.assign(64, ActivityState::Wait);
        scene.setActivity(frame);
        QCOMPARE(scene.waitBadges().first(), QString::fromUtf8("61 个 Rank 在等 GPU 5"));
        i18n::installTranslations(QCoreApplication::instance(), i18n::kEnglish, false);
        scene.setActivity(ActivitySnapshot{});
        QVERIFY(scene.waitBadges().isEmpty());
    }
};

SHARDLAB_GUI_TEST_MAIN(test_diagram, TestDiagram)
#include "test_diagram.moc"

// One visual language: every view draws compute, communication, wait and paging in the colour
// the engine's palette (shardlab/model/palette.h) gives it. Each test draws or builds a view and
// reads the colours it used: the timeline's spans (rendered pixels and the layers' brushes), the
// playback diagram's GPU cards (rendered) and its legend, the diagnosis bars and the scaling
// chart's stacked bars. A view that picks a colour of its own fails here.
#include "gui_test_main.h"
#include "analysis/diagnosispanel.h"
#include "analysis/scalingview.h"
#include "style/plottheme.h"
#include "document/document.h"
#include "document/livefeedback.h"
#include "gui_test_helpers.h"
#include "shardlab/model/palette.h"
#include "shardlab/model/presets.h"
#include "style/theme.h"
#include "style/timelinestyle.h"
#include "timeline/qcustomplot_include.h"
#include "timeline/timelinedata.h"
#include "timeline/timelineview.h"
#include "topology/activitylegend.h"
#include "topology/gpucarditem.h"
#include "topology/switchitem.h"
#include "topology/topologyscene.h"
#include "topology/topologyview.h"

#include <QGraphicsScene>
#include <QImage>
#include <QPainter>
#include <QTest>

#include <memory>

using namespace shardlab;
using namespace shardlab::gui;
using palette::Category;

namespace {

QColor expected(Category c)
{
    const palette::Rgb x = palette::rgb(c);
    return QColor(x.r, x.g, x.b);
}

// Pixels of `img` whose colour is exactly `c` (alpha ignored).
int pixelsOf(const QImage& img, const QColor& c)
{
    const QImage im = img.convertToFormat(QImage::Format_RGB32);
    const QRgb want = c.rgb() & 0xFFFFFF;
    int n = 0;
    for (int y = 0; y < im.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(im.constScanLine(y));
        for (int x = 0; x < im.width(); ++x)
            n += (line[x] & 0xFFFFFF) == want ? 1 : 0;
    }
    return n;
}

Span span(int rank, SpanKind kind, double b, double e, SpanDetail detail = SpanDetail::None)
{
    Span s;
    s.rank = rank;
    s.kind = kind;
    s.detail = detail;
    s.beginUs = b;
    s.endUs = e;
    s.op = 0;
    return s;
}

// Rank 0 computes, pages, communicates; rank 1 computes and waits, then communicates.
std::shared_ptr<RunResult> everyKind()
{
    auto r = std::make_shared<RunResult>();
    r->ranks = 2;
    r->devices = {"G0", "G1"};
    r->spans.push_back(span(0, SpanKind::Compute, 0, 40));
    r->spans.push_back(span(0, SpanKind::Compute, 40, 100, SpanDetail::Paging));
    r->spans.push_back(span(0, SpanKind::Comm, 100, 160));
    r->spans.push_back(span(1, SpanKind::Compute, 0, 30));
    r->spans.push_back(span(1, SpanKind::Wait, 30, 100));
    r->spans.push_back(span(1, SpanKind::Comm, 100, 160));
    r->iterations.push_back({0, 160});
    return r;
}

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

QImage renderItem(QGraphicsScene& scene, const QGraphicsItem* item)
{
    const QRectF r = item->sceneBoundingRect();
    QImage img(r.size().toSize(), QImage::Format_ARGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    scene.render(&p, QRectF(QPointF(0, 0), r.size()), r);
    return img;
}

} // namespace

class TestPalette : public QObject {
    Q_OBJECT
private slots:
    void paletteIsOneTableOfDistinctColours()
    {
        QCOMPARE(expected(Category::Compute), QColor(0x00, 0x72, 0xB2));
        QCOMPARE(expected(Category::Paging), QColor(0x8C, 0x56, 0x4B)); // lesson 1: "brown paging blocks"
        for (size_t i = 0; i < palette::kCategories.size(); ++i)
            for (size_t j = i + 1; j < palette::kCategories.size(); ++j)
                QVERIFY(expected(palette::kCategories[i]) != expected(palette::kCategories[j]));
        QCOMPARE(theme::categoryColour(Category::Wait), expected(Category::Wait));
    }

    void timelineDrawsEachKindInItsColour()
    {
        TimelineView v;
        v.resize(1200, 300);
        v.show();
        v.setData(TimelineData::build(everyKind()));
        v.replotNow();
        QCOMPARE(v.spanLayer(SpanKind::Compute)->brush().color(), expected(Category::Compute));
        QCOMPARE(v.spanLayer(SpanKind::Comm)->brush().color(), expected(Category::Communication));
        QCOMPARE(v.spanLayer(SpanKind::Wait)->brush().color(), expected(Category::Wait));
        QCOMPARE(v.pagingLayer()->brush().color(), expected(Category::Paging));
        // what was painted: every category's colour is on screen, paging included
        const QImage img = v.plot()->toPixmap(1200, 300).toImage();
        for (Category c : {Category::Compute, Category::Communication, Category::Wait, Category::Paging})
            QVERIFY2(pixelsOf(img, expected(c)) > 200, palette::name(c));
        // one paging block, drawn over its compute span
        QCOMPARE(v.pagingLayer()->paintedRects(), 1);
        // and the legend names it
        QVERIFY(v.plot()->legend->itemWithPlottable(v.pagingLayer()) != nullptr);
    }

    void timelineLegendHasNoPagingEntryWithoutPaging()
    {
        auto run = everyKind();
        run->spans[1].detail = SpanDetail::None;
        TimelineView v;
        v.resize(800, 300);
        v.setData(TimelineData::build(run));
        QVERIFY(v.plot()->legend->itemWithPlottable(v.pagingLayer()) == nullptr);
        QVERIFY(v.plot()->legend->itemWithPlottable(v.spanLayer(SpanKind::Compute)) != nullptr);
    }

    void playbackCardsUseThePalette()
    {
        SceneOn on(*preset("teaching-4x16gb-pcie"));
        TopologyScene& scene = on.scene;
        QCOMPARE(scene.cardCount(), 4);
        ActivitySnapshot frame;
        frame.timeUs = 50;
        frame.ranks = {ActivityState::Compute, ActivityState::Communicate, ActivityState::Wait, ActivityState::Paging};
        frame.waitingFor = {-1, -1, -1, -1};
        frame.links.resize(on.doc.scenario().topology.links.size());
        scene.setActivity(frame);
        const Category want[] = {Category::Compute, Category::Communication, Category::Wait, Category::Paging};
        for (int r = 0; r < 4; ++r) {
            const QImage img = renderItem(scene, scene.card(r));
            // the card's thick border is drawn in its state's colour
            QVERIFY2(pixelsOf(img, expected(want[r])) > 100, palette::name(want[r]));
            for (Category other : want)
                if (other != want[r])
                    QVERIFY2(pixelsOf(img, expected(other)) == 0, palette::name(other));
        }
        QCOMPARE(scene.card(3)->activityText(), QStringLiteral("paging"));
    }

    void playbackDiagramHasALegend()
    {
        SceneOn on(*preset("teaching-4x16gb-pcie"));
        TopologyView view(&on.scene);
        view.resize(900, 600);
        view.show();
        ActivityLegend* legend = view.activityLegend();
        QVERIFY(legend);
        QVERIFY(legend->isHidden()); // editing: no legend
        ActivitySnapshot frame;
        frame.ranks.assign(4, ActivityState::Compute);
        frame.waitingFor.assign(4, -1);
        frame.links.resize(on.doc.scenario().topology.links.size());
        on.scene.setActivity(frame);
        QVERIFY(!legend->isHidden());
        const auto& e = legend->entries();
        QCOMPARE(e.size(), size_t{4});
        const Category want[] = {Category::Compute, Category::Communication, Category::Wait, Category::Paging};
        const QString words[] = {QStringLiteral("computing"), QStringLiteral("communicating"),
                                 QStringLiteral("waiting"), QStringLiteral("paging")};
        for (size_t i = 0; i < 4; ++i) {
            QCOMPARE(e[i].text, words[i]);
            QCOMPARE(e[i].colour, expected(want[i]));
        }
        // the swatches as painted
        const QImage img = legend->grab().toImage();
        for (Category c : want)
            QVERIFY2(pixelsOf(img, expected(c)) > 20, palette::name(c));
        on.scene.setActivity(ActivitySnapshot{});
        QVERIFY(legend->isHidden());
    }

    void diagnosisBarsUseThePalette()
    {
        DiagnosisPanel panel;
        QCustomPlot* plot = panel.rankPlot();
        QCOMPARE(plot->plottableCount(), 3);
        const Category want[] = {Category::Compute, Category::Communication, Category::Wait};
        for (int i = 0; i < 3; ++i)
            QCOMPARE(plot->plottable(i)->brush().color(), expected(want[i]));
    }

    void scalingBarsUseThePalette()
    {
        ScalingView view;
        QCustomPlot* plot = view.splitPlot();
        QCOMPARE(plot->plottableCount(), 4);
        const Category want[] = {Category::Compute, Category::Communication, Category::Wait, Category::Idle};
        for (int i = 0; i < 4; ++i)
            QCOMPARE(plot->plottable(i)->brush().color(), expected(want[i]));
    }

    // Blue means compute, orange communication...: a series that is not a kind of time (the
    // speed-up, the efficiency, the ideal line) is drawn in none of the categories' colours.
    void seriesThatAreNotTimeKeepOutOfTheCategoriesColours()
    {
        ScalingView view;
        QCustomPlot* plot = view.curvePlot();
        QVERIFY(plot->graphCount() >= 3);
        for (int i = 0; i < plot->graphCount(); ++i)
            for (Category c : palette::kCategories)
                QVERIFY2(plot->graph(i)->pen().color() != expected(c),
                         qPrintable(plot->graph(i)->name() + QStringLiteral(" is drawn in the colour of ")
                                    + QString::fromUtf8(palette::name(c))));
    }

    // The items' colours (shard tiles, workload list) stay clear of every category's, so a tile
    // never reads as compute or waiting on a card during playback.
    void itemColoursAreNoCategorysColour()
    {
        for (int i = 0; i < 8; ++i)
            for (Category c : palette::kCategories) {
                const QColor a = theme::itemColour(i), b = expected(c);
                const int distance =
                    std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
                QVERIFY2(distance >= 90,
                         qPrintable(QStringLiteral("item colour %1 is close to %2").arg(a.name(), b.name())));
            }
    }

    // Issue 29: on presenter mode's dark theme a node's frame is dark grey, not the light grey that
    // made the playback diagram a white box on black; and light again after.
    void darkThemeDrawsNodeFramesDark()
    {
        SceneOn on(*preset("teaching-4x16gb-pcie"));
        const NodeFrameItem* frame = nullptr;
        for (QGraphicsItem* item : on.scene.items())
            if (auto* f = dynamic_cast<NodeFrameItem*>(item))
                frame = f;
        QVERIFY(frame);
        const int area = static_cast<int>(frame->sceneBoundingRect().width() * frame->sceneBoundingRect().height());
        const QImage light = renderItem(on.scene, frame);
        QVERIFY(pixelsOf(light, theme::frameFill()) > area / 4);
        QVERIFY(pixelsOf(light, theme::frameFillDark()) < area / 200); // (a blended edge may match)
        timelinestyle::darkBackground() = true;
        const QImage dark = renderItem(on.scene, frame);
        timelinestyle::darkBackground() = false;
        QVERIFY(pixelsOf(dark, theme::frameFillDark()) > area / 4);
        QVERIFY(pixelsOf(dark, theme::frameFill()) < area / 200);
    }

    // Presenter mode's dark theme: the ink-coloured series become light, and come back exactly.
    void darkThemeLightensInkSeriesAndPutsThemBack()
    {
        ScalingView view;
        QCustomPlot* plot = view.curvePlot();
        std::vector<QColor> before;
        for (int i = 0; i < plot->graphCount(); ++i)
            before.push_back(plot->graph(i)->pen().color());
        auto undo = plottheme::apply(plot, true, 1.5);
        int inked = 0;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (before[static_cast<size_t>(i)].hslSaturation() < 40) { // ink and grey: the speed-up, the ideal line
                ++inked;
                QVERIFY2(plot->graph(i)->pen().color().lightness() >= 130, qPrintable(plot->graph(i)->name()));
            } else { // a colour keeps its meaning
                QCOMPARE(plot->graph(i)->pen().color(), before[static_cast<size_t>(i)]);
            }
        QCOMPARE(inked, 2);
        undo();
        for (int i = 0; i < plot->graphCount(); ++i)
            QCOMPARE(plot->graph(i)->pen().color(), before[static_cast<size_t>(i)]);
    }
};

SHARDLAB_GUI_TEST_MAIN(test_palette, TestPalette)
#include "test_palette.moc"

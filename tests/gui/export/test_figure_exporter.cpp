// Figure export of the three kinds of view: every format is produced and is non-trivial (PNG
// decodes at the expected size, SVG parses with drawing elements, PDF has a page), plus the
// clipboard, "export all" and the dialog's options.
#include "export/export_dialog.h"
#include "export/figure_exporter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QLineEdit>
#include <QMimeData>
#include <QPainter>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "timeline/qcustomplot_include.h"

using namespace shardlab::gui;

namespace {

class PaintedWidget : public QWidget {
protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.fillRect(QRect(20, 20, 120, 60), QColor(0x4e, 0x79, 0xa7));
        p.setPen(QPen(Qt::black, 2));
        p.drawLine(10, 150, 280, 150);
        p.drawText(QPointF(20, 120), QStringLiteral("compute 120 ms"));
    }
};

int nonWhitePixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            n += image.pixelColor(x, y) != QColor(Qt::white) ? 1 : 0;
    return n;
}

// Start elements by name in an SVG document; fails the test on XML errors.
QMap<QString, int> svgElements(const QByteArray& svg)
{
    QMap<QString, int> names;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement)
            ++names[xml.name().toString()];
    if (xml.hasError())
        qWarning() << "XML error" << xml.errorString();
    return xml.hasError() ? QMap<QString, int>{} : names;
}

// An SVG document drawn at its own size on white.
QImage rasterised(const QByteArray& svg)
{
    QSvgRenderer renderer(svg);
    QImage image(renderer.defaultSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    renderer.render(&p);
    return image;
}

} // namespace

class TestFigureExporter : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void fileNames();
    void pngAtOneTwoAndCustomDpi_data();
    void pngAtOneTwoAndCustomDpi();
    void svgParsesWithDrawingElements_data();
    void svgParsesWithDrawingElements();
    void pdfHasOnePageTheSizeOfTheView_data();
    void pdfHasOnePageTheSizeOfTheView();
    void plotFontsGrowForPrintAndComeBack();
    void clipboardHoldsImageAndSvg();
    void exportAllWritesAFolderOfFigures();
    void errorsNameWhatIsWrong();
    void dialogOptions();
    void slideShapeAndCaption();
    void selectionIsLeftOut();

private:
    QWidget* view(const QString& kind);
    PaintedWidget m_painted;
    QGraphicsScene m_scene;
    QGraphicsView m_graphics;
    QCustomPlot m_plot;
    QTemporaryDir m_dir;
};

QWidget* TestFigureExporter::view(const QString& kind)
{
    if (kind == QLatin1String("graphics"))
        return &m_graphics;
    if (kind == QLatin1String("plot"))
        return &m_plot;
    return &m_painted;
}

void TestFigureExporter::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // For reviews: SHARDLAB_SCREENSHOT_DIR=folder keeps the exported files.
    m_dir.setAutoRemove(qEnvironmentVariableIsEmpty("SHARDLAB_SCREENSHOT_DIR"));
    if (!m_dir.autoRemove())
        qInfo() << "exports kept in" << m_dir.path();
    m_painted.resize(300, 200);
    m_painted.show();
    m_scene.addRect(0, 0, 200, 100, QPen(Qt::black), QBrush(QColor(0xf2, 0x8e, 0x2b)));
    m_scene.addText(QStringLiteral("GPU0 \u2194 GPU1 NV18"))->setPos(10, 110);
    m_graphics.setScene(&m_scene);
    m_graphics.resize(320, 240);
    m_graphics.show();
    m_plot.resize(400, 300);
    m_plot.addGraph();
    m_plot.graph(0)->setName(QStringLiteral("all-reduce"));
    m_plot.graph(0)->setData({1, 2, 3, 4}, {1, 4, 9, 16});
    m_plot.xAxis->setLabel(QStringLiteral("message size (MB)"));
    m_plot.yAxis->setLabel(QStringLiteral("time (ms)"));
    m_plot.legend->setVisible(true);
    m_plot.rescaleAxes();
    m_plot.show();
    m_plot.replot();
    QVERIFY(QTest::qWaitForWindowExposed(&m_painted));
    QVERIFY(QTest::qWaitForWindowExposed(&m_graphics));
}

void TestFigureExporter::fileNames()
{
    QCOMPARE(FigureExporter::fileBaseName(QStringLiteral("Per-rank timeline (2x)")),
             QStringLiteral("per-rank-timeline-2x"));
    QCOMPARE(FigureExporter::fileBaseName(QStringLiteral("  !! ")), QStringLiteral("figure"));
    QCOMPARE(FigureExporter::fileBaseName(QStringLiteral("拓扑 Topology")), QStringLiteral("拓扑-topology"));
    QCOMPARE(FigureExporter::formatForPath(QStringLiteral("a/b.SVG")), std::optional<FigureFormat>(FigureFormat::Svg));
    QVERIFY(!FigureExporter::formatForPath(QStringLiteral("b.jpg")));
}

void TestFigureExporter::pngAtOneTwoAndCustomDpi_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("scale");
    QTest::addColumn<int>("dpi");
    for (const char* kind : {"widget", "graphics", "plot"}) {
        QTest::addRow("%s 1x", kind) << QString::fromLatin1(kind) << 1.0 << 0;
        QTest::addRow("%s 2x", kind) << QString::fromLatin1(kind) << 2.0 << 0;
        QTest::addRow("%s 300 dpi", kind) << QString::fromLatin1(kind) << 1.0 << 300;
    }
}

void TestFigureExporter::pngAtOneTwoAndCustomDpi()
{
    QFETCH(QString, kind);
    QFETCH(double, scale);
    QFETCH(int, dpi);
    QWidget* v = view(kind);
    FigureExportOptions o;
    o.format = FigureFormat::Png;
    o.scale = scale;
    o.dpi = dpi;
    const QString path = m_dir.filePath(kind + QStringLiteral("-%1-%2.png").arg(scale).arg(dpi));
    const auto st = FigureExporter::exportView(v, path, o);
    QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
    QImage image(path);
    QVERIFY(!image.isNull());
    const double s = dpi > 0 ? dpi / 96.0 : scale;
    QCOMPARE(image.size(), (QSizeF(v->size()) * s).toSize());
    QVERIFY(nonWhitePixels(image) > 50);
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), qRound(96 * s));
}

void TestFigureExporter::svgParsesWithDrawingElements_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::newRow("widget") << QStringLiteral("widget") << QStringLiteral("compute 120 ms");
    QTest::newRow("graphics") << QStringLiteral("graphics") << QStringLiteral("NV18");
    QTest::newRow("plot") << QStringLiteral("plot") << QStringLiteral("time (ms)");
}

void TestFigureExporter::svgParsesWithDrawingElements()
{
    QFETCH(QString, kind);
    QFETCH(QString, text);
    FigureExportOptions o;
    o.format = FigureFormat::Svg;
    o.title = QStringLiteral("A figure");
    const QString path = m_dir.filePath(kind + QStringLiteral(".svg"));
    QVERIFY(FigureExporter::exportView(view(kind), path, o).ok());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray svg = f.readAll();
    const QMap<QString, int> elements = svgElements(svg);
    QVERIFY(elements.value(QStringLiteral("svg")) == 1);
    QVERIFY(elements.value(QStringLiteral("path")) + elements.value(QStringLiteral("rect"))
                + elements.value(QStringLiteral("polyline")) + elements.value(QStringLiteral("line"))
            > 0);
    // text as outlines by default: the same glyphs on a machine without these fonts
    QCOMPARE(elements.value(QStringLiteral("text")), 0);
    QVERIFY(!svg.contains(text.toUtf8()));
    // and as text when asked: legible and searchable
    o.textAsPaths = false;
    const QByteArray asText = FigureExporter::renderSvg(view(kind), o);
    QVERIFY(svgElements(asText).value(QStringLiteral("text")) > 0);
    QVERIFY2(asText.contains(text.toUtf8()), qPrintable(text));
    // the outlines stand where the text stood, at its size: the two drawings differ in few pixels
    const QImage outlines = rasterised(svg), texts = rasterised(asText);
    QCOMPARE(outlines.size(), texts.size());
    int inked = 0, differ = 0;
    for (int y = 0; y < texts.height(); ++y)
        for (int x = 0; x < texts.width(); ++x) {
            const bool a = qGray(outlines.pixel(x, y)) < 128, b = qGray(texts.pixel(x, y)) < 128;
            inked += b ? 1 : 0;
            differ += a != b ? 1 : 0;
        }
    QVERIFY2(differ < inked / 5, qPrintable(QStringLiteral("%1 of %2 dark pixels differ").arg(differ).arg(inked)));
}

void TestFigureExporter::pdfHasOnePageTheSizeOfTheView_data()
{
    QTest::addColumn<QString>("kind");
    for (const char* kind : {"widget", "graphics", "plot"})
        QTest::newRow(kind) << QString::fromLatin1(kind);
}

void TestFigureExporter::pdfHasOnePageTheSizeOfTheView()
{
    QFETCH(QString, kind);
    QWidget* v = view(kind);
    FigureExportOptions o;
    o.format = FigureFormat::Pdf;
    const QString path = m_dir.filePath(kind + QStringLiteral(".pdf"));
    QVERIFY(FigureExporter::exportView(v, path, o).ok());
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray pdf = f.readAll();
    QVERIFY(pdf.startsWith("%PDF-"));
    int pages = 0;
    for (auto it = QRegularExpression(QStringLiteral("/Type\\s*/Page[^s]")).globalMatch(QString::fromLatin1(pdf));
         it.hasNext(); it.next())
        ++pages;
    QCOMPARE(pages, 1);
    // one page of the view's size in points (96 px = 72 pt)
    const QRegularExpression box(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
    const auto m = box.match(QString::fromLatin1(pdf));
    QVERIFY(m.hasMatch());
    QVERIFY(qAbs(m.captured(1).toDouble() - v->width() * 0.75) < 1.0);
    QVERIFY(qAbs(m.captured(2).toDouble() - v->height() * 0.75) < 1.0);
    QVERIFY(pdf.size() > 1000);
}

void TestFigureExporter::plotFontsGrowForPrintAndComeBack()
{
    const QFont before = m_plot.xAxis->labelFont();
    const QImage normal = FigureExporter::renderImage(&m_plot, 1.0, 1.0);
    const QImage larger = FigureExporter::renderImage(&m_plot, 1.0, 1.6);
    QCOMPARE(m_plot.xAxis->labelFont(), before); // the view is restored
    QVERIFY(normal != larger);
    // larger labels ink more pixels
    QVERIFY(nonWhitePixels(larger) > nonWhitePixels(normal));
}

void TestFigureExporter::clipboardHoldsImageAndSvg()
{
    QVERIFY(FigureExporter::copyToClipboard(&m_painted, 2.0).ok());
    const QMimeData* data = QGuiApplication::clipboard()->mimeData();
    QVERIFY(data);
    QVERIFY(data->hasImage());
    QCOMPARE(qvariant_cast<QImage>(data->imageData()).size(), QSize(600, 400));
    QVERIFY(!svgElements(data->data(QStringLiteral("image/svg+xml"))).isEmpty());
}

void TestFigureExporter::exportAllWritesAFolderOfFigures()
{
    const QString folder = m_dir.filePath(QStringLiteral("figures/all"));
    QList<NamedView> views = {{QStringLiteral("Timeline"), &m_painted},
                              {QStringLiteral("Topology"), &m_graphics},
                              {QStringLiteral("Timeline"), &m_painted}};
    auto written =
        FigureExporter::exportAll(views, folder, {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf}, {});
    QVERIFY2(written.ok(), written.ok() ? "" : written.error().message.c_str());
    QCOMPARE(written->size(), 9);
    for (const char* name : {"timeline.png", "timeline.svg", "timeline.pdf", "topology.pdf", "timeline-2.png"})
        QVERIFY2(QFileInfo(QDir(folder).filePath(QString::fromLatin1(name))).size() > 100, name);

    QPointer<QWidget> gone = new PaintedWidget;
    delete gone.data();
    auto missing = FigureExporter::exportAll({{QStringLiteral("Gone"), gone}}, folder, {FigureFormat::Png}, {});
    QVERIFY(!missing.ok());
    QVERIFY(QString::fromStdString(missing.error().message).contains(QStringLiteral("Gone")));
}

void TestFigureExporter::errorsNameWhatIsWrong()
{
    FigureExportOptions o;
    QVERIFY(!FigureExporter::exportView(nullptr, m_dir.filePath(QStringLiteral("x.png")), o).ok());
    const auto unwritable = FigureExporter::exportView(&m_painted, QStringLiteral("/nonexistent-dir/x.png"), o);
    QVERIFY(!unwritable.ok());
    QVERIFY(QString::fromStdString(unwritable.error().message).contains(QStringLiteral("/nonexistent-dir/x.png")));
    o.scale = 100;
    QVERIFY(!FigureExporter::exportView(&m_painted, m_dir.filePath(QStringLiteral("huge.png")), o).ok());
    PaintedWidget neverShown;
    neverShown.resize(0, 0);
    QVERIFY(!FigureExporter::exportView(&neverShown, m_dir.filePath(QStringLiteral("empty.png")), {}).ok());
}

void TestFigureExporter::dialogOptions()
{
    ExportDialog dialog(m_dir.filePath(QStringLiteral("timeline")), true);
    const auto combos = dialog.findChildren<QComboBox*>();
    QCOMPARE(combos.size(), 3); // format, resolution, shape
    QCOMPARE(dialog.path(), m_dir.filePath(QStringLiteral("timeline.png")));
    QCOMPARE(dialog.options().format, FigureFormat::Png);
    QCOMPARE(dialog.options().scale, 2.0);
    QVERIFY(dialog.options().fontScale > 1.0); // plots get larger fonts by default
    combos[1]->setCurrentIndex(2);             // custom DPI
    dialog.findChild<QSpinBox*>()->setValue(600);
    QCOMPARE(dialog.options().dpi, 600);
    QCOMPARE(FigureExporter::effectiveScale(dialog.options()), 6.25);
    combos[0]->setCurrentIndex(2); // PDF
    QCOMPARE(dialog.options().format, FigureFormat::Pdf);
    QCOMPARE(dialog.path(), m_dir.filePath(QStringLiteral("timeline.pdf")));
    // a caption and a slide's shape; outlines only mean something in SVG
    dialog.findChild<QLineEdit*>(QStringLiteral("caption"))->setText(QStringLiteral("  ZeRO-3 on 4 GPUs "));
    auto* aspect = dialog.findChild<QComboBox*>(QStringLiteral("aspect"));
    aspect->setCurrentIndex(aspect->findData(16.0 / 9.0));
    QCOMPARE(dialog.options().caption, QStringLiteral("ZeRO-3 on 4 GPUs"));
    QCOMPARE(dialog.options().aspect, 16.0 / 9.0);
    auto* outlines = dialog.findChild<QCheckBox*>(QStringLiteral("outlines"));
    QVERIFY(!outlines->isEnabled());
    combos[0]->setCurrentIndex(1); // SVG
    QVERIFY(outlines->isEnabled());
    QVERIFY(dialog.options().textAsPaths);
    outlines->setChecked(false);
    QVERIFY(!dialog.options().textAsPaths);
    ExportDialog notAPlot(QStringLiteral("x"), false);
    QVERIFY(!notAPlot.findChild<QCheckBox*>()->isEnabled());
    QCOMPARE(notAPlot.options().fontScale, 1.0);
}

QTEST_MAIN(TestFigureExporter)
#include "test_figure_exporter.moc"

// Issue 29: a slide's figure has a caption above it and the slide's shape.
void TestFigureExporter::slideShapeAndCaption()
{
    FigureExportOptions o;
    o.caption = QStringLiteral("Ring all-reduce on 4 GPUs");
    o.aspect = 16.0 / 9.0;
    // a plot is laid out again below the caption, filling the 16:9 figure
    const FigureLayout plot = FigureExporter::layout(&m_plot, o);
    QVERIFY(qAbs(plot.size.width() - plot.size.height() * 16.0 / 9.0) <= 1.0);
    QVERIFY(plot.size.height() >= m_plot.height() + plot.caption.height());
    QCOMPARE(plot.caption.top(), 0);
    QVERIFY(plot.caption.height() > QFontMetrics(m_plot.font()).height());
    QCOMPARE(plot.content,
             QRect(0, plot.caption.height(), plot.size.width(), plot.size.height() - plot.caption.height()));
    // another view keeps its size, centred on white
    o.caption.clear();
    const FigureLayout widget = FigureExporter::layout(&m_painted, o); // 300 x 200
    QCOMPARE(widget.size, QSize(356, 200));
    QVERIFY(widget.caption.isEmpty());
    QCOMPARE(widget.content, QRect(28, 0, 300, 200));
    // 4:3 of a wide view grows in height
    o.aspect = 4.0 / 3.0;
    QCOMPARE(FigureExporter::layout(&m_graphics, o).size, QSize(320, 240)); // already 4:3
    // the exported PNG has the figure's size, the caption is drawn in its band
    o.caption = QStringLiteral("Ring all-reduce on 4 GPUs");
    o.aspect = 16.0 / 9.0;
    o.format = FigureFormat::Png;
    o.scale = 2.0;
    const QString path = m_dir.filePath(QStringLiteral("slide.png"));
    QVERIFY(FigureExporter::exportView(&m_plot, path, o).ok());
    const QImage image(path);
    QCOMPARE(image.size(), plot.size * 2);
    QVERIFY(nonWhitePixels(image.copy(QRect(plot.caption.topLeft() * 2, plot.caption.size() * 2))) > 20);
    // the caption is never cut: a long one widens the figure
    o.caption = QString(120, QLatin1Char('W'));
    const FigureLayout wide = FigureExporter::layout(&m_plot, o);
    QVERIFY(wide.size.width() > QFontMetrics(FigureExporter::captionFont(&m_plot, 1.0)).horizontalAdvance(o.caption));
    // an impossible shape is refused, naming it
    o.aspect = 50;
    const auto refused = FigureExporter::exportView(&m_plot, path, o);
    QVERIFY(!refused.ok());
    QVERIFY(QString::fromStdString(refused.error().message).contains(QStringLiteral("aspect ratio of 50")));
}

// What was selected on screen is not part of the figure, and is selected again afterwards.
void TestFigureExporter::selectionIsLeftOut()
{
    auto* item = m_scene.addRect(220, 10, 60, 40, QPen(Qt::black), QBrush(Qt::white));
    item->setFlag(QGraphicsItem::ItemIsSelectable);
    const QImage unselected = FigureExporter::renderImage(&m_graphics, 1.0);
    int changes = 0;
    connect(&m_scene, &QGraphicsScene::selectionChanged, this, [&changes] { ++changes; });
    item->setSelected(true);
    QCOMPARE(changes, 1);
    const QImage exported = FigureExporter::renderImage(&m_graphics, 1.0);
    QVERIFY(exported == unselected);
    QVERIFY(item->isSelected());
    QCOMPARE(changes, 1); // nobody was told of the figure's selection
    // the selection shows on screen (the test would pass vacuously otherwise)
    QImage shown(m_graphics.size(), QImage::Format_ARGB32_Premultiplied);
    shown.fill(Qt::white);
    QPainter p(&shown);
    m_graphics.render(&p, QRectF(QPointF(0, 0), QSizeF(m_graphics.size())), m_graphics.viewport()->rect());
    p.end();
    QVERIFY(shown != unselected);
    m_scene.removeItem(item);
    delete item;
}

#include "export/figure_exporter.h"

#include "i18n/language.h"

#include <QBuffer>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QGuiApplication>
#include <QMimeData>
#include <QPainter>
#include <QPdfWriter>
#include <QSet>
#include <QSignalBlocker>
#include <QtMath>
#include <QSvgGenerator>

#include "style/plotstyle.h"
#include "timeline/qcustomplot_include.h"

#include "shardlab/base/file_io.h"

#include <functional>
#include <memory>

namespace shardlab::gui {

namespace {

// Logical (screen) pixels per inch: what a scale of 1 means.
constexpr double kScreenDpi = 96.0;

// The exporter's own errors, worded by the app's translations (tr) already: carried as they are.
Message str(const QString& s) { return i18n::appWorded(s); }

// For the duration of an export: a white background and fonts enlarged by `factor`; the plot is
// restored afterwards. A plot that is not on QCustomPlot's default white keeps its brush in the
// dynamic property "shardlabBackground" (QBrush), which is what it gets back.
class PlotPrintStyle {
public:
    PlotPrintStyle(QCustomPlot* plot, double factor) : m_plot(plot)
    {
        m_plot->setBackground(QBrush(Qt::white));
        if (factor == 1.0)
            return;
        for (QCPAxisRect* rect : m_plot->axisRects())
            for (QCPAxis* axis : rect->axes()) {
                remember(
                    axis->labelFont(), [axis](const QFont& f) { axis->setLabelFont(f); }, factor);
                remember(
                    axis->tickLabelFont(), [axis](const QFont& f) { axis->setTickLabelFont(f); }, factor);
            }
        if (m_plot->legend) {
            // the items first: QCPLegend::setFont passes its font on to every item, so an item read
            // after it would be remembered already enlarged and stay so (issue 13)
            QCPLegend* legend = m_plot->legend;
            for (int i = 0; i < legend->itemCount(); ++i) {
                QCPAbstractLegendItem* item = legend->item(i);
                remember(
                    item->font(), [item](const QFont& f) { item->setFont(f); }, factor);
            }
            remember(
                legend->font(), [legend](const QFont& f) { legend->setFont(f); }, factor);
        }
        for (QCPLayoutElement* element : m_plot->plotLayout()->elements(true))
            if (auto* title = qobject_cast<QCPTextElement*>(element))
                remember(
                    title->font(), [title](const QFont& f) { title->setFont(f); }, factor);
    }
    ~PlotPrintStyle()
    {
        for (auto restore = m_restore.rbegin(); restore != m_restore.rend(); ++restore) // last changed, first restored
            (*restore)();
        const QVariant bg = m_plot->property("shardlabBackground");
        m_plot->setBackground(bg.canConvert<QBrush>() ? bg.value<QBrush>() : QBrush(Qt::white));
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    PlotPrintStyle(const PlotPrintStyle&) = delete;
    PlotPrintStyle& operator=(const PlotPrintStyle&) = delete;

private:
    void remember(const QFont& font, const std::function<void(const QFont&)>& set, double factor)
    {
        QFont larger = font;
        if (font.pointSizeF() > 0)
            larger.setPointSizeF(font.pointSizeF() * factor);
        else if (font.pixelSize() > 0)
            larger.setPixelSize(qRound(font.pixelSize() * factor));
        set(larger);
        m_restore.push_back([set, font] { set(font); });
    }
    QCustomPlot* m_plot;
    std::vector<std::function<void()>> m_restore;
};

// While a figure is drawn: the view and its plots marked as exported (kExportingProperty: the
// timeline leaves out its selection) and a graphics scene's selection cleared, without telling
// anyone (its signals blocked); all restored afterwards.
class ExportingView {
public:
    explicit ExportingView(QWidget* view)
    {
        m_marked << view;
        for (QCustomPlot* plot : view->findChildren<QCustomPlot*>())
            m_marked << plot;
        for (QWidget* w : m_marked)
            w->setProperty(kExportingProperty, true);
        if (auto* graphics = qobject_cast<QGraphicsView*>(view); graphics && graphics->scene()) {
            m_scene = graphics->scene();
            const QSignalBlocker quiet(m_scene);
            m_selected = m_scene->selectedItems();
            for (QGraphicsItem* item : std::as_const(m_selected))
                item->setSelected(false);
        }
    }
    ~ExportingView()
    {
        for (QWidget* w : std::as_const(m_marked))
            if (w)
                w->setProperty(kExportingProperty, QVariant());
        if (m_scene) {
            const QSignalBlocker quiet(m_scene.data());
            for (QGraphicsItem* item : std::as_const(m_selected))
                item->setSelected(true);
        }
    }
    ExportingView(const ExportingView&) = delete;
    ExportingView& operator=(const ExportingView&) = delete;

private:
    QList<QPointer<QWidget>> m_marked;
    QPointer<QGraphicsScene> m_scene;
    QList<QGraphicsItem*> m_selected;
};

void drawCaption(QPainter& painter, QWidget* view, const FigureExportOptions& o, const FigureLayout& l)
{
    if (l.caption.isEmpty())
        return;
    painter.save();
    painter.setFont(FigureExporter::captionFont(view, o.fontScale));
    painter.setPen(Qt::black);
    painter.drawText(l.caption, Qt::AlignCenter, o.caption.trimmed());
    painter.restore();
}

// Draws the figure on `device` at its logical size: white first, the caption, then the view in
// its place. `vector` devices (SVG, PDF) get QCustomPlot's vector mode.
void drawFigure(QWidget* view, QPaintDevice* device, bool vector, const FigureExportOptions& o, const FigureLayout& l)
{
    const ExportingView exporting(view);
    if (auto* plot = qobject_cast<QCustomPlot*>(view)) {
        PlotPrintStyle style(plot, o.fontScale);
        QCPPainter painter(device);
        painter.setMode(QCPPainter::pmNoCaching);
        if (vector) {
            painter.setMode(QCPPainter::pmVectorized);
            // Lines scale with the page instead of staying one device pixel wide when printed.
            painter.setMode(QCPPainter::pmNonCosmetic);
        }
        painter.fillRect(QRect(QPoint(0, 0), l.size), Qt::white);
        drawCaption(painter, view, o, l);
        painter.translate(l.content.topLeft());
        plot->toPainter(&painter, l.content.width(), l.content.height());
        return;
    }
    QPainter painter(device);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(QRect(QPoint(0, 0), l.size), Qt::white);
    drawCaption(painter, view, o, l);
    if (auto* graphics = qobject_cast<QGraphicsView*>(view)) {
        // What the view shows: its visible part of the scene, drawn by the items themselves.
        graphics->render(&painter, QRectF(l.content), graphics->viewport()->rect());
        return;
    }
    view->render(&painter, l.content.topLeft(), QRegion(), QWidget::DrawChildren);
}

// Draws into memory, then writes through the one atomic write (writeFileAtomically), which checks
// every byte: QPdfWriter ignores a short write, so through QSaveFile a full disk committed a
// truncated file over the previous one (issue 14).
Status writeAtomically(const QString& path, const std::function<bool(QIODevice*)>& write)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!write(&buffer))
        return runFailed(str(FigureExporter::tr("%1: the figure could not be drawn").arg(path)));
    buffer.close();
    return writeFileAtomically(path.toStdString(), buffer.data().toStdString());
}

} // namespace

QString FigureExporter::suffix(FigureFormat format)
{
    switch (format) {
    case FigureFormat::Png: return QStringLiteral("png");
    case FigureFormat::Svg: return QStringLiteral("svg");
    case FigureFormat::Pdf: return QStringLiteral("pdf");
    }
    return {};
}

std::optional<FigureFormat> FigureExporter::formatForPath(const QString& path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    for (FigureFormat f : {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf})
        if (ext == suffix(f))
            return f;
    return std::nullopt;
}

QString FigureExporter::fileBaseName(const QString& name)
{
    QString out;
    for (const QChar c : name.trimmed().toLower()) {
        if (c.isLetterOrNumber())
            out += c;
        else if (!out.isEmpty() && !out.endsWith(QLatin1Char('-')))
            out += QLatin1Char('-');
    }
    while (out.endsWith(QLatin1Char('-')))
        out.chop(1);
    return out.isEmpty() ? QStringLiteral("figure") : out;
}

double FigureExporter::effectiveScale(const FigureExportOptions& options)
{
    return options.dpi > 0 ? options.dpi / kScreenDpi : options.scale;
}

QFont FigureExporter::captionFont(QWidget* view, double fontScale)
{
    QFont font = view ? view->font() : QFont();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 1.5 * fontScale);
    return font;
}

FigureLayout FigureExporter::layout(QWidget* view, const FigureExportOptions& o)
{
    FigureLayout l;
    if (!view)
        return l;
    const QSize v = view->size();
    const QString caption = o.caption.trimmed();
    int captionHeight = 0, width = v.width();
    if (!caption.isEmpty()) {
        const QFontMetricsF fm(captionFont(view, o.fontScale));
        captionHeight = qCeil(fm.lineSpacing() * 1.8);
        width = std::max(width, qCeil(fm.horizontalAdvance(caption) + 2 * fm.averageCharWidth())); // never cut
    }
    int height = v.height() + captionHeight;
    if (o.aspect > 0) {
        // the smallest figure of that shape holding caption and view
        if (static_cast<double>(width) / height < o.aspect)
            width = qRound(height * o.aspect);
        else
            height = qRound(width / o.aspect);
    }
    l.size = QSize(width, height);
    if (captionHeight > 0)
        l.caption = QRect(0, 0, width, captionHeight);
    const QRect below(0, captionHeight, width, height - captionHeight);
    // a plot is laid out again at the figure's size; another view keeps its own, centred
    l.content =
        qobject_cast<QCustomPlot*>(view)
            ? below
            : QRect(QPoint(below.x() + (below.width() - v.width()) / 2, below.y() + (below.height() - v.height()) / 2),
                    v);
    return l;
}

QImage FigureExporter::renderImage(QWidget* view, double scale, double fontScale)
{
    FigureExportOptions o;
    o.fontScale = fontScale;
    return renderImage(view, scale, o);
}

QImage FigureExporter::renderImage(QWidget* view, double scale, const FigureExportOptions& options)
{
    if (!view || view->size().isEmpty() || scale <= 0)
        return {};
    const FigureLayout l = layout(view, options);
    QImage image((QSizeF(l.size) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    if (auto* plot = qobject_cast<QCustomPlot*>(view)) {
        // QCustomPlot scales its own raster output (a device pixel ratio would enlarge its fonts
        // twice): the plot is drawn alone, then placed below the caption.
        QPixmap drawn;
        {
            const ExportingView exporting(view);
            PlotPrintStyle style(plot, options.fontScale);
            drawn = plot->toPixmap(l.content.width(), l.content.height(), scale);
        }
        QPainter painter(&image);
        painter.setRenderHint(QPainter::TextAntialiasing);
        painter.drawPixmap(QPointF(l.content.topLeft()) * scale, drawn);
        painter.scale(scale, scale);
        drawCaption(painter, view, options, l);
    } else {
        image.setDevicePixelRatio(scale);
        drawFigure(view, &image, false, options, l);
    }
    image.setDevicePixelRatio(1.0);
    // Tell printing programs the resolution the image was drawn for.
    const int dotsPerMeter = qRound(kScreenDpi * scale / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    return image;
}

QByteArray FigureExporter::renderSvg(QWidget* view, const QString& title, double fontScale)
{
    FigureExportOptions o;
    o.title = title;
    o.fontScale = fontScale;
    return renderSvg(view, o);
}

QByteArray FigureExporter::renderSvg(QWidget* view, const FigureExportOptions& options)
{
    if (!view || view->size().isEmpty())
        return {};
    const FigureLayout l = layout(view, options);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(l.size);
    svg.setViewBox(QRect(QPoint(0, 0), l.size));
    svg.setResolution(qRound(kScreenDpi));
    svg.setTitle(options.title.isEmpty() ? view->windowTitle() : options.title);
    svg.setDescription(tr("Exported from ShardLab"));
    drawFigure(view, &svg, true, options, l);
    buffer.close();
    return options.textAsPaths ? textToPaths(bytes) : bytes;
}

Status FigureExporter::exportView(QWidget* view, const QString& path, const FigureExportOptions& options)
{
    if (!view)
        return badInput(str(tr("there is no view to export")));
    if (view->size().isEmpty())
        return badInput(str(tr("the view has no size yet (it was never shown)")));
    const double scale = effectiveScale(options);
    if (options.format == FigureFormat::Png && (scale <= 0 || scale > 16))
        return badInput(str(tr("a scale of %1 is out of range (expected 0.25 to 16, or 24 to 1536 DPI)").arg(scale)));
    if (options.aspect < 0 || options.aspect > 10 || (options.aspect > 0 && options.aspect < 0.1))
        return badInput(str(tr("an aspect ratio of %1 is out of range (expected 0.1 to 10, or 0 for the view's own)")
                                .arg(options.aspect)));
    switch (options.format) {
    case FigureFormat::Png: {
        const QImage image = renderImage(view, scale, options);
        return writeAtomically(path, [&image](QIODevice* out) { return image.save(out, "PNG"); });
    }
    case FigureFormat::Svg: {
        const QByteArray svg = renderSvg(view, options);
        return writeAtomically(path, [&svg](QIODevice* out) { return out->write(svg) == svg.size(); });
    }
    case FigureFormat::Pdf:
        return writeAtomically(path, [&](QIODevice* out) {
            QPdfWriter pdf(out);
            // One page the size of the view, at screen resolution: the view's pixels are the page's units.
            pdf.setResolution(qRound(kScreenDpi));
            const FigureLayout l = layout(view, options);
            const QSizeF points = QSizeF(l.size) * 72.0 / kScreenDpi;
            pdf.setPageLayout(QPageLayout(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch),
                                          QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
            pdf.setTitle(options.title.isEmpty() ? view->windowTitle() : options.title);
            pdf.setCreator(QStringLiteral("ShardLab"));
            drawFigure(view, &pdf, true, options, l);
            return true;
        });
    }
    return badInput(str(tr("unknown format")));
}

Status FigureExporter::copyToClipboard(QWidget* view, double scale)
{
    const QImage image = renderImage(view, scale);
    if (image.isNull())
        return badInput(str(tr("there is no view to copy")));
    auto* data = new QMimeData;
    data->setImageData(image);
    data->setData(QStringLiteral("image/svg+xml"), renderSvg(view));
    QGuiApplication::clipboard()->setMimeData(data);
    return {};
}

Result<QStringList> FigureExporter::exportAll(const QList<NamedView>& views, const QString& folder,
                                              const QList<FigureFormat>& formats, const FigureExportOptions& options)
{
    if (!QDir().mkpath(folder))
        return badInput(str(tr("%1: the folder cannot be created").arg(folder)));
    QStringList written;
    QSet<QString> used;
    for (const NamedView& nv : views) {
        if (!nv.view)
            return badInput(str(tr("the view \"%1\" no longer exists").arg(nv.name)));
        QString base = fileBaseName(nv.name);
        for (int n = 2; used.contains(base); ++n)
            base = fileBaseName(nv.name) + QLatin1Char('-') + QString::number(n);
        used.insert(base);
        for (FigureFormat format : formats) {
            FigureExportOptions o = options;
            o.format = format;
            if (o.title.isEmpty())
                o.title = nv.name;
            const QString path = QDir(folder).filePath(base + QLatin1Char('.') + suffix(format));
            if (Status st = exportView(nv.view, path, o); !st)
                return st.error();
            written << path;
        }
    }
    return written;
}

} // namespace shardlab::gui

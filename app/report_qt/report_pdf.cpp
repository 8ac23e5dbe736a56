#include "report_pdf.h"

#include "shardlab/base/file_io.h"
#include "shardlab/report/report_html.h"
#include "shardlab/text/message.h"
#include "svg_text_object.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFont>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgRenderer>
#include <QTextDocument>

namespace shardlab::reportqt {

namespace {

// The PDF's own texts (title, footer) are the report's, worded in the report's language from the
// engine's catalogue like the rest of it; its errors are the catalogue's too (report.inc), worded
// by the command line and the app in their user's language.
QString worded(const LabReport& report, Message message)
{
    return QString::fromStdString(render(message, report.language));
}

// Chinese text needs a CJK face: the Simplified Chinese one first, so that Han characters take
// their Simplified forms whatever the system's locale, then fontconfig's fallback.
QFont reportFont(const LabReport& report)
{
    QFont font;
    if (report.language == Language::Chinese)
        font.setFamilies({QStringLiteral("Noto Sans CJK SC"), QStringLiteral("Source Han Sans SC"),
                          QStringLiteral("WenQuanYi Micro Hei"), QStringLiteral("DejaVu Sans")});
    else
        font.setFamilies({QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans CJK SC")});
    return font;
}

// The PDF is laid out at 96 dots per inch, so that the report's pixel sizes (figures, table
// padding) mean what they mean on screen; text and figures stay vectors at any zoom.
constexpr int kLayoutDpi = 96;

} // namespace

Status ensureGuiApplication()
{
    if (QCoreApplication* app = QCoreApplication::instance()) {
        if (!qobject_cast<QGuiApplication*>(app))
            return runFailed(Message("error.report.pdf_needs_gui")
                                 .with("needed", "QGuiApplication")
                                 .with("made", "QCoreApplication"));
        return {};
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY")
        && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Lives until the process ends: command-line tools create it once, just before writing.
    static int argc = 1;
    static char name[] = "shardlab";
    static char* argv[] = {name, nullptr};
    static QGuiApplication* app = new QGuiApplication(argc, argv);
    Q_UNUSED(app);
    return {};
}

std::unique_ptr<QTextDocument> labReportDocument(const LabReport& report, QPaintDevice* device, double textWidth)
{
    auto doc = std::make_unique<QTextDocument>();
    if (device)
        doc->documentLayout()->setPaintDevice(device);
    SvgTextObject::install(doc.get());
    doc->setDocumentMargin(0);
    doc->setDefaultFont(reportFont(report));
    doc->setTextWidth(textWidth);
    ReportHtmlOptions options;
    options.figures = FigureEmbedding::ImageReference;
    options.figureWidth = textWidth;
    options.printStyle = true;
    QHash<QString, QByteArray> figures;
    for (const SvgFigure& f : labReportFigures(report, textWidth))
        figures.insert(QString::fromStdString(f.id), QByteArray::fromStdString(f.svg));
    doc->setHtml(QString::fromStdString(labReportHtml(report, options)));
    SvgTextObject::replaceImages(doc.get(), figures);
    return doc;
}

Status writeLabReportPdf(const LabReport& report, const std::string& path)
{
    if (Status st = ensureGuiApplication(); !st)
        return st;
    // Drawn into memory, then written by the one atomic write (writeFileAtomically), which checks
    // every byte: QPdfWriter ignores a short write, so on a full disk QSaveFile committed a
    // truncated PDF over the previous one (issue 14).
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    {
        QPdfWriter pdf(&file);
        pdf.setResolution(kLayoutDpi);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setPageMargins(QMarginsF(16, 14, 16, 12), QPageLayout::Millimeter);
        pdf.setTitle(worded(report, Message("report.pdf.title").with("scenario", report.scenario.name)));
        pdf.setCreator(QString::fromStdString(report.generator));

        const double footer = 22;
        const QSizeF page(pdf.width(), pdf.height() - footer);
        auto doc = labReportDocument(report, &pdf, page.width());
        doc->setPageSize(page);
        const int pages = doc->pageCount();
        const QString left = worded(
            report,
            Message("report.pdf.footer")
                .with("scenario", report.scenario.name)
                .with("mode", Message(report.mode == RunMode::Live ? "report.pdf.live" : "report.pdf.simulated")));
        QPainter painter(&pdf);
        QFont small = reportFont(report);
        small.setPointSizeF(7.5);
        for (int i = 0; i < pages; ++i) {
            if (i > 0)
                pdf.newPage();
            const QRectF area(0, i * page.height(), page.width(), page.height());
            painter.save();
            painter.translate(0, -area.top());
            painter.setClipRect(area);
            QAbstractTextDocumentLayout::PaintContext context;
            context.clip = area;
            doc->documentLayout()->draw(&painter, context);
            painter.restore();
            painter.setFont(small);
            painter.setPen(QColor(0x66, 0x66, 0x66));
            const QRectF foot(0, page.height(), page.width(), footer);
            painter.drawText(foot, Qt::AlignLeft | Qt::AlignBottom, left);
            painter.drawText(foot, Qt::AlignRight | Qt::AlignBottom,
                             worded(report, Message("report.pdf.page").with("page", i + 1).with("pages", pages)));
        }
        if (!painter.end())
            return runFailed(Message("error.report.pdf_not_drawn").with("file", path));
    }
    file.close();
    return writeFileAtomically(path, file.data().toStdString());
}

QImage renderSvg(const std::string& svg, double scale)
{
    QSvgRenderer renderer(QByteArray::fromStdString(svg));
    if (!renderer.isValid())
        return {};
    const QSize size = (QSizeF(renderer.defaultSize()) * scale).toSize();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    renderer.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

} // namespace shardlab::reportqt

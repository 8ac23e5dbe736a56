// Exports any view as a figure for a report or a slide: PNG at 1x, 2x or a custom DPI, SVG
// (QSvgGenerator) and PDF (QPdfWriter), both as vectors; the clipboard (PNG and SVG); and "export
// all", a folder of figures from a list of named views. Three kinds of view are understood: a
// QCustomPlot (drawn through its own painter, fonts optionally enlarged for print), a
// QGraphicsView (its visible part of the scene), and any other QWidget (QWidget::render). Figures
// get a white background so that they print.
#pragma once

#include "shardlab/base/result.h"

#include <QCoreApplication>
#include <QFont>
#include <QImage>
#include <QList>
#include <QPointer>
#include <QString>
#include <QWidget>

#include <optional>

namespace shardlab::gui {

enum class FigureFormat { Png, Svg, Pdf };

struct FigureExportOptions {
    FigureFormat format = FigureFormat::Png;
    double scale = 2.0;     // PNG: image pixels per screen pixel (1x, 2x, ...)
    int dpi = 0;            // PNG: > 0 overrides scale with dpi / 96 and is written into the file
    double fontScale = 1.0; // plots: fonts (axis labels, tick labels, legend) enlarged by this factor
    QString title;          // SVG and PDF metadata
    // Slides: a caption drawn above the view (none when empty), and the figure's width / height
    // (0: the view's own; a plot is laid out again to fill it, any other view is centred on white).
    QString caption;
    double aspect = 0;
    // SVG: every text drawn as its outline (a path), so the file looks the same on a machine
    // without the fonts it was made with (a slide deck opened elsewhere).
    bool textAsPaths = true;
};

// Where a figure's parts go, in logical pixels: its whole size, the caption's band and the view.
struct FigureLayout {
    QSize size;
    QRect caption; // empty without a caption
    QRect content;
};

struct NamedView {
    QString name; // "Timeline", "Topology": becomes the file name
    QPointer<QWidget> view;
};

class FigureExporter {
    Q_DECLARE_TR_FUNCTIONS(shardlab::gui::FigureExporter)
public:
    static QString suffix(FigureFormat format); // "png", "svg", "pdf"
    static std::optional<FigureFormat> formatForPath(const QString& path);
    // "Per-rank timeline" -> "per-rank-timeline": a file name without a suffix.
    static QString fileBaseName(const QString& name);
    // The image scale the options ask for: dpi / 96 when a DPI is set, otherwise `scale`.
    static double effectiveScale(const FigureExportOptions& options);

    // The figure's layout for `view` with `options` (caption, aspect ratio, font scale).
    static FigureLayout layout(QWidget* view, const FigureExportOptions& options);
    // The caption's font: the view's, bold and half as large again, times the font scale.
    static QFont captionFont(QWidget* view, double fontScale);

    // The figure drawn on a white background at `scale` times its on-screen size.
    static QImage renderImage(QWidget* view, double scale = 2.0, double fontScale = 1.0);
    static QImage renderImage(QWidget* view, double scale, const FigureExportOptions& options);
    // The figure as an SVG document (vectors where the view paints vectors).
    static QByteArray renderSvg(QWidget* view, const QString& title = {}, double fontScale = 1.0);
    static QByteArray renderSvg(QWidget* view, const FigureExportOptions& options);
    // An SVG document with every <text> element replaced by the outline of its text in the
    // font it names (svg_text_paths.cpp).
    static QByteArray textToPaths(const QByteArray& svg);

    // Writes the view to `path` in options.format, atomically. Errors name the path.
    static Status exportView(QWidget* view, const QString& path, const FigureExportOptions& options);
    // Puts the view on the clipboard as an image (at `scale`) and as SVG.
    static Status copyToClipboard(QWidget* view, double scale = 2.0);
    // Writes every view in every format into `folder` (created if missing): NAME.png, NAME.svg,
    // NAME.pdf. Returns the files written; stops at the first error.
    static Result<QStringList> exportAll(const QList<NamedView>& views, const QString& folder,
                                         const QList<FigureFormat>& formats, const FigureExportOptions& options);
};

} // namespace shardlab::gui

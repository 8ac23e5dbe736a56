// The lab report as one self-contained HTML file: inline CSS, inline SVG figures, no scripts and
// nothing fetched from elsewhere. The same writer serves Qt's QTextDocument (for the PDF), which
// reads a subset of HTML and no SVG: there the figures become <img src="figure:ID"> references
// that the caller resolves from labReportFigures().
#pragma once

#include "shardlab/report/lab_report.h"
#include "shardlab/report/report_svg.h"

#include <string>
#include <vector>

namespace shardlab {

enum class FigureEmbedding {
    InlineSvg,      // <svg> elements in the page (browsers)
    ImageReference, // <img src="figure:ID" width=W height=H> (QTextDocument)
};

struct ReportHtmlOptions {
    FigureEmbedding figures = FigureEmbedding::InlineSvg;
    double figureWidth = 0;  // width every figure is drawn at (px); 0: each figure's own default
    bool printStyle = false; // font sizes in points (QTextDocument scales them to the page) and no page width limit
};

// The figures of a report, in the order they appear: the run's timeline, per-rank segments,
// the timing table as bars, and the comparison (time, memory).
// `width` > 0 draws every figure that wide (the PDF uses the page's text width).
std::vector<SvgFigure> labReportFigures(const LabReport& report, double width = 0);

std::string labReportHtml(const LabReport& report, const ReportHtmlOptions& options = {});

// Section ids of the report, in order (tests and the GUI's table of contents use them).
std::vector<std::string> labReportSectionIds();

} // namespace shardlab

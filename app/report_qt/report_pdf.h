// The lab report as PDF (A4, vector text and vector figures) and as a QTextDocument laid out the
// same way, for previews. The content comes from the engine (lab_report.h, report_html.h); this
// library only lays it out.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/report/lab_report.h"

#include <QImage>

#include <memory>
#include <string>

class QPaintDevice;
class QTextDocument;

namespace shardlab::reportqt {

// Makes sure a QGuiApplication exists, for command-line use. Creates one when there is no Qt
// application yet; when QT_QPA_PLATFORM is unset and there is no display (no DISPLAY or
// WAYLAND_DISPLAY), on the offscreen platform. Fails when a QCoreApplication without GUI exists.
Status ensureGuiApplication();

// The report laid out for `device` (a QPdfWriter, or nullptr for the screen), `textWidth` wide in
// the device's units, with every figure drawn as vectors.
std::unique_ptr<QTextDocument> labReportDocument(const LabReport& report, QPaintDevice* device, double textWidth);

// Writes the report as PDF to `path`, atomically (a temporary file renamed over the target).
// Errors name the path (BadInput: it cannot be written).
Status writeLabReportPdf(const LabReport& report, const std::string& path);

// An SVG document rendered on a white background, `scale` times its own size.
QImage renderSvg(const std::string& svg, double scale = 1.0);

} // namespace shardlab::reportqt

// The lab report as PDF through Qt (app/report_qt): the file is a PDF with pages, the figures are
// well-formed SVG that renders, and the command line writes PDF once the writer is installed.
#include "../common/full_disk.h"
#include "cli.h"
#include "report_pdf.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/report/report_html.h"

#include <QTextBlock>
#include <QTextDocument>
#include <QXmlStreamReader>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <unistd.h>

using namespace shardlab;

namespace {

LabReport stragglerReport()
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/straggler-12-6-4-2.shardlab.json");
    EXPECT_TRUE(s.ok());
    auto r = buildLabReport(*s);
    EXPECT_TRUE(r.ok());
    return *r;
}

std::string slurp(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Page objects of a PDF ("/Type /Page", not "/Type /Pages").
size_t pdfPages(const std::string& pdf)
{
    const std::regex page("/Type\\s*/Page[^s]");
    return static_cast<size_t>(
        std::distance(std::sregex_iterator(pdf.begin(), pdf.end(), page), std::sregex_iterator()));
}

} // namespace

TEST(ReportPdf, WritesAPdfWithPages)
{
    const LabReport report = stragglerReport();
    const auto path = std::filesystem::temp_directory_path() / "shardlab-report-test.pdf";
    std::filesystem::remove(path);
    const Status st = reportqt::writeLabReportPdf(report, path.string());
    ASSERT_TRUE(st.ok()) << st.error().message;
    const std::string pdf = slurp(path);
    EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
    EXPECT_NE(pdf.find("%%EOF"), std::string::npos);
    // The document as laid out for the page has as many pages as the file.
    const size_t pages = pdfPages(pdf);
    EXPECT_GE(pages, 3u);
    EXPECT_LE(pages, 8u);
}

TEST(ReportPdf, EveryFigureIsDrawnAsVectorsInTheDocument)
{
    ASSERT_TRUE(reportqt::ensureGuiApplication().ok());
    const LabReport report = stragglerReport();
    auto doc = reportqt::labReportDocument(report, nullptr, 680);
    const QString text = doc->toPlainText();
    for (const char* heading :
         {"1. Per-rank output", "2. Topology", "3. Timing at 4 message sizes", "4. What limits scaling efficiency",
          "5. All-reduce against reduce-scatter + all-gather"})
        EXPECT_TRUE(text.contains(QLatin1String(heading))) << heading;
    EXPECT_TRUE(text.contains(QLatin1String("the straggler is rank 0")));
    int objects = 0, images = 0;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat f = it.fragment().charFormat();
            objects += f.objectType() == QTextFormat::UserObject + 1 ? 1 : 0;
            images += f.isImageFormat() ? 1 : 0;
        }
    EXPECT_EQ(objects, static_cast<int>(labReportFigures(report).size()));
    EXPECT_EQ(images, 0); // no placeholder left
}

TEST(ReportPdf, FiguresAreWellFormedSvgThatRenders)
{
    ASSERT_TRUE(reportqt::ensureGuiApplication().ok());
    for (const SvgFigure& f : labReportFigures(stragglerReport())) {
        SCOPED_TRACE(f.id);
        QXmlStreamReader xml(QByteArray::fromStdString(f.svg));
        int rects = 0, texts = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                rects += xml.name() == QLatin1String("rect") ? 1 : 0;
                texts += xml.name() == QLatin1String("text") ? 1 : 0;
            }
        }
        EXPECT_FALSE(xml.hasError()) << xml.errorString().toStdString();
        EXPECT_GT(rects, 3);
        EXPECT_GT(texts, 5);
        const QImage image = reportqt::renderSvg(f.svg, 2.0);
        ASSERT_FALSE(image.isNull());
        EXPECT_EQ(image.width(), static_cast<int>(f.width * 2));
        // something other than the white background was drawn
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                coloured += image.pixel(x, y) != qRgb(255, 255, 255) ? 1 : 0;
        EXPECT_GT(coloured, 100);
    }
}

TEST(ReportPdf, TheCommandLineWritesPdfAndNamesUnwritablePaths)
{
    cli::setPdfReportWriter(&reportqt::writeLabReportPdf);
    const auto path = std::filesystem::temp_directory_path() / "shardlab-cli-report.pdf";
    std::filesystem::remove(path);
    std::ostringstream out, err;
    const int status = cli::runCli(
        {"report", std::string(SHARDLAB_SCENARIO_DIR) + "/lab-two-gpu-all-reduce.shardlab.json", "-o", path.string()},
        out, err);
    ASSERT_EQ(status, cli::kExitOk) << err.str();
    EXPECT_GE(pdfPages(slurp(path)), 1u);

    std::ostringstream out2, err2;
    EXPECT_EQ(cli::runCli({"report", std::string(SHARDLAB_SCENARIO_DIR) + "/lab-two-gpu-all-reduce.shardlab.json", "-o",
                           "/nonexistent-folder/x.pdf"},
                          out2, err2),
              cli::kExitBadInput);
    EXPECT_NE(err2.str().find("/nonexistent-folder/x.pdf"), std::string::npos);
}

// Issue 14: on a full disk the PDF report said "wrote" and exited 0, replacing a good r.pdf with an
// unreadable 8 KB file. Now it exits 2 naming the file, and the previous r.pdf is untouched.
TEST(ReportPdf, AFullDiskLeavesThePreviousPdfAsItWas)
{
    cli::setPdfReportWriter(&reportqt::writeLabReportPdf);
    const auto dir = std::filesystem::temp_directory_path() / "shardlab-full-disk-pdf";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const auto path = dir / "r.pdf";
    const std::vector<std::string> args{
        "report", std::string(SHARDLAB_SCENARIO_DIR) + "/lab-two-gpu-all-reduce.shardlab.json", "-o", path.string()};
    std::ostringstream out, err;
    ASSERT_EQ(cli::runCli(args, out, err), cli::kExitOk) << err.str();
    const std::string good = slurp(path);
    ASSERT_GT(good.size(), 16384u);
    std::ostringstream out2, err2;
    int status = 0;
    {
        fs_test::FullDisk disk(8192);
        ASSERT_TRUE(disk.active());
        status = cli::runCli(args, out2, err2);
    }
    EXPECT_EQ(status, cli::kExitBadInput) << out2.str();
    EXPECT_NE(err2.str().find(path.string()), std::string::npos) << err2.str();
    EXPECT_EQ(out2.str().find("wrote"), std::string::npos) << out2.str();
    EXPECT_EQ(slurp(path), good);
    EXPECT_EQ(fs_test::leftoverTemporaries(path), 0);
}

// A Chinese report's PDF holds Chinese text that a third-party reader extracts (poppler's
// pdftotext): the CJK font is found and embedded, not replaced by empty boxes.
TEST(ReportPdf, ChineseReportRendersChinese)
{
    auto s = loadScenario(std::string(SHARDLAB_SCENARIO_DIR) + "/lab-two-gpu-all-reduce.shardlab.json");
    ASSERT_TRUE(s.ok());
    LabReportOptions options;
    options.language = Language::Chinese;
    auto report = buildLabReport(*s, options);
    ASSERT_TRUE(report.ok());
    ASSERT_TRUE(reportqt::ensureGuiApplication().ok());
    const auto doc = reportqt::labReportDocument(*report, nullptr, 700);
    EXPECT_TRUE(doc->toPlainText().contains(QStringLiteral("1. 各 Rank 的输出")));
    EXPECT_EQ(doc->defaultFont().families().value(0), QStringLiteral("Noto Sans CJK SC"));

    const auto dir = std::filesystem::temp_directory_path();
    // names of this process's own: another checkout's tests may run this test at the same time
    const std::string stem = "shardlab-report-zh-" + std::to_string(::getpid());
    const auto pdf = dir / (stem + ".pdf"), text = dir / (stem + ".txt");
    std::filesystem::remove(pdf);
    std::filesystem::remove(text);
    const Status st = reportqt::writeLabReportPdf(*report, pdf.string());
    ASSERT_TRUE(st.ok()) << st.error().message;
    if (std::system("command -v pdftotext >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "pdftotext (poppler-utils) is not installed";
    ASSERT_EQ(std::system(("pdftotext -enc UTF-8 '" + pdf.string() + "' '" + text.string() + "'").c_str()), 0);
    const std::string extracted = slurp(text);
    EXPECT_NE(extracted.find("实验报告：数据所有权与 All-Reduce"), std::string::npos) << extracted.substr(0, 400);
    EXPECT_NE(extracted.find("各 Rank 的输出"), std::string::npos);
    // the footer; pdftotext maps some glyphs of Noto Sans CJK to their Kangxi radical forms (页 as ⻚)
    EXPECT_TRUE(extracted.find("第 1 页，共") != std::string::npos
                || extracted.find("第 1 ⻚，共") != std::string::npos);
    EXPECT_EQ(extracted.find("Per-rank output"), std::string::npos);
    std::filesystem::remove(pdf);
    std::filesystem::remove(text);
}

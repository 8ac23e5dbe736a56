#include "report/report_writer.h"

#include "common/plaintext.h"
#include "i18n/language.h"
#include "report_pdf.h"
#include "shardlab/base/file_io.h"
#include "shardlab/io/scenario_io.h"
#include "shardlab/live/live.h"
#include "shardlab/report/report_html.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QThread>

namespace shardlab::gui {

ReportWriter::ReportWriter(QObject* parent) : QObject(parent) {}

ReportWriter::~ReportWriter() = default;

void ReportWriter::setScenario(const Scenario& scenario, const QString& file)
{
    m_scenario = scenario;
    m_file = file;
}

LabReportOptions ReportWriter::options() const
{
    LabReportOptions o;
    o.mode = m_mode;
    o.sizes = m_sizes;
    o.scenarioFile = m_file.toStdString();
    o.language = m_language ? *m_language : i18n::engineLanguage();
    if (m_mode == RunMode::Live)
        if (auto machine = discoverTopology(); machine && machine->rankCount() >= m_scenario.ranks())
            o.machineTopology = machine->firstGpus(m_scenario.ranks());
    return o;
}

Status ReportWriter::writeReport(const LabReport& report, const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pdf"))
        return reportqt::writeLabReportPdf(report, path.toStdString());
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return writeFileAtomically(path.toStdString(), labReportHtml(report));
    return badInput(i18n::appWorded(tr("%1: expected a file name ending in .html or .pdf").arg(path)));
}

Status ReportWriter::write(const QString& path)
{
    auto report = buildLabReport(m_scenario, options());
    if (!report)
        return report.error();
    return writeReport(*report, path);
}

void ReportWriter::start(const QString& path)
{
    const quint64 job = ++m_job;
    m_running = true;
    ++m_pending;
    const Scenario scenario = m_scenario;
    const LabReportOptions opts = options();
    QPointer<ReportWriter> self(this);
    QThread* thread = QThread::create([self, job, scenario, opts, path] {
        // The runs happen here; the result is handed back to the GUI thread as a value.
        auto report = std::make_shared<Result<LabReport>>(buildLabReport(scenario, opts));
        QMetaObject::invokeMethod(
            self.data(),
            [self, job, report, path] {
                if (!self)
                    return; // gone
                --self->m_pending;
                if (job != self->m_job)
                    return; // superseded
                self->m_running = false;
                if (!*report) {
                    Q_EMIT self->failed(i18n::engineError(report->error()));
                    return;
                }
                if (Status st = self->writeReport(report->value(), path); !st) {
                    Q_EMIT self->failed(i18n::engineError(st.error()));
                    return;
                }
                Q_EMIT self->reportAvailable(path);
            },
            Qt::QueuedConnection);
    });
    connect(thread, &QThread::finished, thread, &QObject::deleteLater);
    thread->start();
}

QAction* ReportWriter::createAction(QWidget* dialogParent)
{
    auto* action = new QAction(tr("Lab report\u2026"), dialogParent);
    action->setToolTip(
        tr("Write the course's lab report for this scenario: per-rank output, topology, timing at "
           "several message sizes, what limits scaling, and all-reduce against reduce-scatter + all-gather"));
    connect(action, &QAction::triggered, this, [this, dialogParent] {
        const QString base = QFileInfo(m_file).completeBaseName().remove(QStringLiteral(".shardlab"));
        const QString path = QFileDialog::getSaveFileName(
            dialogParent, tr("Write lab report"),
            QDir::home().filePath((base.isEmpty() ? QStringLiteral("lab-report") : base) + QStringLiteral(".pdf")),
            tr("PDF document (*.pdf);;Web page (*.html)"));
        if (!path.isEmpty())
            start(path);
    });
    connect(this, &ReportWriter::failed, dialogParent,
            [dialogParent](const QString& message) { warnPlainText(dialogParent, tr("Lab report"), message); });
    return action;
}

} // namespace shardlab::gui

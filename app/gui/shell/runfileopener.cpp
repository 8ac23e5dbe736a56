#include "shell/runfileopener.h"

#include "document/document.h"
#include "document/documentcontroller.h"
#include "document/prompter.h"
#include "i18n/language.h"

#include "shardlab/import/import_job.h"
#include "shardlab/import/nccl_tests.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/text/foreign_text.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressDialog>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {

std::filesystem::path fsPath(const QString& path) { return std::filesystem::path(path.toStdString()); }

ImportFormat formatOf(const QString& path)
{
    const auto p = fsPath(path);
    return sniffImportFormat(p.filename().string(), readInputHead(p));
}

} // namespace

RunFileOpener::RunFileOpener(Document* document, DocumentController* controller, Prompter* prompter, QObject* parent)
    : QObject(parent), m_document(document), m_controller(controller), m_prompter(prompter)
{
}

bool RunFileOpener::holdsRun(const QString& path)
{
    if (QFileInfo(path).isDir())
        return true;
    const ImportFormat f = formatOf(path);
    return f != ImportFormat::ShardLabScenario && f != ImportFormat::Unknown;
}

void RunFileOpener::cancel()
{
    if (!m_jobs.running())
        return;
    m_jobs.cancel();
    closeProgress();
    emit statusMessage(tr("Reading cancelled; nothing was opened."));
    emit cancelled();
}

void RunFileOpener::closeProgress()
{
    if (m_progress) {
        m_progress->hide();
        m_progress->deleteLater();
    }
}

bool RunFileOpener::open(const QStringList& paths)
{
    if (paths.isEmpty() || !m_controller->maybeSave())
        return false;
    std::vector<std::filesystem::path> files;
    for (const QString& p : paths)
        files.push_back(fsPath(p));
    const QString name = paths.size() == 1 ? QFileInfo(paths.front()).fileName()
                                           : tr("%n files", nullptr, static_cast<int>(paths.size()));
    const Scenario open = m_document->scenario(); // what a trace without its scenario is read against
    emit statusMessage(tr("Reading %1\u2026").arg(paths.size() == 1 ? QDir::toNativeSeparators(paths.front()) : name));

    // Progress with Cancel, shown once reading takes more than half a second.
    closeProgress();
    auto* parentWidget = qobject_cast<QWidget*>(parent());
    m_progress = new QProgressDialog(tr("Reading %1\u2026").arg(name), tr("Cancel"), 0, 1000, parentWidget);
    m_progress->setObjectName(QStringLiteral("runFiles.progress"));
    m_progress->setWindowTitle(tr("Opening a recorded run"));
    m_progress->setWindowModality(Qt::WindowModal);
    m_progress->setMinimumDuration(500);
    m_progress->setAutoClose(false);
    m_progress->setAutoReset(false);
    m_progress->setValue(0);
    connect(m_progress, &QProgressDialog::canceled, this, &RunFileOpener::cancel);
    auto progress = m_jobs.reporter<int>([this](int permille) {
        if (m_progress)
            m_progress->setValue(permille);
    });

    m_jobs.start(
        [files, open, progress](const std::atomic<bool>& cancelled) {
            Loaded out;
            const bool oneShardLabTrace =
                files.size() == 1
                && sniffImportFormat(files.front().filename().string(), readInputHead(files.front()))
                       == ImportFormat::ShardLabTrace;
            if (oneShardLabTrace) { // read against the open scenario when it carries none
                auto trace = loadChromeTrace(files.front(), &open);
                if (!trace) {
                    out.error = i18n::engineError(trace.error());
                    return out;
                }
                out.ownScenario = trace->scenarioFromTrace;
                out.scenario = std::move(trace->scenario);
                out.run = std::make_shared<const RunResult>(std::move(trace->run));
                out.describe = tr("Chrome trace");
                return out;
            }
            ImportOptions options;
            options.progress = [&cancelled, progress](std::uint64_t done, std::uint64_t total) {
                progress(total > 0 ? static_cast<int>(std::min<std::uint64_t>(1000, done * 1000 / total)) : 0);
                return !cancelled.load();
            };
            auto job = importFiles(files, options);
            if (!job) {
                out.error = job.error().kind == ErrorKind::Cancelled ? QString() : i18n::engineError(job.error());
                return out;
            }
            out.sweep = job->sweep;
            out.scenario = std::move(job->scenario);
            out.run = std::make_shared<const RunResult>(std::move(job->run));
            const QString format = i18n::engineText(Message(importFormatMessageId(job->format)));
            out.describe = job->format == ImportFormat::ShardLabResult
                               ? i18n::engineText(launchMessageOf(job->launch))
                               : tr("%1, %n rank(s)", nullptr, job->run.ranks).arg(format);
            return out;
        },
        [this, name](Loaded loaded) { finish(name, std::move(loaded)); });
    return true;
}

void RunFileOpener::finish(const QString& name, Loaded loaded)
{
    closeProgress();
    if (!loaded.error.isEmpty()) {
        m_prompter->showError(
            tr("Cannot open the run"),
            tr("\"%1\" could not be opened as a run. Your current document and run are unchanged.").arg(name),
            loaded.error);
        emit failed(loaded.error);
        return;
    }
    if (loaded.sweep) {
        showSweep(*loaded.sweep, name);
        return;
    }
    if (!loaded.run) { // cancelled after the last progress
        emit cancelled();
        return;
    }
    if (loaded.ownScenario) {
        // the run's own scenario, as a new untitled document: saving asks where, so the recorded
        // files are never overwritten by a scenario
        m_document->reset(loaded.scenario, QString());
        emit statusMessage(
            tr("Opened the run in %1 (%2); its scenario is open as an untitled document.").arg(name, loaded.describe));
    } else {
        emit statusMessage(
            tr("Opened the trace %1 against the open scenario: it carries no scenario of its own.").arg(name));
    }
    emit runAvailable(loaded.scenario, std::move(loaded.run), name);
}

void RunFileOpener::showSweep(const NcclTestsSweep& sweep, const QString& name)
{
    // Beside the simulation on the open scenario's machine where it has enough GPUs.
    const Topology& machine = m_document->scenario().topology;
    auto beside = renderSweepBeside(sweep, machine, false, i18n::engineLanguage());
    auto measured = renderImportedSweep(sweep, std::string(), false, i18n::engineLanguage());
    const QString text = QString::fromStdString(beside ? *beside : measured ? *measured : std::string());
    m_lastSweep = text;
    auto* parentWidget = qobject_cast<QWidget*>(parent());
    auto* dialog = new QDialog(parentWidget);
    dialog->setObjectName(QStringLiteral("runFiles.sweep"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("nccl-tests sweep: %1").arg(name));
    auto* layout = new QVBoxLayout(dialog);
    auto* label = new QLabel(
        beside ? tr("Measured rows beside ShardLab's simulation on the open scenario's machine (%1). "
                    "Open a scenario on another machine to compare with it.")
                     .arg(QString::fromStdString(machine.name))
               : tr("Measured rows only: the open scenario's machine has fewer GPUs than the sweep's %n ranks.",
                    nullptr, sweep.ranks),
        dialog);
    label->setWordWrap(true);
    layout->addWidget(label);
    auto* view = new QPlainTextEdit(text, dialog);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(view);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    dialog->resize(1100, 420);
    dialog->show();
    emit statusMessage(tr("Opened the nccl-tests sweep %1.").arg(name));
    emit sweepShown(text);
}

} // namespace shardlab::gui

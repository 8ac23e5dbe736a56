#include "shell/runfileopener.h"

#include "document/document.h"
#include "document/documentcontroller.h"
#include "document/prompter.h"
#include "i18n/language.h"

#include "shardlab/io/file_kind.h"
#include "shardlab/io/result_file.h"
#include "shardlab/io/trace_import.h"
#include "shardlab/text/error_wording.h"

#include <QDir>
#include <QFileInfo>

namespace shardlab::gui {

RunFileOpener::RunFileOpener(Document* document, DocumentController* controller, Prompter* prompter, QObject* parent)
    : QObject(parent), m_document(document), m_controller(controller), m_prompter(prompter)
{
}

bool RunFileOpener::holdsRun(const QString& path)
{
    const FileKind kind = fileKindOf(std::filesystem::path(path.toStdString()));
    return kind == FileKind::Result || kind == FileKind::Trace;
}

bool RunFileOpener::open(const QString& path)
{
    if (!m_controller->maybeSave())
        return false;
    const std::string file = path.toStdString();
    const Scenario open = m_document->scenario(); // what a trace without its scenario is read against
    emit statusMessage(tr("Reading %1\u2026").arg(QDir::toNativeSeparators(path)));
    m_jobs.start(
        [file, open](const std::atomic<bool>&) {
            Loaded out;
            if (fileKindOf(std::filesystem::path(file)) == FileKind::Trace) {
                auto trace = loadChromeTrace(file, &open);
                if (!trace) {
                    out.error = i18n::engineError(trace.error().message);
                    return out;
                }
                out.ownScenario = trace->scenarioFromTrace;
                out.scenario = std::move(trace->scenario);
                out.run = std::make_shared<const RunResult>(std::move(trace->run));
                out.describe = tr("Chrome trace");
            } else {
                auto result = loadResult(file);
                if (!result) {
                    out.error = i18n::engineError(result.error().message);
                    return out;
                }
                out.scenario = std::move(result->scenario);
                out.describe = i18n::engineText(launchMessageOf(result->launch)); // kept in English in the file
                out.run = std::make_shared<const RunResult>(std::move(result->run));
            }
            return out;
        },
        [this, path](Loaded loaded) { finish(path, std::move(loaded)); });
    return true;
}

void RunFileOpener::finish(const QString& path, Loaded loaded)
{
    const QString name = QFileInfo(path).fileName();
    if (!loaded.error.isEmpty()) {
        m_prompter->showError(tr("Cannot open the run"),
                              tr("\"%1\" could not be opened as a ShardLab run. Your current document and run are unchanged.")
                                  .arg(name),
                              loaded.error);
        emit failed(loaded.error);
        return;
    }
    if (loaded.ownScenario) {
        // the run's own scenario, as a new untitled document: saving asks where, so the result
        // file is never overwritten by a scenario
        m_document->reset(loaded.scenario, QString());
        emit statusMessage(tr("Opened the run in %1 (%2); its scenario is open as an untitled document.")
                               .arg(name, loaded.describe));
    } else {
        emit statusMessage(tr("Opened the trace %1 against the open scenario: it carries no scenario of its own.").arg(name));
    }
    emit runAvailable(loaded.scenario, std::move(loaded.run), name);
}

} // namespace shardlab::gui

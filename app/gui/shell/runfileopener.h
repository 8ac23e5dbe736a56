// Opens runs made elsewhere: ShardLab result files (`shardlab sim|live --result`, rank 0 of an
// mpirun run), Chrome traces written by `shardlab --trace`, and what other tools recorded of a job
// (engine/import: PyTorch profiler traces of every rank, Flight Recorder dumps, NCCL Inspector
// logs; several files at once or their folder). Asks about unsaved changes first, reads the files
// off the GUI thread with a progress dialog that can cancel (a job's traces take seconds), then
// opens the run's scenario (the program as observed) as an untitled document and hands the run on
// (runAvailable): the run page, the analysis page's diagnosis and the what-if re-simulation show
// it as any run. nccl-tests output is a sweep, not a job: it opens in a window beside the
// simulation on the open scenario's machine. A file that cannot be read gives a message naming
// the file and the problem, and nothing the user has open changes.
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <QObject>
#include <QPointer>
#include <QStringList>

#include <memory>

class QProgressDialog;

namespace shardlab {
struct NcclTestsSweep;
}

namespace shardlab::gui {

class Document;
class DocumentController;
class Prompter;

class RunFileOpener : public QObject {
    Q_OBJECT
public:
    RunFileOpener(Document* document, DocumentController* controller, Prompter* prompter, QObject* parent = nullptr);

    // Whether `path` holds a run (a result file, a trace, another tool's recording, a folder of
    // them) rather than a scenario.
    static bool holdsRun(const QString& path);
    void setPrompter(Prompter* prompter) { m_prompter = prompter; }

    // Starts reading; false when the user kept the document (cancelled the save question).
    bool open(const QString& path) { return open(QStringList{path}); }
    bool open(const QStringList& paths);
    bool isLoading() const { return m_jobs.running(); }
    // Stops reading; nothing changes (the progress dialog's Cancel).
    void cancel();
    // The last nccl-tests sweep shown (tests), as text.
    QString lastSweepText() const { return m_lastSweep; }

signals:
    void runAvailable(const shardlab::Scenario& scenario, std::shared_ptr<const shardlab::RunResult> run,
                      const QString& origin);
    void failed(const QString& message);
    void cancelled();
    void statusMessage(const QString& text);
    void sweepShown(const QString& text);

private:
    struct Loaded {
        Scenario scenario;
        std::shared_ptr<const RunResult> run;
        std::shared_ptr<const NcclTestsSweep> sweep;
        bool ownScenario = true; // false: a trace read against the open scenario
        QString describe;        // "live, Open MPI (mpirun), 4 processes on 2 hosts"
        QString error;
    };
    void finish(const QString& name, Loaded loaded);
    void showSweep(const NcclTestsSweep& sweep, const QString& name);
    void closeProgress();

    Document* m_document;
    DocumentController* m_controller;
    Prompter* m_prompter;
    QPointer<QProgressDialog> m_progress;
    QString m_lastSweep;
    JobTracker m_jobs{this};
};

} // namespace shardlab::gui

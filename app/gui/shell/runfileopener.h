// Opens runs made elsewhere: ShardLab result files (`shardlab sim|live --result`, rank 0 of an
// mpirun run) and Chrome traces written by `shardlab --trace`. Asks about unsaved changes first,
// reads the file off the GUI thread (a large run takes seconds), then opens the run's scenario as
// an untitled document and hands the run on (runAvailable). A file that cannot be read gives a
// message naming the file and the problem, and nothing the user has open changes.
#pragma once

#include "analysis/jobtracker.h"

#include "shardlab/model/run_result.h"
#include "shardlab/model/scenario.h"

#include <QObject>

#include <memory>

namespace shardlab::gui {

class Document;
class DocumentController;
class Prompter;

class RunFileOpener : public QObject {
    Q_OBJECT
public:
    RunFileOpener(Document* document, DocumentController* controller, Prompter* prompter, QObject* parent = nullptr);

    // Whether `path` holds a run (a result file or a trace) rather than a scenario.
    static bool holdsRun(const QString& path);
    void setPrompter(Prompter* prompter) { m_prompter = prompter; }

    // Starts reading `path`; false when the user kept the document (cancelled the save question).
    bool open(const QString& path);
    bool isLoading() const { return m_jobs.running(); }

signals:
    void runAvailable(const shardlab::Scenario& scenario, std::shared_ptr<const shardlab::RunResult> run, const QString& origin);
    void failed(const QString& message);
    void statusMessage(const QString& text);

private:
    struct Loaded {
        Scenario scenario;
        std::shared_ptr<const RunResult> run;
        bool ownScenario = true; // false: a trace read against the open scenario
        QString describe;        // "live, Open MPI (mpirun), 4 processes on 2 hosts"
        QString error;
    };
    void finish(const QString& path, Loaded loaded);

    Document* m_document;
    DocumentController* m_controller;
    Prompter* m_prompter;
    JobTracker m_jobs{this};
};

} // namespace shardlab::gui

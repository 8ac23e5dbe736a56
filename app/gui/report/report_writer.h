// Writes the lab report of the current scenario, for the main window's "Lab report…" action.
// The report is built (every run it needs, simulated or live) on a worker thread; the file is
// written on the GUI thread when the result comes back: HTML (self-contained) or PDF, by the
// suffix. A report started while another is running supersedes it; the stale one is dropped.
#pragma once

#include "shardlab/report/lab_report.h"

#include <QObject>
#include <QPointer>

#include <optional>

class QAction;
class QThread;
class QWidget;

namespace shardlab::gui {

class ReportWriter : public QObject {
    Q_OBJECT
public:
    explicit ReportWriter(QObject* parent = nullptr);
    ~ReportWriter() override;

    // What to report on. `file` is shown in the report (may be empty).
    void setScenario(const Scenario& scenario, const QString& file = {});
    // Simulated (default) or Live: live reports run the scenario on this machine's GPUs.
    void setMode(RunMode mode) { m_mode = mode; }
    RunMode mode() const { return m_mode; }
    // Message sizes of the timing table; empty: the defaults (S/64, S/8, S, 4S).
    void setSizes(std::vector<Bytes> sizes) { m_sizes = std::move(sizes); }
    // The report's language; by default the interface language (i18n::engineLanguage()).
    void setLanguage(Language language) { m_language = language; }

    // Builds and writes the report now, on this thread (scripts and tests).
    Status write(const QString& path);
    // Builds the report on a worker thread, then writes it; reportAvailable or failed follows.
    void start(const QString& path);
    bool isRunning() const { return m_running; }
    // Jobs started whose work has not come back yet, superseded ones included (their results are
    // dropped when they come): 0 once nothing can arrive any more.
    int pendingJobs() const { return m_pending; }

    // "Lab report…": asks for a file (HTML or PDF) and starts the report; errors in a message box.
    QAction* createAction(QWidget* dialogParent);

Q_SIGNALS:
    void reportAvailable(const QString& path);
    void failed(const QString& message);

private:
    LabReportOptions options() const;
    Status writeReport(const LabReport& report, const QString& path);

    Scenario m_scenario;
    QString m_file;
    RunMode m_mode = RunMode::Simulated;
    std::vector<Bytes> m_sizes;
    std::optional<Language> m_language;
    bool m_running = false;
    int m_pending = 0;
    quint64 m_job = 0;
};

} // namespace shardlab::gui

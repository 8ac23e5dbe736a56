// Autosave with crash recovery. While a document has unsaved changes, its scenario is written
// every interval to the autosave folder as <session>.shardlab.json next to <session>.meta.json
// (the file it belongs to) and <session>.lock (held while this session runs). A clean exit, a
// save or a discard removes them. Files whose lock nobody holds were left by a session that
// crashed: findOrphans() lists them for recovery.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/scenario.h"

#include <QDateTime>
#include <QLockFile>
#include <QObject>
#include <QTimer>

#include <memory>

namespace shardlab::gui {

class Document;

struct AutosaveEntry {
    QString scenarioPath; // the autosaved scenario
    QString originalPath; // the file it belongs to; empty for an untitled document
    QString name;         // the scenario's name
    QDateTime savedAt;
};

class Autosave : public QObject {
    Q_OBJECT
public:
    static constexpr int kDefaultIntervalMs = 30'000;
    // `dir` is created when missing.
    Autosave(Document* document, const QString& dir, QObject* parent = nullptr);
    ~Autosave() override; // a clean exit: the autosave goes

    QString dir() const { return m_dir; }
    QString sessionId() const { return m_id; }
    void setInterval(int ms) { m_timer.setInterval(ms); }
    // Writes the document now when it has unsaved changes; removes the autosave when it has none.
    Status saveNow();

    // Autosaves of sessions that ended without cleaning up, newest first.
    QList<AutosaveEntry> findOrphans() const;
    static Result<Scenario> load(const AutosaveEntry& entry);
    static void discard(const AutosaveEntry& entry);
    // Writes one autosave (scenario + meta) under `dir` for session `id`; the lock is the caller's.
    static Status write(const QString& dir, const QString& id, const Scenario& scenario, const QString& originalPath);
    static QString defaultDir();

private:
    void removeOwnFiles();

    Document* m_document;
    QString m_dir;
    QString m_id;
    std::unique_ptr<QLockFile> m_lock;
    QTimer m_timer;
    bool m_pending = false; // changed since the last autosave
};

} // namespace shardlab::gui

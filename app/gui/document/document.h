// The open scenario: its contents, its file and its undo history. Every edit goes through apply(),
// which pushes one undo command holding the scenario before and after, so undo and redo restore
// exactly what was there (compared with Scenario ==).
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/scenario.h"

#include <QObject>
#include <QString>

#include <functional>

class QUndoStack;

namespace shardlab::gui {

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);
    ~Document() override;

    const Scenario& scenario() const { return m_scenario; }
    // Empty for a document never saved.
    QString filePath() const { return m_path; }
    // The file name, or "Untitled".
    QString displayName() const;
    bool isModified() const;
    QUndoStack* undoStack() const { return m_undo; }

    // Replaces the whole document (new, open, recovery) and clears the undo history. `modified`
    // marks a document whose contents are not in its file (a recovered autosave).
    void reset(Scenario scenario, const QString& path, bool modified = false);
    // The document is now in `path` (after a save).
    void markSaved(const QString& path);

    // One undoable edit named `text` ("Move shard 2 of 'batch' to GPU 3"). `change` edits a copy;
    // the result must pass validateScenario(), else nothing changes and the error comes back.
    // Nothing is pushed when the copy equals the current scenario. Consecutive edits with the same
    // non-empty `mergeKey` (typing in one field) merge into one undo step.
    Status apply(const QString& text, const std::function<void(Scenario&)>& change, const QString& mergeKey = {});

signals:
    // After every change of contents: edit, undo, redo, reset.
    void scenarioChanged(const shardlab::Scenario& scenario);
    // After reset() only (new, open, recover): views may drop selections and re-fit.
    void documentReset();
    void filePathChanged(const QString& path);
    void modifiedChanged(bool modified);

private:
    friend class ScenarioCommand;
    void setScenarioFromCommand(const Scenario& scenario);
    void updateModified();

    Scenario m_scenario;
    QString m_path;
    QUndoStack* m_undo = nullptr;
    bool m_unsavedBaseline = false; // a recovered document differs from its file even before any edit
    bool m_lastModified = false;
};

} // namespace shardlab::gui

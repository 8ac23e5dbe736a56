// File handling for the document: new, open, save, save as, recent files, the unsaved-changes
// question and crash recovery. A file that fails to load leaves the open document as it was.
#pragma once

#include "shardlab/model/scenario.h"

#include <QObject>
#include <QString>

namespace shardlab::gui {

class Autosave;
class Document;
class Prompter;
class RecentFiles;

class DocumentController : public QObject {
    Q_OBJECT
public:
    DocumentController(Document* document, Prompter* prompter, RecentFiles* recent, QObject* parent = nullptr);

    // Replaces who answers the questions (tests use a script). Not owned.
    void setPrompter(Prompter* prompter) { m_prompter = prompter; }

    // What File > New starts from: the classroom machine, no workload, no program.
    static Scenario blankScenario();

    bool newDocument();
    // Asks for a file, then openPath().
    bool open();
    // Loads `path`; on failure shows the engine's message and keeps the current document.
    // `askToSave`: ask about unsaved changes first.
    bool openPath(const QString& path, bool askToSave = true);
    // Opens a shipped example as a new, untitled document: saving asks where, so the example
    // itself is never overwritten, and it does not enter the recent files.
    bool openExample(const QString& path, bool askToSave = true);
    // Opens a scenario made in the app (File > New from a transformer plan) as a new, untitled
    // document; `what` names it in the status line.
    bool openMade(Scenario scenario, const QString& what, bool askToSave = true);
    bool save();
    bool saveAs();
    bool saveTo(const QString& path);
    // Before the document is replaced or the app closes: false when the user cancels.
    bool maybeSave();
    // Offers the newest autosave left by a crashed session; true when one was recovered.
    bool offerRecovery(Autosave& autosave);

signals:
    void statusMessage(const QString& text);

private:
    Document* m_document;
    Prompter* m_prompter;
    RecentFiles* m_recent;
};

} // namespace shardlab::gui

// The main window only assembles: the document and its file handling, the pages in a central tab
// widget ("Editor" now; the Run page plugs in with addPage()), menus and the status bar.
//
// For other pages (the run page): document() and scenario() give the open scenario and
// scenarioChanged() says when it changes; topologyScene()->setActivity() animates the diagram.
#pragma once

#include "shardlab/scenario.h"

#include <QMainWindow>

class QLabel;
class QMenu;
class QTabWidget;

namespace shardlab::gui {

class Autosave;
class DialogPrompter;
class Document;
class DocumentController;
class EditorPage;
class RecentFiles;
class TopologyScene;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a scenario file; on failure an error dialog names the problem and the current
    // document stays open. Asks about unsaved changes first.
    bool openFile(const QString& path);
    // Offers to recover the work of a session that crashed (autosave).
    void offerRecovery();

    Document* document() const { return m_document; }
    const Scenario& scenario() const;
    EditorPage* editorPage() const { return m_editor; }
    TopologyScene* topologyScene() const;
    DocumentController* controller() const { return m_controller; }
    QTabWidget* pages() const { return m_pages; }
    // Adds a page (e.g. "Run") after the existing ones; returns its tab index. The page can be
    // shown with pages()->setCurrentWidget(page). Ctrl+1..9 switch pages.
    int addPage(QWidget* page, const QString& title);

signals:
    // The open scenario changed (an edit, undo/redo, open, new).
    void scenarioChanged(const shardlab::Scenario& scenario);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void rebuildRecentMenu();
    void updateTitle();
    void updateSummary();

    Document* m_document;
    RecentFiles* m_recent;
    DialogPrompter* m_prompter;
    DocumentController* m_controller;
    Autosave* m_autosave;
    QTabWidget* m_pages = nullptr;
    EditorPage* m_editor = nullptr;
    QMenu* m_recentMenu = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace shardlab::gui

// The questions the document controller asks the user. The app answers them with dialogs; tests
// answer them with a script, so that file handling is tested without anyone clicking.
#pragma once

#include <QCoreApplication>
#include <QString>
#include <QStringList>

class QWidget;

namespace shardlab::gui {

class Prompter {
public:
    enum class SaveChoice { Save, Discard, Cancel };
    virtual ~Prompter() = default;
    virtual SaveChoice askSaveChanges(const QString& documentName) = 0;
    // Empty when the user cancels.
    virtual QString askOpenPath(const QString& startDir) = 0;
    // Several files at once (a job's traces, one per rank); by default the one askOpenPath gives.
    virtual QStringList askOpenPaths(const QString& startDir)
    {
        const QString path = askOpenPath(startDir);
        return path.isEmpty() ? QStringList{} : QStringList{path};
    }
    // A folder (a job's recorded files); empty when the user cancels.
    virtual QString askOpenFolder(const QString& startDir) { return askOpenPath(startDir); }
    virtual QString askSavePath(const QString& suggestion) = 0;
    virtual bool askRecover(const QString& description) = 0;
    virtual void showError(const QString& title, const QString& text, const QString& details) = 0;
};

// Real dialogs, parented to `parent`.
class DialogPrompter : public Prompter {
    Q_DECLARE_TR_FUNCTIONS(DialogPrompter)
public:
    explicit DialogPrompter(QWidget* parent) : m_parent(parent) {}
    SaveChoice askSaveChanges(const QString& documentName) override;
    QString askOpenPath(const QString& startDir) override;
    QStringList askOpenPaths(const QString& startDir) override;
    QString askOpenFolder(const QString& startDir) override;
    QString askSavePath(const QString& suggestion) override;
    bool askRecover(const QString& description) override;
    void showError(const QString& title, const QString& text, const QString& details) override;

private:
    static QString filter();
    static QString openFilter(); // scenarios, result files and traces
    QWidget* m_parent;
};

} // namespace shardlab::gui

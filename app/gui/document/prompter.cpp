#include "document/prompter.h"

#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>

namespace shardlab::gui {

QString DialogPrompter::filter()
{
    return tr("ShardLab scenarios (*.shardlab.json);;JSON files (*.json);;All files (*)");
}

QString DialogPrompter::openFilter()
{
    return tr(
        "ShardLab files and recorded runs (*.json *.json.gz *.jsonl *.log *.pkl *.pickle *.sqlite *.txt);;ShardLab "
        "scenarios (*.shardlab.json);;"
        "Runs: result files (*.shardlab-result.json);;Chrome/Perfetto traces (*.json);;"
        "PyTorch profiler traces, one per rank (*.json *.json.gz);;Flight Recorder dumps (*.json *.pkl *.pickle *);;"
        "NCCL Inspector logs (*.log *.jsonl);;nccl-tests output (-J) (*.json);;Nsight Systems SQLite exports "
        "(*.sqlite);;NCCL profiler plugin traces (*.json *.txt);;All files (*)");
}

Prompter::SaveChoice DialogPrompter::askSaveChanges(const QString& documentName)
{
    QMessageBox box(QMessageBox::Warning, tr("Unsaved changes"),
                    tr("Save the changes to \"%1\" before closing it?").arg(documentName),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, m_parent);
    box.setInformativeText(tr("Your changes are lost if you don't save them."));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save: return SaveChoice::Save;
    case QMessageBox::Discard: return SaveChoice::Discard;
    default: return SaveChoice::Cancel;
    }
}

QString DialogPrompter::askOpenPath(const QString& startDir)
{
    return QFileDialog::getOpenFileName(m_parent, tr("Open a scenario, a result file or a trace"), startDir,
                                        openFilter());
}

QStringList DialogPrompter::askOpenPaths(const QString& startDir)
{
    return QFileDialog::getOpenFileNames(
        m_parent, tr("Open a scenario, a result file, a trace, or a job's recorded files"), startDir, openFilter());
}

QString DialogPrompter::askOpenFolder(const QString& startDir)
{
    return QFileDialog::getExistingDirectory(m_parent, tr("Open the folder of a job's recorded files"), startDir);
}

QString DialogPrompter::askSavePath(const QString& suggestion)
{
    return QFileDialog::getSaveFileName(m_parent, tr("Save scenario"), suggestion, filter());
}

bool DialogPrompter::askRecover(const QString& description)
{
    return QMessageBox::question(m_parent, tr("Recover unsaved work?"), description, QMessageBox::Yes | QMessageBox::No,
                                 QMessageBox::Yes)
           == QMessageBox::Yes;
}

void DialogPrompter::showError(const QString& title, const QString& text, const QString& details)
{
    QMessageBox box(QMessageBox::Critical, title, text, QMessageBox::Ok, m_parent);
    // The engine's message names the file, the JSON path and what was expected: show it in full,
    // selectable, rather than hidden behind a "Details" button.
    box.setInformativeText(details);
    box.setTextInteractionFlags(Qt::TextSelectableByMouse);
    // the file's own names and contents are quoted: text, not markup
    box.setTextFormat(Qt::PlainText);
    if (auto* informative = box.findChild<QLabel*>(QStringLiteral("qt_msgbox_informativelabel")))
        informative->setTextFormat(Qt::PlainText);
    box.exec();
}

} // namespace shardlab::gui

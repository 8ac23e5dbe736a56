// The step program of one iteration: the ordered steps, buttons to add (compute, or a collective
// chosen with the "Which collective?" helper), remove and reorder them, the step editor, and the
// number of iterations.
#pragma once

#include "shardlab/base/result.h"

#include <QWidget>

class QSpinBox;
class QTableView;

namespace shardlab::gui {

class Document;
class OpEditor;
class ProgramModel;

class ProgramPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProgramPanel(Document* document, QWidget* parent = nullptr);
    ProgramModel* model() const { return m_model; }
    OpEditor* editor() const { return m_editor; }
    QTableView* view() const { return m_view; }
    int currentStep() const;

public slots:
    void addCompute();
    void addCollective();
    void removeStep();
    void moveUp();
    void moveDown();

signals:
    void editFailed(const QString& message);

private:
    void select(int step);
    void report(const Status& status);
    Document* m_document;
    ProgramModel* m_model;
    QTableView* m_view = nullptr;
    OpEditor* m_editor = nullptr;
    QSpinBox* m_iterations = nullptr;
};

} // namespace shardlab::gui

#pragma once

#include "shardlab/scenario.h"

#include <QMainWindow>

class QPlainTextEdit;

namespace shardlab::gui {

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    bool openFile(const QString& path);
    const Scenario& scenario() const { return m_scenario; }

private:
    void showScenario();
    Scenario m_scenario;
    QPlainTextEdit* m_text = nullptr;
};

} // namespace shardlab::gui

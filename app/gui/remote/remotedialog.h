// Run > Live on…: choose the remote machine (remembered), see what it has, and run there.
#pragma once

#include "remote/remoteprobe.h"
#include "remote/remotetarget.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace shardlab::gui {

class RemoteDialog : public QDialog {
    Q_OBJECT
public:
    explicit RemoteDialog(QWidget* parent = nullptr);
    // What the user chose (valid once accepted).
    RemoteTarget target() const;
    // The machine's description under the fields ("ShardLab 0.1.0 on lab-gpu...", or why not).
    QString machineText() const;
    QPushButton* checkButton() const { return m_check; }
    void setHost(const QString& host);

    void accept() override; // remembers the host and the command

private:
    void validate();
    void checkMachine();

    QComboBox* m_host = nullptr;
    QSpinBox* m_port = nullptr;
    QLineEdit* m_command = nullptr;
    QPushButton* m_check = nullptr;
    QLabel* m_machine = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    RemoteProbe* m_probe = nullptr;
};

} // namespace shardlab::gui

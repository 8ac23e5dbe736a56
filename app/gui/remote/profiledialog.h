// Run > Profile a program…: a user's own NCCL program (and optionally its launcher, `mpirun -np 2`)
// run under `shardlab profile --live` on this machine, through the same session and stream reader
// as Live on… (remotesession.h): one reading path. docs/profiling.md "In the app".
#pragma once

#include "remote/remotetarget.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSettings;

namespace shardlab::gui {

struct ProfileRequest {
    QString shardlab = defaultShardlab(); // the command line program that profiles
    QString launcher;                     // "", "mpirun -np 2", "torchrun --nproc_per_node=2"
    QString command;                      // "./allreduce --size 64M" (shell words, as typed)
    QString outDir;                       // --out: records, result file, trace
    // `exec SHARDLAB profile --live --out DIR -- LAUNCHER COMMAND` through sh on this machine
    // (exec: Stop's SIGTERM reaches `shardlab profile`, which passes it on to the program).
    RemoteTarget target() const;
    // DIR/profile.shardlab-result.json: where `shardlab profile` saves the run.
    QString resultFile() const;
    // What is missing (empty when it can start).
    QString problem() const;
    // `shardlab` beside this application (an installed package, a build tree's app/cli), else on PATH.
    static QString defaultShardlab();
};

// The commands, launchers and folder used before, most recent first.
struct ProfileSettings {
    QStringList commands, launchers;
    QString outDir, shardlab;
    static ProfileSettings load(QSettings& settings);
    void remember(QSettings& settings, const ProfileRequest& used);
};

// A word for sh, quoted when it has to be: /tmp/my folder -> '/tmp/my folder' (the engine's
// shellQuoted(), shardlab/cluster/ssh_target.h).
QString shellQuoted(const QString& word);

class ProfileDialog : public QDialog {
    Q_OBJECT
public:
    explicit ProfileDialog(QWidget* parent = nullptr);
    ProfileRequest request() const;
    void setRequest(const ProfileRequest& request); // tests, demos
    void accept() override;                         // remembers the commands

private:
    void validate();
    void chooseFolder();

    QComboBox* m_command = nullptr;
    QComboBox* m_launcher = nullptr;
    QLineEdit* m_out = nullptr;
    QLineEdit* m_shardlab = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace shardlab::gui

#include "remote/remotedialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace shardlab::gui {

RemoteDialog::RemoteDialog(QWidget* parent) : QDialog(parent), m_probe(new RemoteProbe(this))
{
    setWindowTitle(tr("Live on a remote machine"));
    QSettings settings;
    const RemoteSettings remembered = RemoteSettings::load(settings);

    auto* intro = new QLabel(tr("Runs the scenario with the ShardLab installed on another machine, through your "
                                "system's ssh (keys, agent and ~/.ssh/config as you set them up), and shows the run "
                                "here as it happens."),
                             this);
    intro->setWordWrap(true);

    m_host = new QComboBox(this);
    m_host->setEditable(true);
    m_host->addItems(remembered.hosts);
    m_host->lineEdit()->setPlaceholderText(tr("an alias from ~/.ssh/config, or user@host"));
    m_host->setToolTip(tr("The machine with the GPUs: a Host alias of ~/.ssh/config (where its user, port, key and "
                          "ProxyJump are set), or user@host. ShardLab never asks for a password: log in with a key."));
    m_port = new QSpinBox(this);
    m_port->setRange(0, 65535);
    m_port->setSpecialValueText(tr("as configured"));
    m_port->setValue(remembered.port);
    m_port->setToolTip(tr("The SSH port; \"as configured\" uses the alias's Port, else 22."));
    m_command = new QLineEdit(remembered.command, this);
    m_command->setToolTip(tr("The command run there, with the scenario on its standard input. Default: %1. On a Slurm "
                             "cluster's login node, for example: srun -N1 --gpus-per-node=8 shardlab live --stream -")
                              .arg(RemoteTarget::defaultCommand()));
    m_command->setClearButtonEnabled(true);

    auto* form = new QFormLayout;
    form->addRow(tr("&Host:"), m_host);
    form->addRow(tr("&Port:"), m_port);
    form->addRow(tr("&Command there:"), m_command);

    m_check = new QPushButton(tr("&Show the machine"), this);
    m_check->setToolTip(tr("Run `shardlab topo --json` there (through the same srun or mpirun as the command): its "
                           "ShardLab version and its GPUs"));
    m_machine = new QLabel(tr("Show the machine to see its GPUs before the run."), this);
    m_machine->setWordWrap(true);
    m_machine->setTextFormat(Qt::PlainText); // the remote machine's answers, shown as text
    m_machine->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText); // quotes what was typed
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Run there"));
    m_buttons->button(QDialogButtonBox::Ok)
        ->setToolTip(tr("Start the run on the remote machine; Cancel on the run page "
                        "stops it there and frees its GPUs"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &RemoteDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_check, 0, Qt::AlignLeft);
    layout->addWidget(m_machine);
    layout->addWidget(m_problem);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    resize(560, sizeHint().height());

    connect(m_host, &QComboBox::currentTextChanged, this, &RemoteDialog::validate);
    connect(m_command, &QLineEdit::textChanged, this, &RemoteDialog::validate);
    connect(m_check, &QPushButton::clicked, this, &RemoteDialog::checkMachine);
    connect(m_probe, &RemoteProbe::machineAvailable, this, [this](const RemoteMachine& m) {
        m_check->setEnabled(true);
        m_machine->setText(describeRemoteMachine(m, target().displayName()));
    });
    connect(m_probe, &RemoteProbe::failed, this, [this](const QString& message) {
        m_check->setEnabled(true);
        m_machine->setText(message);
    });
    validate();
    // the machine used last is shown at once (asked in the background; the dialog stays usable)
    if (!remembered.hosts.isEmpty())
        checkMachine();
}

RemoteTarget RemoteDialog::target() const
{
    RemoteTarget t;
    // as typed: what is checked is what ssh gets (a space of any kind is refused, not trimmed)
    t.host = m_host->currentText();
    t.port = m_port->value();
    t.command = m_command->text();
    t.topologyCommand = topologyCommandFor(t.command);
    return t;
}

QString RemoteDialog::machineText() const { return m_machine->text(); }

void RemoteDialog::setHost(const QString& host) { m_host->setCurrentText(host); }

void RemoteDialog::validate()
{
    const RemoteTarget t = target();
    QString problem = remoteHostProblem(t.host);
    if (problem.isEmpty() && t.command.isEmpty())
        problem = tr("Enter the command to run there (default: %1).").arg(RemoteTarget::defaultCommand());
    if (problem.isEmpty())
        problem = remoteTargetProblem(t, t.command);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
    m_check->setEnabled(remoteHostProblem(m_host->currentText()).isEmpty() && !m_probe->isRunning());
}

void RemoteDialog::checkMachine()
{
    if (!remoteHostProblem(m_host->currentText()).isEmpty())
        return;
    m_check->setEnabled(false);
    m_machine->setText(tr("Asking %1\u2026").arg(target().displayName()));
    m_probe->start(target());
}

void RemoteDialog::accept()
{
    const RemoteTarget t = target();
    if (t.command.isEmpty() || !remoteTargetProblem(t, t.command).isEmpty())
        return;
    QSettings settings;
    RemoteSettings remembered = RemoteSettings::load(settings);
    remembered.remember(settings, target());
    QDialog::accept();
}

} // namespace shardlab::gui

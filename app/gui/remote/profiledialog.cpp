#include "remote/profiledialog.h"

#include "common/recentlist.h"

#include "shardlab/cluster/ssh_target.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace shardlab::gui {

namespace {
constexpr int kRemembered = 10;
const QString kCommandsKey = QStringLiteral("profile/commands");
const QString kLaunchersKey = QStringLiteral("profile/launchers");
const QString kOutKey = QStringLiteral("profile/out");
const QString kShardlabKey = QStringLiteral("profile/shardlab");

} // namespace

QString shellQuoted(const QString& word) { return QString::fromStdString(shardlab::shellQuoted(word.toStdString())); }

QString ProfileRequest::defaultShardlab()
{
    const QDir here(QCoreApplication::applicationDirPath());
    for (const QString& candidate :
         {here.filePath(QStringLiteral("shardlab")), here.filePath(QStringLiteral("../cli/shardlab"))})
        if (QFileInfo(candidate).isExecutable())
            return QDir::cleanPath(candidate);
    return QStringLiteral("shardlab");
}

RemoteTarget ProfileRequest::target() const
{
    RemoteTarget t;
    t.host = QCoreApplication::translate("shardlab::gui::ProfileDialog", "this machine");
    t.onThisMachine = true;
    QString program = launcher.trimmed();
    if (!program.isEmpty())
        program += QLatin1Char(' ');
    program += command.trimmed();
    t.command = QStringLiteral("exec ") + shellQuoted(shardlab.trimmed()) + QStringLiteral(" profile --live --out ")
                + shellQuoted(outDir.trimmed()) + QStringLiteral(" -- ") + program;
    return t;
}

QString ProfileRequest::resultFile() const
{
    return QDir(outDir.trimmed()).filePath(QStringLiteral("profile.shardlab-result.json"));
}

QString ProfileRequest::problem() const
{
    if (command.trimmed().isEmpty())
        return ProfileDialog::tr("Enter the program to profile, with its arguments (for example ./allreduce).");
    if (outDir.trimmed().isEmpty())
        return ProfileDialog::tr("Choose a folder for the records, the result file and the trace.");
    if (shardlab.trimmed().isEmpty())
        return ProfileDialog::tr("Enter ShardLab's command line program (shardlab, or its full path).");
    return {};
}

ProfileSettings ProfileSettings::load(QSettings& settings)
{
    ProfileSettings s;
    s.commands = settings.value(kCommandsKey).toStringList();
    s.launchers = settings.value(kLaunchersKey).toStringList();
    s.outDir = settings.value(kOutKey, QDir(QDir::homePath()).filePath(QStringLiteral("shardlab-profile"))).toString();
    s.shardlab = settings.value(kShardlabKey, ProfileRequest::defaultShardlab()).toString();
    return s;
}

void ProfileSettings::remember(QSettings& settings, const ProfileRequest& used)
{
    putFirst(commands, used.command.trimmed(), kRemembered);
    if (!used.launcher.trimmed().isEmpty())
        putFirst(launchers, used.launcher.trimmed(), kRemembered);
    outDir = used.outDir.trimmed();
    shardlab = used.shardlab.trimmed();
    settings.setValue(kCommandsKey, commands);
    settings.setValue(kLaunchersKey, launchers);
    settings.setValue(kOutKey, outDir);
    settings.setValue(kShardlabKey, shardlab);
}

ProfileDialog::ProfileDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Profile a program"));
    QSettings settings;
    const ProfileSettings remembered = ProfileSettings::load(settings);

    auto* intro =
        new QLabel(tr("Runs your own NCCL program under ShardLab's NCCL profiler, with no change to its code, and "
                      "draws each rank's work, communication and waits here while it runs. Its own output goes "
                      "to the profiler's log. When it ends, the program as observed opens as a new untitled "
                      "document."),
                   this);
    intro->setWordWrap(true);

    m_command = new QComboBox(this);
    m_command->setEditable(true);
    m_command->addItems(remembered.commands);
    m_command->lineEdit()->setPlaceholderText(tr("./allreduce --size 64M"));
    m_command->setToolTip(
        tr("The program and its arguments, as you would type them in a terminal. It must use NCCL 2.23 or "
           "newer, which loads the profiler; the last commands are remembered."));
    m_launcher = new QComboBox(this);
    m_launcher->setEditable(true);
    QStringList launchers = remembered.launchers;
    for (const QString& l : {QStringLiteral("mpirun -np 2"), QStringLiteral("torchrun --nproc_per_node=2")})
        if (!launchers.contains(l))
            launchers << l;
    m_launcher->addItem(QString());
    m_launcher->addItems(launchers);
    m_launcher->setCurrentIndex(0);
    m_launcher->lineEdit()->setPlaceholderText(tr("none: one process drives every GPU"));
    m_launcher->setToolTip(tr("Optional: what starts one process per GPU, put before the program (mpirun -np 2, "
                              "torchrun --nproc_per_node=2). Leave it empty for a program that drives all its GPUs."));
    m_out = new QLineEdit(remembered.outDir, this);
    m_out->setToolTip(
        tr("Where the profiler writes each process's records, the result file (File > Open shows it again) "
           "and the Chrome trace. Records of an earlier profile there are replaced."));
    auto* browse = new QPushButton(tr("&Browse\u2026"), this);
    browse->setToolTip(tr("Choose the output folder"));
    auto* outRow = new QHBoxLayout;
    outRow->addWidget(m_out, 1);
    outRow->addWidget(browse);
    m_shardlab = new QLineEdit(remembered.shardlab, this);
    m_shardlab->setToolTip(
        tr("ShardLab's command line program, which runs the program under the profiler and streams it "
           "here (`shardlab profile --live`)."));

    auto* form = new QFormLayout;
    form->addRow(tr("&Program:"), m_command);
    form->addRow(tr("&Launcher:"), m_launcher);
    auto* outLabel = new QLabel(tr("&Output folder:"), this);
    outLabel->setBuddy(m_out); // a row of two widgets has no buddy of its own: Alt+O goes to the folder
    form->addRow(outLabel, outRow);
    form->addRow(tr("&ShardLab command:"), m_shardlab);

    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_problem->setTextFormat(Qt::PlainText);
    m_problem->setStyleSheet(QStringLiteral("color: #b00020"));

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Start"));
    m_buttons->button(QDialogButtonBox::Ok)
        ->setToolTip(tr("Start the program under the profiler; Stop on the run page ends it "
                        "and keeps what it recorded"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ProfileDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    resize(600, sizeHint().height());

    connect(m_command, &QComboBox::currentTextChanged, this, &ProfileDialog::validate);
    connect(m_out, &QLineEdit::textChanged, this, &ProfileDialog::validate);
    connect(m_shardlab, &QLineEdit::textChanged, this, &ProfileDialog::validate);
    connect(browse, &QPushButton::clicked, this, &ProfileDialog::chooseFolder);
    validate();
}

ProfileRequest ProfileDialog::request() const
{
    ProfileRequest r;
    r.shardlab = m_shardlab->text().trimmed();
    r.launcher = m_launcher->currentText().trimmed();
    r.command = m_command->currentText().trimmed();
    r.outDir = m_out->text().trimmed();
    return r;
}

void ProfileDialog::setRequest(const ProfileRequest& request)
{
    m_shardlab->setText(request.shardlab);
    m_launcher->setCurrentText(request.launcher);
    m_command->setCurrentText(request.command);
    m_out->setText(request.outDir);
    validate();
}

void ProfileDialog::validate()
{
    const QString problem = request().problem();
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

void ProfileDialog::chooseFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Output folder for the profile"), m_out->text());
    if (!dir.isEmpty())
        m_out->setText(dir);
}

void ProfileDialog::accept()
{
    const ProfileRequest r = request();
    if (!r.problem().isEmpty())
        return;
    QSettings settings;
    ProfileSettings remembered = ProfileSettings::load(settings);
    remembered.remember(settings, r);
    QDialog::accept();
}

} // namespace shardlab::gui

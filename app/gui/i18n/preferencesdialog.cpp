#include "i18n/preferencesdialog.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace shardlab::gui::i18n {

PreferencesDialog::PreferencesDialog(QWidget* parent)
    : QDialog(parent), m_language(new QComboBox(this)), m_note(new QLabel(this))
{
    setWindowTitle(tr("Preferences"));
    const QString system = resolveLanguage(LanguageChoice::System, QLocale::system().uiLanguages());
    m_language->addItem(tr("System (%1)").arg(nativeName(system)), static_cast<int>(LanguageChoice::System));
    m_language->addItem(nativeName(kEnglish), static_cast<int>(LanguageChoice::English));
    m_language->addItem(nativeName(kChinese), static_cast<int>(LanguageChoice::Chinese));
    m_language->setToolTip(tr("The language of menus, dialogs and explanations. Lesson texts follow it too; "
                              "messages computed by the engine (diagnoses, error details) stay in English."));
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("QLabel { color: #8A5A00; }"));

    auto* form = new QFormLayout;
    form->addRow(tr("&Language:"), m_language);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_note);
    layout->addStretch(1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &PreferencesDialog::reject);
    connect(m_language, &QComboBox::currentIndexChanged, this, &PreferencesDialog::updateNote);

    setChoice(savedLanguageChoice());
    setMinimumWidth(420);
}

LanguageChoice PreferencesDialog::choice() const
{
    return static_cast<LanguageChoice>(m_language->currentData().toInt());
}

void PreferencesDialog::setChoice(LanguageChoice choice)
{
    m_language->setCurrentIndex(m_language->findData(static_cast<int>(choice)));
    updateNote();
}

QString PreferencesDialog::note() const { return m_note->text(); }

void PreferencesDialog::updateNote()
{
    const QString chosen = resolveLanguage(choice(), QLocale::system().uiLanguages());
    if (chosen == currentLanguage()) {
        m_note->clear();
        m_note->hide();
        return;
    }
    // Said in both languages: the user may not read the one in use.
    const QString next = chosen == kChinese ? QStringLiteral("下次启动 ShardLab 时界面将切换为简体中文。")
                                            : QStringLiteral("ShardLab will use English the next time it starts.");
    m_note->setText(tr("The interface changes to %1 the next time ShardLab starts.").arg(nativeName(chosen))
                    + QStringLiteral("<br>") + next.toHtmlEscaped());
    m_note->show();
}

void PreferencesDialog::accept()
{
    saveLanguageChoice(choice());
    QDialog::accept();
}

QAction* createPreferencesAction(QWidget* parent)
{
    auto* action = new QAction(PreferencesDialog::tr("&Preferences..."), parent);
    action->setShortcut(QKeySequence::Preferences);
    action->setMenuRole(QAction::PreferencesRole);
    QObject::connect(action, &QAction::triggered, parent, [parent] {
        PreferencesDialog dialog(parent);
        dialog.exec();
    });
    return action;
}

} // namespace shardlab::gui::i18n

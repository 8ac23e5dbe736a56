// Preferences: the interface language (System / English / 简体中文), kept in QSettings and used
// from the next start. createPreferencesAction() is the one menu entry the main window adds.
#pragma once

#include "i18n/language.h"

#include <QDialog>

class QAction;
class QComboBox;
class QLabel;
class QWidget;

namespace shardlab::gui::i18n {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);

    LanguageChoice choice() const;
    void setChoice(LanguageChoice choice);
    // The note under the choice: empty while the choice means the language in use, otherwise
    // that the new language comes at the next start.
    QString note() const;

    void accept() override; // saves the choice

private:
    void updateNote();

    QComboBox* m_language;
    QLabel* m_note;
};

// "Preferences..." (QKeySequence::Preferences); opens the dialog over `parent`.
QAction* createPreferencesAction(QWidget* parent);

} // namespace shardlab::gui::i18n

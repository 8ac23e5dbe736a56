// The interface language: which one the user chose (Preferences > Language, kept in QSettings),
// which one that means on this system, and the translators that make Qt speak it.
//
// main() calls installTranslations(app) once, before any window exists: ShardLab's own
// translation (embedded as a Qt resource, :/i18n/shardlab_<lang>.qm) and Qt's (qtbase_<lang>.qm
// from Qt's translations folder, where the system has it) are installed, and QLocale's default
// becomes the language, so that dates, the lesson texts and the standard dialogs follow it.
// A change of the setting takes effect at the next start (widgets build their texts once).
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/text/language.h"
#include "shardlab/text/message.h"

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace shardlab::gui::i18n {

enum class LanguageChoice {
    System, // the first language of QLocale::system().uiLanguages() that ShardLab speaks
    English,
    Chinese, // Simplified Chinese
};

// The languages ShardLab ships, as QLocale names: "en" and "zh_CN".
inline const QString kEnglish = QStringLiteral("en");
inline const QString kChinese = QStringLiteral("zh_CN");

// The QSettings key and its values: "system", "en", "zh_CN".
inline const QString kLanguageKey = QStringLiteral("ui/language");
LanguageChoice savedLanguageChoice();
void saveLanguageChoice(LanguageChoice choice);
QString choiceCode(LanguageChoice choice);
LanguageChoice choiceFromCode(const QString& code); // unknown codes mean System

// The language for `choice`: English or Chinese as chosen; for System the first entry of
// `uiLanguages` (BCP 47 names as QLocale::uiLanguages() gives them, e.g. "zh-CN", "zh-Hans-CN",
// "en-US") that is English or Simplified Chinese. Traditional Chinese (zh-TW, zh-HK, zh-Hant)
// is not Simplified Chinese and is skipped. English when nothing matches.
QString resolveLanguage(LanguageChoice choice, const QStringList& uiLanguages);

// What installTranslations() found and did.
struct InstalledLanguage {
    QString language;            // "en" or "zh_CN"
    bool fromSystem = true;      // the setting said System
    bool shardlabLoaded = false; // ShardLab's own translation was installed
    bool qtLoaded = false;       // Qt's qtbase translation was installed
};

// Reads the setting and the system's languages and installs the translators (parented to
// `app`). Call after QCoreApplication::setOrganizationName/setApplicationName (QSettings).
InstalledLanguage installTranslations(QCoreApplication* app);
// Installs the translators of `language` ("en" or "zh_CN").
InstalledLanguage installTranslations(QCoreApplication* app, const QString& language, bool fromSystem);
// The language installed at start ("en" before installTranslations() ran).
QString currentLanguage();

// The interface language as the engine names it: the language in which the app words the
// engine's sentences (summary, diagnosis, warnings, hang report, scaling notes).
shardlab::Language engineLanguage();
// An engine sentence worded in the interface language.
QString engineText(const shardlab::Message& message);
// An engine error worded in the interface language (its Message: every error is born one); the
// file, the JSON path and the values stay as the engine wrote them. An error read back from
// another program as English only (a remote ShardLab of another version) stays English.
QString engineError(const shardlab::Error& error);
// An error of the app's own, worded by its translations (tr) already: carried by an engine Error as
// it is (verbatim), so that engineError() shows it unchanged.
shardlab::Message appWorded(const QString& text);

// The language's name in itself: "English", "简体中文".
QString nativeName(const QString& language);

// Chinese put together from pieces ("跨越 %1" with %1 "网络", "保存在 %1 中" with a Chinese %1):
// a space between two Chinese characters (Han, or CJK and full-width punctuation) goes; one
// between Chinese and Latin words or numbers stays ("跨越 NVLink", "4 张 GPU"; translations.md).
QString tidySpaces(const QString& text);

} // namespace shardlab::gui::i18n

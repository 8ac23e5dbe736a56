#include "i18n/language.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace shardlab::gui::i18n {

namespace {

QString g_current = kEnglish;

// "zh-CN", "zh_CN.UTF-8", "zh-Hans-CN", "en-US" -> "zh_CN", "en"; empty for any other language.
QString shippedLanguageFor(const QString& uiLanguage)
{
    QString name = uiLanguage.section(QLatin1Char('.'), 0, 0).section(QLatin1Char('@'), 0, 0);
    name.replace(QLatin1Char('_'), QLatin1Char('-'));
    if (name.isEmpty())
        return {};
    const QLocale locale(name);
    if (locale.language() == QLocale::English)
        return kEnglish;
    // QLocale fills in the script from the territory: zh-CN and zh-SG are Simplified, zh-TW and
    // zh-HK Traditional, and a bare "zh" Simplified.
    if (locale.language() == QLocale::Chinese && locale.script() == QLocale::SimplifiedHanScript)
        return kChinese;
    return {};
}

// Han characters are drawn with the font that fontconfig's fallback picks for the process's
// locale: under LANG=en_US that is the Japanese variant, whose forms of many characters are not
// the Simplified Chinese ones. A Chinese interface asks for the Simplified Chinese face first.
void preferSimplifiedChineseGlyphs(QCoreApplication* app)
{
    const QString sc = QStringLiteral("Noto Sans CJK SC");
    if (!qobject_cast<QGuiApplication*>(app) || !QFontDatabase::families().contains(sc))
        return;
    QFont font = QGuiApplication::font();
    QStringList families = font.families();
    if (families.isEmpty())
        families << font.family();
    if (families.contains(sc))
        return;
    families << sc; // after the Latin face: Latin text keeps its font, Han falls back to SC
    font.setFamilies(families);
    QGuiApplication::setFont(font);
}

} // namespace

QString choiceCode(LanguageChoice choice)
{
    switch (choice) {
    case LanguageChoice::English: return kEnglish;
    case LanguageChoice::Chinese: return kChinese;
    case LanguageChoice::System: break;
    }
    return QStringLiteral("system");
}

LanguageChoice choiceFromCode(const QString& code)
{
    if (code == kEnglish)
        return LanguageChoice::English;
    if (code == kChinese)
        return LanguageChoice::Chinese;
    return LanguageChoice::System;
}

LanguageChoice savedLanguageChoice() { return choiceFromCode(QSettings().value(kLanguageKey).toString()); }

void saveLanguageChoice(LanguageChoice choice)
{
    QSettings settings;
    settings.setValue(kLanguageKey, choiceCode(choice));
    settings.sync();
}

QString resolveLanguage(LanguageChoice choice, const QStringList& uiLanguages)
{
    if (choice != LanguageChoice::System)
        return choiceCode(choice);
    for (const QString& ui : uiLanguages) {
        const QString shipped = shippedLanguageFor(ui);
        if (!shipped.isEmpty())
            return shipped;
    }
    return kEnglish;
}

InstalledLanguage installTranslations(QCoreApplication* app)
{
    const LanguageChoice choice = savedLanguageChoice();
    return installTranslations(app, resolveLanguage(choice, QLocale::system().uiLanguages()),
                               choice == LanguageChoice::System);
}

InstalledLanguage installTranslations(QCoreApplication* app, const QString& language, bool fromSystem)
{
    InstalledLanguage out;
    out.language = language == kChinese ? kChinese : kEnglish;
    out.fromSystem = fromSystem;
    // English texts are the sources; shardlab_en.qm holds the plural forms ("1 GPU", "2 GPUs").
    auto* own = new QTranslator(app);
    out.shardlabLoaded = own->load(QStringLiteral(":/i18n/shardlab_") + out.language + QStringLiteral(".qm"));
    if (out.shardlabLoaded)
        QCoreApplication::installTranslator(own);
    else
        delete own;
    // Qt's own texts (standard buttons, file dialogs, context menus), where the system has them
    // (Debian: qt6-translations-l10n).
    auto* qt = new QTranslator(app);
    out.qtLoaded = qt->load(QLocale(out.language), QStringLiteral("qtbase"), QStringLiteral("_"),
                            QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    if (out.qtLoaded)
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    QLocale::setDefault(QLocale(out.language));
    if (out.language == kChinese)
        preferSimplifiedChineseGlyphs(app);
    g_current = out.language;
    return out;
}

QString currentLanguage() { return g_current; }

shardlab::Language engineLanguage()
{
    return shardlab::languageFromCode(g_current.toStdString()).value_or(shardlab::Language::English);
}

QString engineText(const shardlab::Message& message)
{
    return QString::fromStdString(shardlab::render(message, engineLanguage()));
}

QString engineError(const shardlab::Error& error)
{
    return QString::fromStdString(shardlab::worded(error, engineLanguage()));
}

shardlab::Message appWorded(const QString& text) { return shardlab::verbatim(text.toStdString()); }

namespace {
bool chinese(QChar c)
{
    const char16_t u = c.unicode();
    return c.script() == QChar::Script_Han || (u >= 0x3000 && u <= 0x303F) || (u >= 0xFF00 && u <= 0xFFEF);
}
} // namespace

QString tidySpaces(const QString& text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == QLatin1Char(' ') && i > 0 && i + 1 < text.size() && chinese(text[i - 1]) && chinese(text[i + 1]))
            continue;
        out += text[i];
    }
    return out;
}

QString nativeName(const QString& language)
{
    // Each language is named in itself, so that a user who cannot read the current one still
    // finds their own.
    return language == kChinese ? QStringLiteral("简体中文") : QStringLiteral("English");
}

} // namespace shardlab::gui::i18n

// Text that comes from outside ShardLab (a remote machine's answers, a program's output, the names
// and contents of files, the engine's messages that quote them) is shown as text, never as markup:
// Qt shows a label's, a message box's and a tooltip's text as HTML when it "looks like" HTML
// (Qt::mightBeRichText), so `<h1>` in a remote version string would render as a heading and a
// link would become clickable. Labels that show such text are made Qt::PlainText where they are
// created; tooltips and message boxes go through here.
#pragma once

#include <QMessageBox>
#include <QString>
#include <QTextDocument>

namespace shardlab::gui {

// A tooltip that shows `text` literally (escaped, in a paragraph: a tooltip has no text format).
inline QString plainToolTip(const QString& text)
{
    return text.isEmpty() ? QString() : Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

// QMessageBox::warning() with its text shown literally.
inline void warnPlainText(QWidget* parent, const QString& title, const QString& text,
                          QMessageBox::Icon icon = QMessageBox::Warning)
{
    QMessageBox box(icon, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

} // namespace shardlab::gui

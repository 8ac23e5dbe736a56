#include "common/exampletitles.h"

#include <QCoreApplication>

namespace shardlab::gui {

namespace {
// The "name" of each scenario in resources/scenarios (lupdate collects them for translation).
const char* const kExampleNames[] = {
    QT_TRANSLATE_NOOP("ExampleTitles", "Balanced ownership 12/12 GB"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Unbalanced ownership 14/10 GB"),
    QT_TRANSLATE_NOOP("ExampleTitles", "24 GB replicated on four 16 GB cards"),
    QT_TRANSLATE_NOOP("ExampleTitles", "24 GB sharded ZeRO-3 style"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Choosing a collective: features of unequal length"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Data-parallel training step"),
    QT_TRANSLATE_NOOP("ExampleTitles", "A small communication-heavy job on 4 GPUs"),
    QT_TRANSLATE_NOOP("ExampleTitles", "A small communication-heavy job on 5 GPUs"),
    QT_TRANSLATE_NOOP("ExampleTitles", "A hang: rank 2 calls the wrong collective"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Lab: ownership and all-reduce on two GPUs"),
    QT_TRANSLATE_NOOP("ExampleTitles", "24 GB replicated, oversubscribed with unified memory"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Strong scaling: 16 GPUs in two nodes"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Strong scaling: 8 GPUs in one node"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Data-parallel training from 8 to 16 GPUs"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Two GPUs: 1.6x, not 2x"),
    QT_TRANSLATE_NOOP("ExampleTitles", "Straggler: shards of 12/6/4/2 GB"),
};
} // namespace

QString exampleTitle(const std::string& name)
{
    for (const char* known : kExampleNames)
        if (name == known)
            return QCoreApplication::translate("ExampleTitles", known);
    return QString::fromStdString(name);
}

} // namespace shardlab::gui

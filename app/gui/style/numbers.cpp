#include "style/numbers.h"

#include "shardlab/base/units.h"

#include <cmath>

namespace shardlab::gui::numbers {

QString ms(double v)
{
    if (v > 0 && v < 0.005)
        return QStringLiteral("<0.01");
    if (std::fabs(v) < 0.005)
        v = 0; // no "-0.00"
    return QString::number(v, 'f', 2);
}

QString msWithUnit(double v) { return ms(v) + QStringLiteral(" ms"); }

QString percent(double share)
{
    return QString::fromStdString(shardlab::formatPercent(share)); // one rule with the engine's text
}

QString speedup(double factor) { return QString::number(factor, 'f', 2) + QLatin1Char('x'); }

QString gbps(double v) { return QString::number(v, 'f', 1); }

} // namespace shardlab::gui::numbers

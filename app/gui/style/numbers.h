// How the app writes a number, one rule per kind, so that figures side by side agree (no "0.000"
// beside "60.00", no "20.000000 ms"). The engine's own sentences format their numbers in the
// engine; these are for tables, the summary, tooltips and the diagnosis evidence.
#pragma once

#include <QString>

namespace shardlab::gui::numbers {

// Milliseconds: two decimals whatever the size, so a column lines up ("60.00", "0.00", "1234.50");
// a time above zero but below 0.005 ms reads "<0.01" rather than a zero it is not.
QString ms(double ms);
QString msWithUnit(double ms); // "60.00 ms"
// A share of 1 as a percentage: whole percent ("25%"), one decimal below 10% ("2.5%").
QString percent(double share);
// A speed-up: two decimals and "x" ("1.60x").
QString speedup(double factor);
// Bandwidth in GB/s: one decimal ("181.3").
QString gbps(double gbps);

} // namespace shardlab::gui::numbers

// The shipped examples' names in the interface language. A scenario file carries one name, in
// English (its "name"); where the app shows the name of a shipped example (File > Open example,
// the window title) it shows it translated. Other names (a user's scenario) are shown as written.
#pragma once

#include <QString>

#include <string>

namespace shardlab::gui {

QString exampleTitle(const std::string& name);

} // namespace shardlab::gui

// Short texts the whole GUI shares: engine strings as QString, and the names of ranks, shards and
// operations as users read them. Numbers are formatted by the engine (units.h).
#pragma once

#include "shardlab/base/units.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/scenario.h"
#include "shardlab/model/strategies.h"

#include <QCoreApplication>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace shardlab::gui {

inline QString qs(const std::string& s) { return QString::fromStdString(s); }
inline QString bytesText(Bytes b) { return qs(formatBytes(b)); }

class Labels {
    Q_DECLARE_TR_FUNCTIONS(Labels)
public:
    static QString gpu(int rank);                                 // "GPU 3"
    static QString shard(const Scenario& s, int item, int shard); // "'batch' #2"
    static QString ranks(const std::vector<int>& ranks);          // "0-3, 6"
    static QString op(OpKind kind);                               // "All-Reduce"
    static QString itemKind(ItemKind kind);                       // "Optimizer state"
    static QString linkKind(LinkKind kind);                       // "NVLink"
    static QString switchKind(SwitchKind kind);                   // "PCIe switch"
    static QString strategy(Strategy strategy);                   // "ZeRO-3"
    // Parses "all", "" (every rank), "0-3, 6". Empty optional when malformed.
    static std::optional<std::vector<int>> parseRanks(const QString& text);
};

} // namespace shardlab::gui

// The engine names things in English for the command line and its files ("All-Reduce",
// "communication", "nvlink", "the sum on every rank"). The GUI shows the same names through these
// functions, translated. Every GUI library can use them (this library links only the engine and
// Qt); Labels (labels.h) builds on them.
#pragma once

#include "shardlab/analysis/summary.h"
#include "shardlab/model/collectives.h"
#include "shardlab/model/topology.h"

#include <QCoreApplication>
#include <QString>

namespace shardlab::gui {

class EngineTerms {
    Q_DECLARE_TR_FUNCTIONS(EngineTerms)
public:
    static QString op(OpKind kind);              // opDisplayName(): "All-Reduce", "Reduce-Scatter + All-Gather"
    static QString need(Need need);              // needDescription(): "the sum on every rank"
    static QString bottleneck(Bottleneck b);     // bottleneckName(): "compute", "communication"
    static QString linkKind(LinkKind kind);      // linkKindName(): "NVLink", "PCIe", "cross-socket", "network"
    static QString linkKindWords(LinkKind kind); // linkKindWords(): "the CPU-socket interconnect", ...
    static QString linkLabel(LinkKind kind);     // the editor's label: "Cross-socket (SYS)"
};

} // namespace shardlab::gui

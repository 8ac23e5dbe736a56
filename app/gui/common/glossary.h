// Tooltips for the terms a learner may not know yet (NV18, PIX, ZeRO-3, all-reduce...). Each text
// says what the term means and why it matters for multi-GPU programs, in two or three lines.
#pragma once

#include "shardlab/model/collectives.h"
#include "shardlab/model/strategies.h"
#include "shardlab/model/topology.h"
#include "shardlab/sim/topo_matrix.h"

#include <QCoreApplication>
#include <QString>

namespace shardlab::gui {

class Glossary {
    Q_DECLARE_TR_FUNCTIONS(Glossary)
public:
    static QString pathClass(PathClass cls); // NV#, PIX, PXB, PHB, NODE, SYS, NET
    static QString link(LinkKind kind);
    static QString switchKind(SwitchKind kind); // NVSwitch, PCIe switch, CPU, NIC, network switch
    static QString strategy(Strategy strategy); // replicate, data parallel, ZeRO-1/2/3, TP, PP
    static QString op(OpKind kind);             // compute, all-reduce, ...
    static QString need(Need need);             // what the next step needs
    static QString shard();
    static QString rank();
    static QString imbalance();
    static QString buckets();
    static QString overlap();
    static QString tflops();
    static QString gauge();
};

} // namespace shardlab::gui

#include "common/glossary.h"

namespace shardlab::gui {

QString Glossary::pathClass(PathClass cls)
{
    switch (cls) {
    case PathClass::Self: return tr("X: the GPU itself.");
    case PathClass::NvLink:
        return tr("NV#: the two GPUs talk over # bonded NVLink links (NV18 = 18 links), directly or through "
                  "an NVSwitch. The fastest path between GPUs: hundreds of GB/s, without touching PCIe or the CPU.");
    case PathClass::Pix:
        return tr("PIX: the path crosses at most one PCIe switch. Both GPUs hang off the same switch, so "
                  "peer-to-peer copies stay below the CPU; bandwidth is one PCIe link (about 16 GB/s for Gen3 x16).");
    case PathClass::Pxb: return tr("PXB: the path crosses several PCIe switches but not the CPU's host bridge.");
    case PathClass::Phb:
        return tr("PHB: the path goes up through the CPU's PCIe host bridge. Usually slower than PIX: the "
                  "switch uplinks to the CPU are shared by every GPU below them.");
    case PathClass::Node: return tr("NODE: the path crosses host bridges within one NUMA node (one CPU socket).");
    case PathClass::Sys:
        return tr("SYS: the path crosses the link between CPU sockets (QPI/UPI). Often the slowest path "
                  "inside a machine: adding a GPU behind the other socket can make a collective slower.");
    case PathClass::Net:
        return tr("NET: the GPUs are in different machines; traffic leaves through a network card "
                  "(InfiniBand or Ethernet). Tens of GB/s at best: ten times less than NVLink.");
    case PathClass::None: return tr("Not connected.");
    }
    return {};
}

QString Glossary::link(LinkKind kind)
{
    switch (kind) {
    case LinkKind::NvLink:
        return tr("NVLink: NVIDIA's GPU-to-GPU link. NV18 means 18 links bonded together; each NVLink4 link "
                  "carries about 25 GB/s per direction, so NV18 is about 450 GB/s.");
    case LinkKind::Pcie:
        return tr("PCIe: the bus that joins GPUs, NICs, PCIe switches and the CPU. Gen3 x16 carries about "
                  "16 GB/s per direction, Gen5 x16 about 63 GB/s.");
    case LinkKind::CrossSocket:
        return tr("Cross-socket link (QPI/UPI, nvidia-smi's SYS): joins the two CPUs of a server. GPU traffic "
                  "that crosses it is slow and shares it with everything else.");
    case LinkKind::Network:
        return tr("Network link between machines: a NIC to a network switch, e.g. 400 Gb/s InfiniBand = 50 GB/s "
                  "per direction. Collectives that span nodes are limited by it.");
    }
    return {};
}

QString Glossary::switchKind(SwitchKind kind)
{
    switch (kind) {
    case SwitchKind::NvSwitch:
        return tr("NVSwitch: a switch chip that joins every GPU of the machine with full NVLink bandwidth, so "
                  "every pair of GPUs shows as NV18. Each GPU's 450 GB/s is shared by its simultaneous transfers.");
    case SwitchKind::PcieSwitch:
        return tr("PCIe switch: fans one uplink to the CPU out to several devices. GPUs under the same switch "
                  "are PIX to each other and can copy without going through the CPU.");
    case SwitchKind::Cpu:
        return tr("CPU socket (PCIe host bridge). GPUs under different sockets talk across the socket link (SYS).");
    case SwitchKind::Nic: return tr("NIC: network card. Traffic to GPUs of other machines leaves through it.");
    case SwitchKind::NetworkSwitch:
        return tr("Network switch (InfiniBand or Ethernet fabric) joining the machines' NICs.");
    }
    return {};
}

QString Glossary::strategy(Strategy strategy)
{
    switch (strategy) {
    case Strategy::Replicate:
        return tr(
            "Replicate: every GPU holds a full copy of everything. Simple, but each GPU needs the whole job's memory.");
    case Strategy::DataParallel:
        return tr("Data parallel: the model (parameters, gradients, optimizer state) is copied on every GPU and the "
                  "batch is split. Gradients are summed across GPUs with an all-reduce every step.");
    case Strategy::Zero1: return tr("ZeRO-1: data parallel, but each GPU keeps only its slice of the optimizer state.");
    case Strategy::Zero2:
        return tr("ZeRO-2: optimizer state and gradients are sliced across GPUs (gradients are reduce-scattered); "
                  "parameters stay copied.");
    case Strategy::Zero3:
        return tr(
            "ZeRO-3 / FSDP: parameters, gradients and optimizer state are all sliced; each layer's parameters are "
            "all-gathered just before use. Memory per GPU shrinks with the number of GPUs.");
    case Strategy::TensorParallel:
        return tr(
            "Tensor parallel: every weight matrix is split by width across the GPUs, which all see the same batch; "
            "partial results are combined with all-reduce inside every layer. Needs fast links (NVLink).");
    case Strategy::PipelineParallel:
        return tr(
            "Pipeline parallel: the model is split by depth into stages, one per GPU; activations go from stage to "
            "stage with send/recv. The input batch enters at the first stage.");
    }
    return {};
}

QString Glossary::op(OpKind kind)
{
    switch (kind) {
    case OpKind::Compute: return tr("Compute: each GPU works on the share of the item it owns, at its own speed.");
    case OpKind::AllReduce:
        return tr("All-reduce: every GPU ends with the sum of all GPUs' buffers. Used to sum gradients in data "
                  "parallel training.");
    case OpKind::Reduce: return tr("Reduce: the sum of all GPUs' buffers arrives on one root GPU only.");
    case OpKind::Broadcast: return tr("Broadcast: one root GPU's buffer is copied to every GPU.");
    case OpKind::AllGather:
        return tr("All-gather: every GPU ends with the concatenation of all GPUs' pieces (equal sizes).");
    case OpKind::AllGatherV:
        return tr("All-gather-v: the concatenation of pieces of unequal sizes (NCCL builds it from broadcasts).");
    case OpKind::ReduceScatter:
        return tr("Reduce-scatter: the sum is computed, and each GPU keeps only its own slice of it.");
    case OpKind::ReduceScatterAllGather:
        return tr("Reduce-scatter then all-gather: an all-reduce in two halves, the way ring all-reduce works inside; "
                  "ZeRO places work between the two.");
    case OpKind::SendRecv: return tr("Send/recv: one GPU sends its buffer to one other GPU (pipeline stages).");
    }
    return {};
}

QString Glossary::need(Need need)
{
    switch (need) {
    case Need::SumOnOneRank:
        return tr("Only one GPU (the root) uses the summed result, e.g. to write a checkpoint or a metric.");
    case Need::SumOnEveryRank:
        return tr("Every GPU needs the full sum, e.g. gradients before each GPU's optimizer step.");
    case Need::SliceOfSumOnEveryRank:
        return tr("Each GPU only updates its own slice, so it only needs that slice of the sum (ZeRO).");
    case Need::ConcatenationOnEveryRank:
        return tr("Every GPU needs all the pieces side by side, not added up, e.g. sharded parameters before a layer.");
    case Need::CopyOfOneRanksData:
        return tr("Every GPU needs a copy of what one GPU has, e.g. initial weights from rank 0.");
    }
    return {};
}

QString Glossary::shard()
{
    return tr("Shard: a contiguous piece of a workload item. A shard with one owner is split (only that GPU holds "
              "it); a shard with several owners is replicated (each of them holds a full copy).");
}

QString Glossary::rank()
{
    return tr("Rank: the number of a process in the job. ShardLab runs one rank per GPU: GPU 3 is rank 3.");
}

QString Glossary::imbalance()
{
    return tr("Imbalance: how much more the busiest GPU owns than the mean, (max - mean) / mean. The others wait "
              "for the busiest one at every synchronisation point.");
}

QString Glossary::buckets()
{
    return tr(
        "Buckets: split the step into this many equal pieces run back to back (gradient buckets, micro-batches).");
}

QString Glossary::overlap()
{
    return tr("Overlap: run the collective on its own stream while compute goes on. A bucketed all-reduce after a "
              "bucketed backward pass starts each bucket as soon as it is ready, as PyTorch DDP does.");
}

QString Glossary::tflops()
{
    return tr("TFLOP/s: the GPU's sustained compute rate, in 10^12 floating-point operations per second.");
}

QString Glossary::gauge()
{
    return tr("Memory gauge: what this GPU owns (coloured by item), then the largest buffer one of its collectives "
              "adds (hatched grey), against what it holds. Red means the peak does not fit: the excess is shown in GB. "
              "Four 16 GB cards are not one 64 GB memory.");
}

} // namespace shardlab::gui

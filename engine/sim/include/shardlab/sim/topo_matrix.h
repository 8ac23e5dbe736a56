// The topology as `nvidia-smi topo -m` prints it: for each pair of GPUs the class of the path
// between them (X, NV#, PIX, PXB, PHB, NODE, SYS, NET) plus the bandwidth of each route.
#pragma once

#include "shardlab/model/topology.h"

#include <string>
#include <vector>

namespace shardlab {

enum class PathClass { Self, NvLink, Pix, Pxb, Phb, Node, Sys, Net, None };

struct PairClass {
    PathClass cls = PathClass::None;
    int nvlinks = 0; // NV# count
};

const char* pathClassDescription(PathClass cls); // legend line as nvidia-smi prints it
std::string pathClassLabel(const PairClass& pc); // "X", "NV18", "PIX", ...

std::vector<std::vector<PairClass>> classifyPairs(const Topology& topology);
// The matrix, the legend and a table of route bandwidth/latency between every pair.
std::string formatTopoMatrix(const Topology& topology);
// Whether all ranks share one NVLink/NVSwitch domain (every pair NV#).
bool sharesFastDomain(const Topology& topology);

} // namespace shardlab

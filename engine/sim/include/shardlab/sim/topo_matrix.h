// The topology as `nvidia-smi topo -m` prints it: for each pair of GPUs the class of the path
// between them (X, NV#, PIX, PXB, PHB, NODE, SYS, NET) plus the bandwidth of each route, in
// English or Chinese (the words from the catalogue, report.inc; nvidia-smi's classes as they are).
// `shardlab topo`, the lab report and the topology of a multi-process run all print it here.
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/text/language.h"
#include "shardlab/text/message.h"

#include <string>
#include <vector>

namespace shardlab {

enum class PathClass { Self, NvLink, Pix, Pxb, Phb, Node, Sys, Net, None };

struct PairClass {
    PathClass cls = PathClass::None;
    int nvlinks = 0; // NV# count
};

const char* pathClassKey(PathClass cls);         // the class in nvidia-smi's legend: "X", "NV#", "PIX", "-"
std::string pathClassLabel(const PairClass& pc); // "X", "NV18", "PIX", ...
// What a path class means, from nvidia-smi's legend: "connection traversing at most a single PCIe bridge".
Message pathClassMeaning(PathClass cls);

std::vector<std::vector<PairClass>> classifyPairs(const Topology& topology);
// The matrix, the legend and a table of route bandwidth/latency between every pair, in `language`.
// The English is nvidia-smi's (its legend word for word); in Chinese the same table with its words
// from the catalogue, and the machine's name and source worded part by part (machineText()).
std::string topoMatrixText(const Topology& topology, Language language);
// A machine's name or source (a preset's citation, a scaled or gathered machine's notes) in
// `language`, part by part; product names and figures kept, a user's own text as written. English
// is `text` itself.
std::string machineText(const std::string& text, Language language);
// Whether all ranks share one NVLink/NVSwitch domain (every pair NV#).
bool sharesFastDomain(const Topology& topology);

} // namespace shardlab

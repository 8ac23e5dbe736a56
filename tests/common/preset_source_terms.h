// What a preset's source keeps in Latin script in Chinese too: product names, document titles and
// commands (the prose around them is worded). For the tests that check the presets' wording in the
// engine (test_error_wording.cpp) and in the app (test_enginetext.cpp).
#pragma once

#include <string>
#include <vector>

namespace shardlab::test {

inline std::vector<std::string> presetSourceTerms()
{
    return {"NVIDIA Tesla",
            "PCI-SIG Gen3 x16",
            "Intel",
            "ConnectX-7",
            "ConnectX-6",
            "DGX SuperPOD",
            "DGX-1 System Architecture",
            "nvidia-smi topo -m"};
}

} // namespace shardlab::test

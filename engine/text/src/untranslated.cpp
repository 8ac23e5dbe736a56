#include "shardlab/text/untranslated.h"

#include <algorithm>
#include <cctype>

namespace shardlab {
namespace {

bool latinLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool wordChar(char c)
{
    return latinLetter(c) || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '+' || c == '/'
           || c == '#';
}

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// Units as ShardLab prints them, lower-case.
const std::vector<std::string_view>& units()
{
    static const std::vector<std::string_view> list = {
        "b",  "kb",      "mb",     "gb",    "tb",     "pb",     "kib",  "mib",  "gib",   "tib",  "ns",  "us",
        "ms", "s",       "gb/s",   "mb/s",  "tb/s",   "gbit/s", "gbps", "gbit", "hz",    "mhz",  "ghz", "w",
        "x",  "tflop/s", "tflops", "flops", "flop/s", "kb/s",   "ppm",  "flop", "tflop", "gt/s", "tf/s"};
    return list;
}

bool allowedPart(const std::string& part)
{
    int letters = 0;
    for (char c : part)
        letters += latinLetter(c) ? 1 : 0;
    if (letters <= 1)
        return true; // "x" of 1.6x, a choice "a", "#3"
    if (std::find(technicalTerms().begin(), technicalTerms().end(), part) != technicalTerms().end())
        return true; // a term with digits in it: "fp32", "ll128"
    // Digits around a term or unit: "8b", "zero-3", "h100", "24gb", "nv18".
    std::string core = part;
    while (!core.empty() && !latinLetter(core.back()))
        core.pop_back();
    while (!core.empty() && !latinLetter(core.front()))
        core.erase(core.begin());
    const auto is = [&](const std::vector<std::string_view>& list) {
        return std::find(list.begin(), list.end(), core) != list.end();
    };
    if (is(technicalTerms()) || is(units()))
        return true;
    // A term followed by digits or a unit after digits: "nv18", "zero3", "h100".
    std::string letterPrefix;
    for (char c : core) {
        if (!latinLetter(c))
            break;
        letterPrefix += c;
    }
    return letterPrefix.size() < core.size()
           && std::find(technicalTerms().begin(), technicalTerms().end(), letterPrefix) != technicalTerms().end();
}

} // namespace

const std::vector<std::string_view>& technicalTerms()
{
    // Kept in Latin script by Chinese technical writing: hardware, software and protocol names, the
    // collectives as NCCL names them, parallelism schemes, file formats, bandwidth terms.
    static const std::vector<std::string_view> list = {
        "gpu", "gpus", "cpu", "nvlink", "nvswitch", "pcie", "pci", "nccl", "nvls", "sharp", "infiniband", "ib", "roce",
        "hdr", "ndr", "ethernet", "nic", "nics", "rdma", "cuda", "nvml", "cupti", "nvtx", "mpi", "mpirun", "srun",
        "slurm", "torchrun", "ssh", "zero", "fsdp", "ddp", "dp", "tp", "pp", "all-reduce", "reduce-scatter",
        "all-gather", "all-gatherv", "all-gather-v", "gather", "scatter", "broadcast", "reduce", "send", "recv",
        "send/recv", "all_reduce", "reduce_scatter", "all_gather", "all_gatherv", "all_gather_v", "send_recv",
        "reduce_scatter_all_gather", "ring", "tree", "direct", "simple", "ll", "ll128", "algbw", "busbw", "h100",
        "h200", "a100", "p100", "v100", "hgx", "dgx", "sxm", "nv", "pix", "pxb", "phb", "node", "sys", "json", "csv",
        "html", "pdf", "png", "svg", "shardlab", "perfetto", "chrome", "nvidia", "sm", "sms", "hbm", "bf16", "fp16",
        "fp32", "adam", "sgd", "api", "cli", "linux", "nccl-tests", "nsight", "pytorch", "id", "rank", "ranks", "x86",
        "sys", "socket", "qpi", "upi", "lesson", "utf-8",
        // other tools' names and what they write (issue 28): PyTorch's Kineto profiler and Flight
        // Recorder, NCCL Inspector, Nsight Systems' SQLite export, clock sync protocols
        "kineto", "flight", "recorder", "inspector", "systems", "sqlite", "ntp", "ptp", "pickle",
        "nccl_inspector_dump_verbose", "nccl_inspector_enable", "distributedinfo", "record_param_comms",
        // the course's own terms, kept in English in its Chinese text (docs/translations.md): Rank,
        // Shard, Straggler, Collective, Stream, Batch, Root; NUMA; NCCL's environment (NCCL_DEBUG=INFO)
        "collective", "collectives", "shard", "shards", "straggler", "stream", "batch", "root", "numa", "nccl_debug",
        "info",
        // nvidia-smi's path class for a network hop (NV#, PIX, PXB, PHB, NODE and SYS are above)
        "net",
        // the transformer planner (issue 27): parallel axes, utilisation, precisions, GEMMs, schedules
        "cp", "ep", "mfu", "tflop", "fp8", "gemm", "gpipe", "1f1b", "megatron-lm", "megatron", "deepspeed", "mlp",
        "flashattention", "cublas", "all-to-all", "torchtitan", "transformer", "token", "tokens", "llama", "gpt",
        "mixtral",
        // JSON's literals, as a file holds them
        "true", "false", "null"};
    return list;
}

std::vector<std::string> untranslatedWords(std::string_view text, const std::vector<std::string>& names)
{
    std::vector<std::string> lowerNames;
    lowerNames.reserve(names.size());
    for (const std::string& n : names)
        lowerNames.push_back(lower(n));
    std::vector<std::string> found;
    for (size_t i = 0; i < text.size();) {
        // A code span (`shardlab sim FILE`): a command as typed, not prose to translate.
        if (text[i] == '`') {
            const size_t close = text.find('`', i + 1);
            if (close != std::string_view::npos) {
                i = close + 1;
                continue;
            }
        }
        if (!wordChar(text[i])) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < text.size() && wordChar(text[end]))
            ++end;
        const std::string_view raw = text.substr(i, end - i);
        i = end;
        if (std::none_of(raw.begin(), raw.end(), latinLetter))
            continue;
        const std::string word = lower(raw);
        if (std::any_of(lowerNames.begin(), lowerNames.end(),
                        [&](const std::string& n) { return n.find(word) != std::string::npos; }))
            continue;
        if (allowedPart(word))
            continue;
        // Compounds: every part between '+' or '/' must be allowed ("Reduce-Scatter+All-Gather").
        bool ok = true;
        size_t from = 0;
        for (size_t k = 0; k <= word.size(); ++k)
            if (k == word.size() || word[k] == '+' || word[k] == '/') {
                if (k > from && !allowedPart(word.substr(from, k - from)))
                    ok = false;
                from = k + 1;
            }
        if (!ok)
            found.emplace_back(raw);
    }
    return found;
}

} // namespace shardlab

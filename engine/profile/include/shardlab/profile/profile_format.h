// The record files of ShardLab's NCCL profiler plugin: the names both sides agree on. The plugin
// (engine/profile/plugin/, loaded into the profiled program by NCCL) writes them; the engine
// (profile_reader.h) reads them. Plain constants only, so that the plugin includes this header
// without linking the engine. The format is described in docs/profiling.md ("Record files").
#pragma once

namespace shardlab::profile_format {

// The first line of every file: {"shardlab_nccl_profile": kVersion, ...}. A reader refuses other
// versions by name.
inline constexpr int kVersion = 1;
inline constexpr const char* kMagicKey = "shardlab_nccl_profile";
// The folder the plugin writes into (one file per process); the plugin records nothing without it.
// Not SHARDLAB_PROFILE_DIR: that is the folder of calibrated cost profiles (sim/profiles.h), which a
// profiled program that runs `shardlab sim --profile NAME` must still find.
inline constexpr const char* kRecordsDirVariable = "SHARDLAB_PROFILE_RECORDS_DIR";
// <host>-<pid> + kFileSuffix
inline constexpr const char* kFileSuffix = ".nccl-profile.jsonl";
// The plugin's file name as built and installed (NCCL_PROFILER_PLUGIN names its path).
inline constexpr const char* kPluginFileName = "libshardlab_nccl_profiler.so";

} // namespace shardlab::profile_format

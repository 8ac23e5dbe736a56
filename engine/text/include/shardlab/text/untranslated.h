// Finds English left in a text that should be Chinese: the check every "no English in a zh_CN
// run" test uses. Latin-script words are allowed when they are technical terms that Chinese
// technical writing keeps as they are (GPU, NVLink, All-Reduce, ZeRO-3, busbw...), units (ms,
// GB/s), or names the user chose (given as `names`: items, operations, devices, files).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

// The terms kept in Latin script in Chinese text, lower-case.
const std::vector<std::string_view>& technicalTerms();

// Each word of `text` made of Latin letters (with digits, '-', '_', '.', '+', '/' inside it) that is
// neither a technical term nor a unit nor part of one of `names`, in order of appearance. Words
// of one letter (x in "1.6x", a choice "a") do not count, nor anything in a code span between
// backticks (a command as typed: `shardlab sim FILE`).
std::vector<std::string> untranslatedWords(std::string_view text, const std::vector<std::string>& names = {});

} // namespace shardlab

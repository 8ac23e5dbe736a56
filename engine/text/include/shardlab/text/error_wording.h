// Errors for bad input, worded in the user's language. An engine error is born a Message
// (Error::what, shardlab/base/result.h) where its place of birth has been converted; the rest are
// still English text (Error::message), and for those this file is the bridge.
// The recurring templates of those errors, the ones a learner meets with a broken file or command,
// are recognised here line by line and worded from the catalogue (errors.inc), with the file, the
// JSON path and the values exactly as the engine wrote them:
//   ORIGIN: PATH: missing (expected E)          ORIGIN: PATH: found T (expected E)
//   ORIGIN: PATH: V is out of range (expected E) ORIGIN: PATH: unknown key (expected one of: K)
//   ORIGIN: PATH: 'V' (expected a, b or c)       ORIGIN: $: the file is empty / not a ShardLab file...
//   FILE: no such file / is a folder (expected E) / cannot be read (check its permissions)
//   unknown preset 'X' (expected one of: ...)
// and the common phrases of E and T ("a string", "an integer from 1 to 100", "a size: ...").
// Templates the catalogue defines: every other message of the file readers is an entry of
// readers.inc whose English is the template ("'{value}' is not a workload item"): error.says.* for
// what follows "ORIGIN: PATH: " (or a bare "PATH: "), error.line.* for a whole line, error.expects.*
// for what "(expected ...)" names; adding the entry is all a new message needs. A line
// that fits no template, or a phrase the catalogue lacks, stays as the engine wrote it (English):
// the test of every template (tests/engine/test_error_wording.cpp) fails when the English changes
// under it.
#pragma once

#include "shardlab/text/message.h"

#include <string>

namespace shardlab {

// The error as a Message: one piece per line, each worded where its template is known, else verbatim.
Message errorMessage(const std::string& englishError);
// A part of a machine's name or source as the presets and the scaling write it ("NVIDIA H200
// datasheet (141 GB, ...)", "as teaching-4x16gb-pcie"), matched against the topo.source.* entries of
// topo.inc as errorMessage() matches errors; verbatim where none fits.
Message machineSourceMessage(const std::string& englishPart);
// How a run was launched, as result files and streams keep it in English ("simulation", "single
// process", "Open MPI (mpirun), 8 processes on 2 hosts"), matched against the launch.* and
// placement.launch.* entries of topo.inc; verbatim where none fits.
Message launchMessageOf(const std::string& englishLaunch);
// What nlohmann-json's parser said ("syntax error while parsing object key - unexpected '}';
// expected string literal"): another library's English, worded part by part by the error.parser.*
// entries; verbatim where a part fits none.
Message parserMessage(const std::string& text);
// The system's reason (strerror, dlerror: "No space left on device") as a value named {why}: the
// error.why.* entries where one fits, else verbatim.
Message systemWords(const std::string& text);
// The same, worded: render(errorMessage(text), language). English gives `englishError` back unchanged.
std::string wordedError(const std::string& englishError, Language language);

} // namespace shardlab

#include "cli.h"
#include "progress.h"

#ifdef SHARDLAB_HAVE_REPORT_PDF
#include "report_pdf.h"
#endif

#include <iostream>

#include <unistd.h>

int main(int argc, char** argv)
{
#ifdef SHARDLAB_HAVE_REPORT_PDF
    shardlab::cli::setPdfReportWriter(&shardlab::reportqt::writeLabReportPdf);
#endif
    // progress of long runs on standard error, rewritten in place on a terminal
    shardlab::cli::setProgressOutput({&std::cerr, isatty(STDERR_FILENO) == 1, {}});
    shardlab::cli::setOutputIsProcessStdout(true);
    std::vector<std::string> args(argv + 1, argv + argc);
    return shardlab::cli::runCli(args, std::cout, std::cerr);
}

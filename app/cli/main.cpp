#include "cli.h"

#ifdef SHARDLAB_HAVE_REPORT_PDF
#include "report_pdf.h"
#endif

#include <iostream>

int main(int argc, char** argv)
{
#ifdef SHARDLAB_HAVE_REPORT_PDF
    shardlab::cli::setPdfReportWriter(&shardlab::reportqt::writeLabReportPdf);
#endif
    std::vector<std::string> args(argv + 1, argv + argc);
    return shardlab::cli::runCli(args, std::cout, std::cerr);
}

// Includes QCustomPlot. Its 2.1 header expands Qt's `foreach` inside two templates, which
// QT_NO_FOREACH (our build-wide setting) removes; a range-for stands in for it while the header
// is read, and nothing else sees it.
#pragma once

#include <QtGlobal>

#if defined(QT_NO_FOREACH) && !defined(foreach)
#define SHARDLAB_QCP_LOCAL_FOREACH
#define foreach(variable, container) for (variable : container)
#endif
#include <qcustomplot.h>
#ifdef SHARDLAB_QCP_LOCAL_FOREACH
#undef foreach
#undef SHARDLAB_QCP_LOCAL_FOREACH
#endif

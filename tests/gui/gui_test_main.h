// The main() of each QtTest file in tests/gui/, as a function of the one program they form
// (shardlab_gui_tests: tests/gui/CMakeLists.txt lists the files and writes the main() that calls
// the one named on the command line). SHARDLAB_GUI_TEST_MAIN is QTEST_MAIN under the name
// shardlabGuiTest_<file>; a file with its own set-up defines that function itself.
#pragma once

#include <QApplication>
#include <QtTest>

#define SHARDLAB_GUI_TEST_RUN(TestObject)                                                                              \
    TestObject tc;                                                                                                     \
    return QTest::qExec(&tc, argc, argv);

// QTEST_MAIN: a QApplication (96 dpi, as QtTest sets it)
#define SHARDLAB_GUI_TEST_MAIN(file, TestObject)                                                                       \
    int shardlabGuiTest_##file(int argc, char** argv)                                                                  \
    {                                                                                                                  \
        QApplication app(argc, argv);                                                                                  \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                                       \
        SHARDLAB_GUI_TEST_RUN(TestObject)                                                                              \
    }

// QTEST_GUILESS_MAIN: a QCoreApplication
#define SHARDLAB_GUI_TEST_GUILESS_MAIN(file, TestObject)                                                               \
    int shardlabGuiTest_##file(int argc, char** argv)                                                                  \
    {                                                                                                                  \
        QCoreApplication app(argc, argv);                                                                              \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                                       \
        SHARDLAB_GUI_TEST_RUN(TestObject)                                                                              \
    }

// QTEST_APPLESS_MAIN: no application object
#define SHARDLAB_GUI_TEST_APPLESS_MAIN(file, TestObject)                                                               \
    int shardlabGuiTest_##file(int argc, char** argv) { SHARDLAB_GUI_TEST_RUN(TestObject) }

// An sshd of the test's own on 127.0.0.1: a free port, throw-away host and user keys made by
// ssh-keygen in a temporary folder, its own sshd_config (no PAM, no strict modes, root allowed:
// CI runs as root), started with -D -e and ready once it says it listens (no sleeps). The remote
// runs' "remote machine" is this one, through the real ssh client. Skipped with a message where
// OpenSSH's server is missing (Debian: openssh-server).
#pragma once

#include "../common/free_port.h"
#include "remote/remotetarget.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace shardlab::test {

class LocalSshd {
public:
    ~LocalSshd()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.terminate();
            if (!m_sshd.waitForFinished(10000))
                m_sshd.kill();
            m_sshd.waitForFinished(10000);
        }
    }

    // Starts it; false with the reason in `why` (a skip where OpenSSH is missing).
    bool start(QString* why)
    {
        const QStringList sbin{QStringLiteral("/usr/sbin"), QStringLiteral("/usr/local/sbin"), QStringLiteral("/sbin")};
        const QString sshd = QStandardPaths::findExecutable(QStringLiteral("sshd"), sbin);
        const QString keygen = QStandardPaths::findExecutable(QStringLiteral("ssh-keygen"));
        if (sshd.isEmpty() || keygen.isEmpty() || QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty()) {
            *why = QStringLiteral("OpenSSH's sshd, ssh or ssh-keygen is not installed (Debian: openssh-server "
                                  "openssh-client): the remote-run tests need them");
            return false;
        }
        if (!m_dir.isValid()) {
            *why = QStringLiteral("no temporary folder");
            return false;
        }
        for (const char* key : {"host_key", "user_key", "wrong_key"})
            if (QProcess::execute(keygen, {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
                                           QStringLiteral("-N"), QString(), QStringLiteral("-f"), path(key)})
                != 0) {
                *why = QStringLiteral("ssh-keygen failed");
                return false;
            }
        QFile::copy(path("user_key.pub"), path("authorized_keys"));
        if (geteuid() == 0) // sshd refuses to start without its privilege-separation folder
            ::mkdir("/run/sshd", 0755);
        m_port = freeLocalPort();
        QFile config(path("sshd_config"));
        if (!config.open(QIODevice::WriteOnly))
            return false;
        config.write(QStringLiteral("Port %1\nListenAddress 127.0.0.1\nHostKey %2\nAuthorizedKeysFile %3\nPidFile %4\n"
                                    "UsePAM no\nStrictModes no\nPermitRootLogin yes\nPasswordAuthentication no\n"
                                    "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\nLogLevel INFO\n")
                         .arg(m_port)
                         .arg(path("host_key"), path("authorized_keys"), path("sshd.pid"))
                         .toUtf8());
        config.close();
        m_sshd.setProcessChannelMode(QProcess::MergedChannels);
        m_sshd.start(sshd, {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), path("sshd_config")});
        QByteArray said;
        // ready when it says so: "Server listening on 127.0.0.1 port N."
        while (!said.contains("Server listening")) {
            if (!m_sshd.waitForReadyRead(30000)) {
                *why = QStringLiteral("sshd did not start: ") + QString::fromUtf8(said + m_sshd.readAll());
                return false;
            }
            said += m_sshd.readAll();
        }
        return true;
    }

    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }
    int port() const { return m_port; }
    static QString user()
    {
        const passwd* pw = getpwuid(geteuid());
        return pw ? QString::fromLocal8Bit(pw->pw_name) : QStringLiteral("root");
    }

    // A target on this sshd running `command`, with the right key or the wrong one.
    shardlab::gui::RemoteTarget target(const QString& command, bool wrongKey = false, int port = 0) const
    {
        shardlab::gui::RemoteTarget t;
        t.host = user() + QStringLiteral("@127.0.0.1");
        t.port = port > 0 ? port : m_port;
        t.command = command;
        t.sshOptions = {QStringLiteral("-F"), QStringLiteral("/dev/null"),
                        QStringLiteral("-i"), path(wrongKey ? "wrong_key" : "user_key"),
                        QStringLiteral("-o"), QStringLiteral("IdentitiesOnly=yes"),
                        QStringLiteral("-o"), QStringLiteral("IdentityAgent=none"),
                        QStringLiteral("-o"), QStringLiteral("StrictHostKeyChecking=no"),
                        QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=/dev/null"),
                        QStringLiteral("-o"), QStringLiteral("LogLevel=ERROR")};
        return t;
    }

private:
    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
};

} // namespace shardlab::test

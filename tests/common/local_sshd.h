// An sshd of the test's own on 127.0.0.1, without Qt (the command line's tests; the GUI's
// sshd_fixture.h does the same with QProcess): a free port, throw-away host and user keys made by
// ssh-keygen in a temporary folder, its own sshd_config (no PAM, no strict modes, root allowed: CI
// runs as root), started with -D -e and ready once it says it listens (no sleeps), and an ssh
// config file whose Host alias reaches it with the user key. start() says why where OpenSSH's
// server is missing (Debian: openssh-server), for a skip.
#pragma once

#include "free_port.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace shardlab::test {

class PlainLocalSshd {
public:
    static constexpr const char* kAlias = "shardlab-test-sshd";

    ~PlainLocalSshd()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGTERM);
            int status = 0;
            ::waitpid(m_pid, &status, 0);
        }
        if (m_log)
            std::fclose(m_log);
        std::error_code ec;
        if (!m_dir.empty())
            std::filesystem::remove_all(m_dir, ec);
    }

    // Starts it; false with the reason in `why`.
    bool start(std::string* why)
    {
        const std::string sshd = find({"/usr/sbin/sshd", "/usr/local/sbin/sshd", "/sbin/sshd"});
        if (sshd.empty() || std::system("command -v ssh >/dev/null && command -v ssh-keygen >/dev/null") != 0) {
            *why = "OpenSSH's sshd, ssh or ssh-keygen is not installed (Debian: openssh-server openssh-client): the "
                   "remote-run tests need them";
            return false;
        }
        char tmpl[] = "/tmp/shardlab-sshd-XXXXXX";
        if (!::mkdtemp(tmpl)) {
            *why = "no temporary folder";
            return false;
        }
        m_dir = tmpl;
        for (const char* key : {"host_key", "user_key"})
            if (std::system(("ssh-keygen -q -t ed25519 -N '' -f " + path(key) + " </dev/null >/dev/null").c_str())
                != 0) {
                *why = "ssh-keygen failed";
                return false;
            }
        std::filesystem::copy_file(path("user_key.pub"), path("authorized_keys"));
        if (::geteuid() == 0) // sshd refuses to start without its privilege-separation folder
            ::mkdir("/run/sshd", 0755);
        m_port = freeLocalPort();
        std::ofstream(path("sshd_config"))
            << "Port " << m_port << "\nListenAddress 127.0.0.1\nHostKey " << path("host_key") << "\nAuthorizedKeysFile "
            << path("authorized_keys") << "\nPidFile " << path("sshd.pid")
            << "\nUsePAM no\nStrictModes no\nPermitRootLogin yes\nPasswordAuthentication no\n"
               "KbdInteractiveAuthentication no\nPubkeyAuthentication yes\nLogLevel INFO\n";
        std::ofstream(path("ssh_config"))
            << "Host " << kAlias << "\n  HostName 127.0.0.1\n  Port " << m_port << "\n  User " << user()
            << "\n  IdentityFile " << path("user_key")
            << "\n  IdentitiesOnly yes\n  IdentityAgent none\n  StrictHostKeyChecking no\n"
               "  UserKnownHostsFile /dev/null\n  LogLevel ERROR\n";
        int out[2];
        if (::pipe(out) != 0)
            return false;
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(out[1], STDERR_FILENO);
            ::dup2(out[1], STDOUT_FILENO);
            ::close(out[0]);
            ::execl(sshd.c_str(), sshd.c_str(), "-D", "-e", "-f", path("sshd_config").c_str(),
                    static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::close(out[1]);
        m_log = ::fdopen(out[0], "r");
        // ready when it says so: "Server listening on 127.0.0.1 port N."
        std::string said;
        char line[1024];
        while (std::fgets(line, sizeof line, m_log)) {
            said += line;
            if (said.find("Server listening") != std::string::npos)
                return true;
        }
        *why = "sshd did not start: " + said;
        return false;
    }

    std::string path(const char* name) const { return m_dir + "/" + name; }
    int port() const { return m_port; }
    static std::string user()
    {
        const passwd* pw = ::getpwuid(::geteuid());
        return pw ? pw->pw_name : "root";
    }

private:
    static std::string find(std::initializer_list<const char*> candidates)
    {
        for (const char* c : candidates)
            if (::access(c, X_OK) == 0)
                return c;
        return {};
    }

    std::string m_dir;
    pid_t m_pid = -1;
    FILE* m_log = nullptr;
    int m_port = 0;
};

} // namespace shardlab::test

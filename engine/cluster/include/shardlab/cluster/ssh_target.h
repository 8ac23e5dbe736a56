// Where a remote run goes and the `ssh` command line that takes it there, for the app's Run > Live
// on… and the command line's `--on` (docs/remote.md). The system's OpenSSH client does
// authentication and transport; what ShardLab adds is a destination, a port, a jump host, a config
// file and one remote command, and each of them is checked here, on exactly the text that is used
// (nothing is trimmed or changed after the check), before any ssh starts:
//  * the host and the users are names of ASCII letters, digits, '.', '-' and '_' (or an IPv6
//    address in brackets), so that no space of any kind (U+00A0, U+3000, U+2028...), no '%' token
//    of ssh_config and no shell character reaches ssh;
//  * no field begins with '-', and `--` ends ssh's options before the destination, so that nothing
//    typed can be read by ssh as an option (`-oProxyCommand=...`, `-E FILE`);
//  * the remote command's words are quoted for the remote shell (POSIX single quotes) where they are
//    built from fields (the remote ShardLab's path, a launcher), and no command holds a control
//    character, an invisible character or a space other than U+0020.
#pragma once

#include "shardlab/base/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shardlab {

// [USER@]HOST[:PORT]
struct SshDestination {
    std::string user; // "": ssh's choice (~/.ssh/config's User, else the local user)
    std::string host; // an alias of ~/.ssh/config, a host name, an IPv4 or IPv6 address (without brackets)
    int port = 0;     // 0: ssh's choice (the alias's Port, else 22)
};

// Which field is read: the messages name it ("the host", "the jump host's user").
enum class SshRole { Destination, Jump };

// "[USER@]HOST[:PORT]" exactly as given (an IPv6 address in brackets: "alice@[fe80::1]:2222");
// `allowPort` false: the port is given elsewhere (the app's port field) and ':' is refused.
Result<SshDestination> parseSshDestination(std::string_view text, SshRole role = SshRole::Destination,
                                           bool allowPort = true);
// "alice@gpu1:2222", as parseSshDestination() reads it back.
std::string sshDestinationText(const SshDestination& destination);

struct SshTarget {
    SshDestination destination;
    std::optional<SshDestination> jump; // -J
    std::string configFile;             // -F FILE; "": ssh's own (~/.ssh/config)
    // More options before the destination, given by the program itself (tests: -i KEY), never
    // typed by a user: not checked.
    std::vector<std::string> programOptions;
};

// ssh's arguments (after the program's name) that run `remoteCommand` on `target`:
//   -o BatchMode=yes -o ConnectTimeout=20 -o ServerAliveInterval=15 -T [-p PORT] [-J JUMP]
//   [-F FILE] [program options] -- [USER@]HOST REMOTE_COMMAND
// Every field is checked first; the first problem is the error (BadInput), naming the field.
Result<std::vector<std::string>> sshArguments(const SshTarget& target, const std::string& remoteCommand);

// A command typed whole (the app's "Command there"): not empty, not beginning with '-' or a space,
// without control or invisible characters or spaces other than U+0020. It is the user's own
// command for the remote shell, run as typed.
Status checkRemoteCommand(std::string_view command);

// One word for a POSIX shell: unchanged when it has only ASCII letters, digits and _ . / -, else in
// single quotes with each ' written '\'' ("my folder" -> 'my folder', "it's" -> 'it'\''s',
// "A=b" -> 'A=b', which is then a word and not an assignment; "" -> '').
std::string shellQuoted(std::string_view word);

// The command run there: the launcher's words (split at spaces: "srun -N1 --gpus-per-node=8"),
// the remote ShardLab, then `args`, each word quoted. The launcher and the ShardLab path are
// checked as the remote command is (not beginning with '-'; no control or invisible characters).
struct RemoteProgram {
    std::string shardlab = "shardlab"; // the path of `shardlab` there (relative to the home folder, or absolute)
    std::string launcher;              // "" or "srun -N1 --gpus-per-node=8", "mpirun -np 4"
};
Result<std::string> remoteCommandLine(const RemoteProgram& program, const std::vector<std::string>& args);

} // namespace shardlab

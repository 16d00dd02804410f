#define _GNU_SOURCE
#include "CProcess.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* Forks and execs. In the child: a process group of its own when asked, killed with the
 * spawning thread's process (PR_SET_PDEATHSIG), the given descriptors as stdin/stdout/stderr
 * (-1: /dev/null for stdin, inherited for the others), nothing else inherited. */
static pid_t spawn(const char *file, const char *const argv[], const char *const envp[], const char *cwd, int new_group,
                   int in_fd, int out_fd, int err_fd) {
    pid_t parent = getpid();
    int error_pipe[2];
    if (pipe2(error_pipe, O_CLOEXEC) != 0) return -1;

    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(error_pipe[0]);
        close(error_pipe[1]);
        errno = saved;
        return -1;
    }
    if (pid == 0) {
        /* Only async-signal-safe calls from here to exec. */
        close(error_pipe[0]);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_DFL);
        if (new_group) setpgid(0, 0);
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
        if (in_fd < 0) in_fd = open("/dev/null", O_RDONLY);
        if (in_fd >= 0) dup2(in_fd, STDIN_FILENO);
        if (out_fd >= 0) dup2(out_fd, STDOUT_FILENO);
        if (err_fd >= 0) dup2(err_fd, STDERR_FILENO);
        /* Nothing else the parent has open (pipes to other children, its X and D-Bus
         * connections, the database) may leak into the child: a leaked pipe end keeps
         * another child's output from ever ending. */
        if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
            long limit = sysconf(_SC_OPEN_MAX);
            if (limit < 0 || limit > 65536) limit = 65536;
            for (int fd = 3; fd < limit; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
        }
        if (cwd != NULL && chdir(cwd) != 0) {
            int chdir_errno = errno;
            ssize_t ignored = write(error_pipe[1], &chdir_errno, sizeof chdir_errno);
            (void)ignored;
            _exit(127);
        }
        if (envp != NULL) execvpe(file, (char *const *)argv, (char *const *)envp); else execv(file, (char *const *)argv);
        int exec_errno = errno;
        ssize_t ignored = write(error_pipe[1], &exec_errno, sizeof exec_errno);
        (void)ignored;
        _exit(127);
    }
    close(error_pipe[1]);
    int child_errno = 0;
    ssize_t got;
    do {
        got = read(error_pipe[0], &child_errno, sizeof child_errno);
    } while (got < 0 && errno == EINTR);
    close(error_pipe[0]);
    if (got == (ssize_t)sizeof child_errno) {
        /* exec failed: reap the child and report why. */
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        errno = child_errno;
        return -1;
    }
    return pid;
}

pid_t agent_spawn_tied_child(const char *path, const char *const argv[], int output_fd) {
    return spawn(path, argv, NULL, NULL, 0, -1, output_fd, output_fd);
}

pid_t agent_spawn_piped_child(const char *file, const char *const argv[], const char *const envp[], const char *cwd,
                              int *stdin_fd, int *stdout_fd, int *stderr_fd) {
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0) return -1;
    if (pipe2(out, O_CLOEXEC) != 0) { close(in[0]); close(in[1]); return -1; }
    if (pipe2(err, O_CLOEXEC) != 0) { close(in[0]); close(in[1]); close(out[0]); close(out[1]); return -1; }
    pid_t pid = spawn(file, argv, envp, cwd, 1, in[0], out[1], err[1]);
    int saved = errno;
    close(in[0]);
    close(out[1]);
    close(err[1]);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        close(err[0]);
        errno = saved;
        return -1;
    }
    *stdin_fd = in[1];
    *stdout_fd = out[0];
    *stderr_fd = err[0];
    return pid;
}

int agent_free_loopback_port(void) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    int port = 0;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) == 0 &&
        getsockname(fd, (struct sockaddr *)&address, &length) == 0) {
        port = ntohs(address.sin_port);
    }
    close(fd);
    return port;
}

int agent_pidfd_open(pid_t pid) {
    return pidfd_open(pid, 0);
}

int agent_cloexec_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

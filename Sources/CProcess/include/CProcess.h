/* Process helpers that need to run between fork and exec, where Swift code must not. */
#ifndef AGENT_CPROCESS_H
#define AGENT_CPROCESS_H

#include <sys/types.h>

/* Starts `path` with `argv` (NULL-terminated) so that it is killed when the calling
 * thread's process dies, even by SIGKILL (PR_SET_PDEATHSIG). stdout and stderr go to
 * `output_fd` (or stay inherited when it is -1); stdin is /dev/null.
 * Returns the child's pid, or -1 with errno set. Call it from a thread that lives as
 * long as the process (the main thread): the signal fires when the spawning thread exits. */
pid_t agent_spawn_tied_child(const char *path, const char *const argv[], int output_fd);

/* Starts `file` (looked up in PATH) with `argv` and the environment `envp` in `cwd` (NULL:
 * this process's), in a process group of its own (so the whole group can be signalled:
 * launchers such as npx and uvx start grandchildren), tied to this process's life as
 * agent_spawn_tied_child is. Its stdin, stdout and stderr are pipes whose other ends
 * (close-on-exec) are returned. Returns the pid, or -1 with errno set (exec or chdir failed). */
pid_t agent_spawn_piped_child(const char *file, const char *const argv[], const char *const envp[], const char *cwd,
                              int *stdin_fd, int *stdout_fd, int *stderr_fd);

/* Asks the kernel for a free TCP port on 127.0.0.1; returns 0 on failure. */
int agent_free_loopback_port(void);

/* A descriptor that becomes readable when process `pid` exits (pidfd_open), or -1. */
int agent_pidfd_open(pid_t pid);

/* pipe2 with O_CLOEXEC: 0, or -1 with errno set. */
int agent_cloexec_pipe(int fds[2]);

#endif

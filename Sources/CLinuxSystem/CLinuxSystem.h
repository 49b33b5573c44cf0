#ifndef CLINUXSYSTEM_H
#define CLINUXSYSTEM_H
// The glibc functions the tool, LessonKit and the tests call that Swift's `Glibc` module leaves out: Linux's own calls
// and glibc's extensions of POSIX. Nothing here is compiled or linked; each is glibc's own function.
//
// glibc declares most of them only for a program that defines _GNU_SOURCE, and defining it here would not do: it
// renames members of structures Glibc defines too (fd_set's `__fds_bits` becomes `fds_bits`), and clang refuses one
// structure defined two ways in two modules. So the headers are read as Glibc reads them, and what they would declare
// under _GNU_SOURCE is declared below as glibc's headers declare it; clang checks each against any other declaration
// it sees.
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>      // pidfd_open (2.36)
#include <sys/prctl.h>      // prctl, PR_SET_PDEATHSIG
#include <sys/statfs.h>     // statfs
#include <unistd.h>

// <sched.h>: the CPUs a thread may run on; pid 0 is the calling thread.
extern int sched_getaffinity(pid_t pid, size_t cpusetsize, cpu_set_t *cpuset);
extern int sched_setaffinity(pid_t pid, size_t cpusetsize, const cpu_set_t *cpuset);

// <unistd.h>
extern int pipe2(int pipedes[2], int flags);
extern pid_t gettid(void);
extern ssize_t copy_file_range(int infd, __off64_t *pinoff, int outfd, __off64_t *poutoff, size_t length, unsigned int flags);

// <string.h>
extern void *memmem(const void *haystack, size_t haystacklen, const void *needle, size_t needlelen);

// <pthread.h>
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attr);

// <stdlib.h>: pseudo-terminals.
extern int posix_openpt(int oflag);
extern int grantpt(int fd);
extern int unlockpt(int fd);
extern int ptsname_r(int fd, char *buf, size_t buflen);

// <spawn.h>: the child closes every descriptor from `from` up (2.34), and starts a session of its own (2.26).
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
#ifndef POSIX_SPAWN_SETSID
#define POSIX_SPAWN_SETSID 0x80
#endif

// <sys/prctl.h>: `prctl` takes its arguments as C varargs, which Swift cannot call.
static inline int clinux_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
#endif

/* rss_probe.c - run a command (its stdout and stderr pass through), then
 * print "rss-probe: STATUS KIB" on stderr: its exit status and its peak
 * resident set size in KiB.
 *
 * A probe written in Python would count the interpreter too: a forked
 * child's peak before exec() stays in its rusage.  This one is small, so
 * what it reports is headlab's own peak. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: rss-probe COMMAND [ARG...]\n", stderr);
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("rss-probe: fork");
		return 1;
	}
	if (pid == 0) {
		execv(argv[1], argv + 1);
		perror("rss-probe: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("rss-probe: wait4");
		return 1;
	}
	fprintf(stderr, "rss-probe: %d %ld\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128,
	        ru.ru_maxrss);
	return 0;
}

/* export_files.c - an export on disk: which directories headlab may write
 * into, files that appear whole or not at all, and nothing left behind
 * when a signal ends the run.
 *
 * A directory headlab exports into holds a manifest, headlab-manifest.txt,
 * listing every file an export wrote there.  An export goes into a missing
 * or empty directory, or into one with a manifest; it never replaces a
 * file the manifest does not list, so a user's own files are safe.  The
 * manifest is written before the files (so an interrupted export can be
 * run again), index.md last (so an export without index.md is partial). */
#include "export.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "export_anim.h"
#include "message.h"
#include "utf8.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define EXPORT_MANIFEST_HEAD "# headlab export: files headlab wrote here; it replaces only these\n"
#define EXPORT_MANIFEST_MAX (1 << 20)   /* bytes: far more than any walk's names */

/* The temporary file being written, for a signal handler to remove:
 * export_tmp_live is set only while export_tmp_name names a file that
 * exists in the directory export_tmp_dir, and they change with the signals
 * below blocked. */
static char export_tmp_name[NAME_MAX + 1];
static int export_tmp_dir = -1;
static volatile sig_atomic_t export_tmp_live;
static const int export_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Remove the temporary being written, then die by the same signal. */
static void
export_on_signal(int sig)
{
	if (export_tmp_live)
		(void)unlinkat(export_tmp_dir, export_tmp_name, 0);
	export_tmp_live = 0;
	(void)raise(sig);       /* delivered on return: SA_RESETHAND restored the default */
}

void
export_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = export_on_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof export_signals / sizeof export_signals[0]; i++) {
		struct sigaction old;

		/* a signal the caller ignores (nohup) stays ignored */
		if (sigaction(export_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			(void)sigaction(export_signals[i], &sa, NULL);
	}
}

/* Block (block true) or restore the signals export_catch_signals handles. */
static void
export_block(bool block, sigset_t *saved)
{
	sigset_t set;

	if (!block) {
		(void)sigprocmask(SIG_SETMASK, saved, NULL);
		return;
	}
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof export_signals / sizeof export_signals[0]; i++)
		sigaddset(&set, export_signals[i]);
	(void)sigprocmask(SIG_BLOCK, &set, saved);
}

/* ------------------------------------------------------------ names --- */

/* A list of file names, owned. */
struct export_names {
	char **v;
	size_t n, cap;
};

static void
export_names_free(struct export_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

static bool
export_names_has(const struct export_names *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], name) == 0)
			return true;
	return false;
}

/* Add name unless it is there; false when memory ran out. */
static bool
export_names_add(struct export_names *l, const char *name)
{
	if (export_names_has(l, name))
		return true;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		char **grown = realloc(l->v, cap * sizeof *grown);

		if (grown == NULL)
			return false;
		l->v = grown;
		l->cap = cap;
	}
	l->v[l->n] = strdup(name);
	return l->v[l->n++] != NULL;
}

/* ------------------------------------------------------------ paths --- */

/* "dir/prefixname", without doubling a slash dir ends with; false (with
 * errno ENAMETOOLONG) when it does not fit. */
static bool
export_path(char *buf, size_t size, const char *dir, const char *prefix, const char *name,
            const char *suffix)
{
	size_t len = strlen(dir);
	int n = snprintf(buf, size, "%s%s%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/",
	                 prefix, name, suffix);

	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return false;
	}
	return true;
}

/* Create dir unless it exists, then open it once, never through a
 * symbolic link: every file of the export is written relative to the
 * descriptor, so swapping the path for a link halfway changes nothing.
 * The descriptor, or -1 with err. */
static int
export_open_dir(const char *dir, bool *created, char *err, size_t errsize, char *said,
                size_t saidsize)
{
	struct stat st;
	int fd, e;

	*created = false;
	if (mkdir(dir, 0777) == 0)
		*created = true;
	else if (errno != EEXIST) {
		snprintf(err, errsize, "cannot create directory %s: %s", dir, strerror(errno));
		return -1;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	e = errno;
	/* Linux says ENOTDIR, others ELOOP, for a link with both flags */
	if (e == ELOOP || (e == ENOTDIR && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)))
		snprintf(err, errsize, "cannot export to %s: it is a symbolic link, and headlab does not "
		         "export through links; give the directory itself", dir);
	else if (e == ENOTDIR)
		message_say(err, errsize, said, saidsize, "msg.export.notdir",
		            "cannot export to %s: it is not a directory", dir);
	else
		snprintf(err, errsize, "cannot export to %s: %s", dir, strerror(e));
	return -1;
}

/* ------------------------------------------------------- manifest --- */

/* The names dir's manifest lists, into l; false when dir has no manifest
 * of ours (missing, not a regular file, too large, another header). */
static bool
export_manifest_read(int dfd, struct export_names *l)
{
	char *data, *line;
	struct stat st;
	ssize_t got;
	bool ours;
	int fd;

	fd = openat(dfd, EXPORT_MANIFEST, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > EXPORT_MANIFEST_MAX ||
	    (data = malloc((size_t)st.st_size + 1)) == NULL) {
		close(fd);
		return false;
	}
	got = read(fd, data, (size_t)st.st_size);
	close(fd);
	data[got > 0 ? got : 0] = '\0';
	ours = strncmp(data, EXPORT_MANIFEST_HEAD, strlen(EXPORT_MANIFEST_HEAD)) == 0;
	for (line = data; ours && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (*line != '#' && *line != '\0' && !strchr(line, '/'))
			ours = export_names_add(l, line);
		line = nl ? nl + 1 : line + strlen(line);
	}
	free(data);
	return ours;
}

/* The first entry of dir other than "." and "..", into buf; false when
 * there is none (or dir cannot be listed: then writing will say why). */
static bool
export_first_entry(int dfd, char *buf, size_t size)
{
	int fd = dup(dfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	bool found = false;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	rewinddir(d);
	while (!found && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(buf, size, "%s", e->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

/* Whether the export of names may go into dir, with the manifest's names
 * in *known; false with a message that says how to go on. */
static bool
export_may_write(const char *dir, int dfd, const struct export_names *names,
                 struct export_names *known, char *err, size_t errsize, char *said,
                 size_t saidsize)
{
	char entry[256];
	struct stat st;

	if (!export_manifest_read(dfd, known)) {
		export_names_free(known);
		if (!export_first_entry(dfd, entry, sizeof entry))
			return true;
		message_say(err, errsize, said, saidsize, "msg.export.full", "cannot export to %s: it is "
		            "not empty and not an earlier headlab export (it holds %s); choose a new or "
		            "empty directory", dir, entry);
		return false;
	}
	for (size_t i = 0; i < names->n; i++) {
		if (export_names_has(known, names->v[i]) ||
		    fstatat(dfd, names->v[i], &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		message_say(err, errsize, said, saidsize, "msg.export.foreign", "cannot export to %s: %s "
		            "is not from an earlier headlab export; move it away or choose another "
		            "directory", dir, names->v[i]);
		return false;
	}
	return true;
}

/* ---------------------------------------------------------- write --- */

/* A new file ".name.XXXXXX" in dfd (its name in export_tmp_name), created
 * with O_EXCL and never through a link, as mkstemp does it but relative to
 * the directory; -1 with errno.  Called with the signals blocked. */
static int
export_tmp_create(int dfd, const char *name)
{
	static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
	static unsigned long seq;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	export_tmp_dir = dfd;
	for (int tries = 0; tries < 1000; tries++) {
		unsigned long r = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^
		                  (++seq * 2654435761UL);
		char tail[7];
		int fd;

		for (int i = 0; i < 6; i++, r /= 36)
			tail[i] = digits[r % 36];
		tail[6] = '\0';
		snprintf(export_tmp_name, sizeof export_tmp_name, ".%s.%s", name, tail);
		fd = openat(dfd, export_tmp_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

/* Make name's content in dir appear whole or not at all: written to a
 * temporary file beside it, synced, given the usual permissions, renamed
 * over it.  Every failure, and a signal export_catch_signals handles,
 * removes the temporary. */
static bool
export_write(const char *dir, int dfd, const char *name, const char *data, size_t len, char *err,
             size_t errsize)
{
	char path[PATH_MAX];
	sigset_t saved;
	mode_t mask;
	int fd = -1, e;

	if (!export_path(path, sizeof path, dir, "", name, "") ||
	    strlen(name) + 9 > sizeof export_tmp_name) {
		snprintf(err, errsize, "cannot write %s/%s: %s", dir, name, strerror(ENAMETOOLONG));
		return false;
	}
	export_block(true, &saved);
	fd = export_tmp_create(dfd, name);
	e = errno;
	export_tmp_live = fd >= 0;
	export_block(false, &saved);
	if (fd < 0) {
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(e));
		return false;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0)
		goto fail;
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			goto fail;
		}
		data += n;
		len -= (size_t)n;
	}
	if (fsync(fd) != 0)
		goto fail;
	e = close(fd);
	fd = -1;
	if (e != 0)
		goto fail;
	export_block(true, &saved);
	e = renameat(dfd, export_tmp_name, dfd, name) == 0 ? 0 : errno;
	export_tmp_live = e != 0;
	export_block(false, &saved);
	if (e == 0)
		return true;
	errno = e;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	export_block(true, &saved);
	unlinkat(dfd, export_tmp_name, 0);
	export_tmp_live = 0;
	export_block(false, &saved);
	snprintf(err, errsize, "cannot write %s: %s", path, strerror(e));
	return false;
}

/* Sync dir so the renames survive a crash; best effort, as some file
 * systems cannot sync a directory and the files themselves are whole. */
static void
export_sync_dir(int dfd)
{
	(void)fsync(dfd);
}

/* Write the manifest: what it listed before and names. */
static bool
export_manifest_write(const char *dir, int dfd, const struct export_names *known,
                      const struct export_names *names, char *err, size_t errsize)
{
	char *data = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&data, &len);
	bool ok;

	if (mem == NULL) {
		snprintf(err, errsize, "cannot write %s/%s: %s", dir, EXPORT_MANIFEST, strerror(errno));
		return false;
	}
	fputs(EXPORT_MANIFEST_HEAD, mem);
	for (size_t i = 0; i < known->n; i++)
		fprintf(mem, "%s\n", known->v[i]);
	for (size_t i = 0; i < names->n; i++)
		if (!export_names_has(known, names->v[i]))
			fprintf(mem, "%s\n", names->v[i]);
	ok = fclose(mem) == 0;
	if (!ok) {
		snprintf(err, errsize, "cannot write %s/%s: out of memory", dir, EXPORT_MANIFEST);
		free(data);
		return false;
	}
	ok = export_write(dir, dfd, EXPORT_MANIFEST, data, len, err, errsize);
	free(data);
	return ok;
}

/* The files of the whole walk, written after the steps' and before
 * index.md: their names and how each is rendered. */
static const struct {
	const char *name;
	bool (*render)(FILE *out, const struct walk *w, const struct export_opts *o);
} export_walk_files[] = {
	{ "walk.svg", export_anim_render },
	{ "index.html", export_html_render },
};

#define EXPORT_WALK_FILES (int)(sizeof export_walk_files / sizeof export_walk_files[0])

/* Render step k in format fmt (index.md when fmt is -1, export_walk_files
 * row -2 - fmt below that) into memory, then write it to dir/name. */
static bool
export_file(const char *dir, int dfd, const char *name, const struct walk *w, int k, int fmt,
            const struct export_opts *o, char *err, size_t errsize)
{
	char *data = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&data, &len);
	bool ok;

	if (mem == NULL) {
		snprintf(err, errsize, "cannot write %s/%s: %s", dir, name, strerror(errno));
		return false;
	}
	if (fmt == -1)
		ok = export_render_index(mem, w);
	else if (fmt < -1)
		ok = export_walk_files[-2 - fmt].render(mem, w, o);
	else
		ok = export_render(mem, w, k, (enum export_format)fmt, o);
	if (fclose(mem) != 0)
		ok = false;
	if (!ok) {
		snprintf(err, errsize, "cannot write %s/%s: out of memory", dir, name);
		free(data);
		return false;
	}
	ok = export_write(dir, dfd, name, data, len, err, errsize);
	free(data);
	return ok;
}

/* Steps first to last (first < 0: none) and then index.md (index), each
 * step's files in format order, into dir, after checking that dir may
 * take them and writing the manifest.  The number of files written, or
 * -1 with err (sanitised: it quotes dir, which may hold anything) and said
 * (message.h; may be NULL). */
static int
export_run(const char *dir, const struct walk *w, int first, int last, bool index,
           const struct export_opts *o, char *err, size_t errsize, char *said, size_t saidsize)
{
	struct export_names names = { 0 }, known = { 0 };
	char name[96];
	bool created, ok = true;
	int total = 0, dfd;

	if (said && saidsize > 0)
		said[0] = '\0';
	dfd = export_open_dir(dir, &created, err, errsize, said, saidsize);

	if (dfd < 0)
		goto out;
	for (int k = first; ok && k >= 0 && k <= last; k++)
		for (int fmt = 0; ok && fmt < EXPORT_NFORMATS; fmt++) {
			export_file_name(name, sizeof name, w, k, (enum export_format)fmt);
			ok = export_names_add(&names, name);
		}
	for (int i = 0; ok && index && i < EXPORT_WALK_FILES; i++)
		ok = export_names_add(&names, export_walk_files[i].name);
	if (!ok || (index && !export_names_add(&names, "index.md"))) {
		snprintf(err, errsize, "cannot export to %s: out of memory", dir);
		goto out;
	}
	if (!export_may_write(dir, dfd, &names, &known, err, errsize, said, saidsize) ||
	    !export_manifest_write(dir, dfd, &known, &names, err, errsize))
		goto fail;
	/* an old index would make a partial export look whole */
	if (index)
		(void)unlinkat(dfd, "index.md", 0);
	for (int k = first; k >= 0 && k <= last; k++)
		for (int fmt = 0; fmt < EXPORT_NFORMATS; fmt++, total++) {
			export_file_name(name, sizeof name, w, k, (enum export_format)fmt);
			if (!export_file(dir, dfd, name, w, k, fmt, o, err, errsize))
				goto fail;
		}
	for (int i = 0; index && i < EXPORT_WALK_FILES; i++, total++)
		if (!export_file(dir, dfd, export_walk_files[i].name, w, 0, -2 - i, o, err, errsize))
			goto fail;
	if (index && !export_file(dir, dfd, "index.md", w, 0, -1, o, err, errsize))
		goto fail;
	export_sync_dir(dfd);
	close(dfd);
	export_names_free(&names);
	export_names_free(&known);
	return total + index;
fail:
	if (created && total == 0) {
		/* nothing but the manifest went in: leave no directory behind */
		(void)unlinkat(dfd, EXPORT_MANIFEST, 0);
		(void)rmdir(dir);
	}
	close(dfd);
out:
	export_names_free(&names);
	export_names_free(&known);
	utf8_sanitize(err, errsize, err, 0);
	/* a refusal with no key of its own is said as the command line says it */
	if (said && saidsize > 0 && said[0] == '\0')
		snprintf(said, saidsize, "%s", err);
	return -1;
}

int
export_step(const char *dir, const struct walk *w, int k, const struct export_opts *o,
            char *err, size_t errsize, char *said, size_t saidsize)
{
	if (k < 0 || k >= w->nsteps) {
		message_say(err, errsize, said, saidsize, NULL, "no step %d to export (the walk has %d)",
		            k + 1, w->nsteps);
		return -1;
	}
	return export_run(dir, w, k, k, false, o, err, errsize, said, saidsize);
}

int
export_walk(const char *dir, const struct walk *w, const struct export_opts *o, char *err,
            size_t errsize)
{
	return export_run(dir, w, 0, w->nsteps - 1, true, o, err, errsize, NULL, 0);
}

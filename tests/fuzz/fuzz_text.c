/* fuzz_text.c - the caption loader: the input is written to a file, loaded
 * with text_load_file, and every kind of lookup the lab makes is done on
 * it: plain strings, {B}-style numbers filled from a walk, and printf
 * formats vetted by text_fmt, which are then used with the English
 * format's arguments as tui.c uses them.  A vetted format that reads an
 * argument the English one does not pass crashes here.
 *
 * An input that starts with "\xffSPECIAL" and a digit is a special file
 * instead (a FIFO, a directory, a link to /dev/zero or /dev/null, a file
 * over the size limit): the loader must refuse it at once, with a reason. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bugs.h"
#include "fixture.h"
#include "fuzz.h"
#include "text.h"
#include "utf8.h"
#include "walk.h"

/* the formats come from the loaded file, checked by text_fmt */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static char fuzz_path[64];

/* The file's path; created once per process, in memory (/dev/shm) when
 * there is one: rewriting a file on disk thousands of times a second would
 * make the disk, not the loader, what is being measured. */
static const char *
fuzz_file(void)
{
	static const char *const dirs[] = { "/dev/shm", "/tmp" };

	for (size_t i = 0; fuzz_path[0] == '\0' && i < sizeof dirs / sizeof dirs[0]; i++) {
		int fd;

		snprintf(fuzz_path, sizeof fuzz_path, "%s/headlab-fuzz-text.XXXXXX", dirs[i]);
		fd = mkstemp(fuzz_path);
		if (fd < 0)
			fuzz_path[0] = '\0';
		else
			close(fd);
	}
	if (fuzz_path[0] == '\0')
		abort();
	return fuzz_path;
}

static void
fuzz_cleanup(void)
{
	if (fuzz_path[0])
		unlink(fuzz_path);
}

/* Make a special file of kind at path and load it; true when the input
 * was one (then it is done with). */
static bool
fuzz_special(const uint8_t *data, size_t size, const char *base)
{
	static const char mark[] = "\xffSPECIAL";
	char path[96], why[256] = "";
	bool loaded;
	int fd;

	if (size < sizeof mark || memcmp(data, mark, sizeof mark - 1) != 0)
		return false;
	snprintf(path, sizeof path, "%s.special", base);
	switch (data[sizeof mark - 1] % 5) {
	case 0: FUZZ_CHECK(mkfifo(path, 0600) == 0, "mkfifo"); break;
	case 1: FUZZ_CHECK(mkdir(path, 0700) == 0, "mkdir"); break;
	case 2: FUZZ_CHECK(symlink("/dev/zero", path) == 0, "symlink"); break;
	case 3: FUZZ_CHECK(symlink("/dev/null", path) == 0, "symlink"); break;
	default:
		/* sparse: over the limit without writing a megabyte */
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		FUZZ_CHECK(fd >= 0 && ftruncate(fd, (2 << 20) + (off_t)size) == 0, "sparse file");
		close(fd);
		break;
	}
	loaded = text_load_file(path, why, sizeof why);
	if (rmdir(path) != 0)
		unlink(path);
	FUZZ_CHECK(!loaded && (strstr(why, "not a regular file") || strstr(why, "too large")),
	           "a special caption file was not refused as one: %s", why);
	FUZZ_CHECK(fixture_utf8_safe(why), "unsafe reason: %s", why);
	return true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct walk w;
	static bool ready;
	char why[256], buf[512];
	const char *path = fuzz_file();
	FILE *f;

	if (!ready) {
		walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
		atexit(fuzz_cleanup);
		ready = true;
	}
	if (fuzz_special(data, size, path))
		return 0;
	f = fopen(path, "wb");
	if (f == NULL)
		abort();
	if (fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	why[0] = '\0';
	if (!text_load_file(path, why, sizeof why)) {
		FUZZ_CHECK(why[0] != '\0', "refused without a reason");
		return 0;
	}

	/* whatever the file held, what it gives is safe to show */
	FUZZ_CHECK(fixture_utf8_safe(text_get("ui.theme", "")), "unsafe value");
	FUZZ_CHECK(fixture_utf8_safe(text_get("caption.lesson.input", "")), "unsafe value");
	FUZZ_CHECK(fixture_utf8_safe(text_get("ui.hint", "")), "unsafe value");
	text_format(buf, sizeof buf, "caption.lesson.input", "{N} cells {B} {T} {D} {H} {d}", &w);
	text_format(buf, 8, "caption.lesson.split", "{D} into {H} heads of {d}", &w);
	text_format(buf, 1, "caption.lesson.swap", "{T}", &w);
	snprintf(buf, sizeof buf, text_fmt("ui.label", "label %lld: position %lld, head %lld"),
	         4LL, 1LL, 0LL);
	snprintf(buf, sizeof buf, text_fmt("ui.batch", ", batch %lld"), 0LL);
	snprintf(buf, sizeof buf, text_fmt("ui.here", "here at %s, storage offset %lld"),
	         "[0,1,0]", 4LL);
	snprintf(buf, sizeof buf, text_fmt("ui.ribbon", "storage %d%s  strides %s  offset %lld  %s"),
	         0, "", "(12, 4, 1)", 4LL, "view");
	snprintf(buf, sizeof buf, text_fmt("ui.num.scale", "scale       1/\u221ad = 1/\u221a%lld = "
	         "%.4f   not 1/\u221aD = %.4f (wrong)"), 2LL, 0.7071, 0.5);
	snprintf(buf, sizeof buf, text_fmt("ui.frames", "frame %d of %d   . next  , back  a resume"),
	         3, 12);
	snprintf(buf, sizeof buf, text_fmt("ui.hint", "%s step  hjkl %s move  0-9 Enter jump  "
	         "Tab next  ? help  q quit"), "<-/->", "up/down");
	snprintf(buf, sizeof buf, text_fmt("ui.small", "terminal too small: need %dx%d"), 40, 12);
	snprintf(buf, sizeof buf, text_fmt("ui.nolabel", "no label %s: labels run 0 to %lld"),
	         "42", 11LL);
	snprintf(buf, sizeof buf, "%s", text_fmt("ui.theme", "theme"));
	text_free();
	return 0;
}

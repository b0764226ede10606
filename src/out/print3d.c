/* print3d.c - --print --view 3d: each step's block as text. */
#include "print.h"

#include "scene3d.h"

void
print_step_3d(FILE *out, const struct walk *w, int k, const struct print_opts *opts)
{
	struct scene3d s3 = { 0 };
	struct scene_opts so;

	scene_opts_default(&so);
	so.utf8 = opts->utf8;
	so.width = opts->width - 2;     /* indented by 2, as the grid */
	scene3d_build(&s3, w, k, &so, 0);
	fprintf(out, "  3D: %s\n", s3.caption);
	if (s3.unsupported || s3.sc.oom) {
		fprintf(out, "  (%s; try --view grid)\n", s3.sc.oom ? "out of memory" : "not drawn");
	} else if (s3.sc.width + 2 > opts->width) {
		/* never cut a drawing silently */
		fprintf(out, "  (the 3D drawing needs %d columns and %d are here: widen the terminal "
		        "or set COLUMNS, or use --view grid)\n", s3.sc.width + 2, opts->width);
	} else {
		fputc('\n', out);
		print_scene(out, &s3.sc, 2, opts->color);
	}
	scene3d_free(&s3);
}

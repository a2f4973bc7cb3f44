/* error.c - filling, formatting and collecting struct gp_error (error.h). */
#include "error.h"

#include <stdio.h>
#include <string.h>

int gp_error_vset(struct gp_error *err, enum gp_error_code code, const char *file, int line,
		  int column, const char *fmt, va_list ap)
{
	size_t flen = file ? strlen(file) : 0, n = 0;
	int w;

	if (!err)
		return -1;
	err->code = code;
	err->file[0] = '\0';
	if (flen < sizeof(err->file))
		memcpy(err->file, file ? file : "", flen + 1);
	else /* refused whole: a cut path would name another file */
		n = (size_t)snprintf(err->message, sizeof(err->message),
				     "path too long (%zu bytes, limit %zu): ", flen,
				     sizeof(err->file) - 1);
	err->line = line;
	err->column = column;
	err->field[0] = '\0';
	w = vsnprintf(err->message + n, sizeof(err->message) - n, fmt, ap);
	if (w > 0 && (size_t)w >= sizeof(err->message) - n) /* cut: say so */
		memcpy(err->message + sizeof(err->message) - 4, "...", 4);
	return -1;
}

int gp_error_set(struct gp_error *err, enum gp_error_code code, const char *file, int line,
		 int column, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	gp_error_vset(err, code, file, line, column, fmt, ap);
	va_end(ap);
	return -1;
}

void gp_error_set_field(struct gp_error *err, const char *field)
{
	if (err)
		snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
}

char *gp_error_format(const struct gp_error *err, char *buf, size_t size)
{
	size_t n = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	if (err->file[0]) {
		n += snprintf(buf + n, size - n, "%s:", err->file);
		if (n < size && err->line > 0)
			n += snprintf(buf + n, size - n, "%d:", err->line);
		if (n < size && err->line > 0 && err->column > 0)
			n += snprintf(buf + n, size - n, "%d:", err->column);
		if (n < size)
			n += snprintf(buf + n, size - n, " ");
	}
	if (n < size)
		snprintf(buf + n, size - n, "%s", err->message);
	return buf;
}

int gp_error_exit_status(const struct gp_error *err)
{
	return (err->code == GP_EINPUT || err->code == GP_EUSAGE) ? 2 : 1;
}

void gp_problems_init(struct gp_problems *p)
{
	p->count = 0;
	p->dropped = 0;
}

void gp_problems_add(struct gp_problems *p, const struct gp_error *err)
{
	if (p->count < GP_MAX_PROBLEMS)
		p->items[p->count++] = *err;
	else
		p->dropped++;
}

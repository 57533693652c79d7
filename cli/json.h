/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A small streaming JSON writer: commas, nesting and string escaping
 * done once here, so that commands only say what they emit. Output is
 * compact, or indented by four spaces with pretty (bpftool's -p look).
 */
#ifndef MKF_CLI_JSON_H
#define MKF_CLI_JSON_H

#include <stdbool.h>
#include <stdio.h>

struct json_writer;

struct json_writer *jw_new(FILE *out, bool pretty);
/* The caller ends the document (a newline), once it is complete. */
void jw_free(struct json_writer *jw);

void jw_start_object(struct json_writer *jw);
void jw_end_object(struct json_writer *jw);
void jw_start_array(struct json_writer *jw);
void jw_end_array(struct json_writer *jw);
/* Key of the next value, inside an object. */
void jw_name(struct json_writer *jw, const char *name);

/* NULL writes null. */
void jw_string(struct json_writer *jw, const char *s);
void jw_int(struct json_writer *jw, long long v);
void jw_bool(struct json_writer *jw, bool v);
void jw_null(struct json_writer *jw);

/* "name": value, inside an object. */
void jw_string_field(struct json_writer *jw, const char *name, const char *s);
void jw_int_field(struct json_writer *jw, const char *name, long long v);
void jw_bool_field(struct json_writer *jw, const char *name, bool v);

/* The whole {"error": msg} document, for main()'s error path. */
void jw_write_error(FILE *out, bool pretty, const char *msg);

#endif

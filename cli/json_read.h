/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * A small JSON reader, for documents this tool wrote (vm merge reads
 * the JSON of vm's shards back): RFC 8259 into a tree. Strings are
 * UTF-8; one holding U+0000 is refused (nothing the tool writes has it).
 */
#ifndef MKF_CLI_JSON_READ_H
#define MKF_CLI_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

enum jr_type { JR_NULL, JR_BOOL, JR_NUMBER, JR_STRING, JR_ARRAY, JR_OBJECT };

struct jr_node {
	enum jr_type type;
	bool boolean;
	bool integer;		/* a number without fraction or exponent that fits */
	long long num;		/* integer */
	double real;		/* every number */
	char *str;		/* string */
	size_t cnt;		/* array, object: members */
	struct jr_node *items;
	char **keys;		/* object */
};

/* The tree of TEXT (LEN bytes), or NULL with a message in ERR. */
struct jr_node *jr_parse(const char *text, size_t len, char *err, size_t err_sz);
void jr_free(struct jr_node *n);

/* Member KEY of an object (the last one of that name), or NULL. */
const struct jr_node *jr_get(const struct jr_node *obj, const char *key);
/* Member KEY as a string, NULL if absent, null or not a string. */
const char *jr_str(const struct jr_node *obj, const char *key);

#endif

/* csv.h - the CSV interchange form of traces: frame,addr,stream,op,sm,kernel,tenant[,site]. */
#ifndef LLCT_CSV_H
#define LLCT_CSV_H

#include "trace.h"

#include <stdio.h>

#define LLCT_CSV_HEADER "frame,addr,stream,op,sm,kernel,tenant"
/* The header of a trace whose records carry instruction sites (format 2). */
#define LLCT_CSV_HEADER_SITES LLCT_CSV_HEADER ",site"

/* Parses one data line (no newline) of `fields` fields: 7, or 8 with the site (the header
 * says which; with 7 the site is 0). addr is 0x-hex or decimal, stream a name from the stream
 * names of llct_stream_name (docs/FORMAT.md), op R or W; every field must fit its type.
 * On failure returns LLCT_ERR_PARSE with the reason in why. */
int llct_csv_parse_line(const char *line, size_t len, unsigned fields, uint32_t *frame,
			struct llct_record *rec, char *why, size_t why_size);

/* Reads a whole CSV (header first, either header; frames in non-decreasing order) from `in` into
 * the open writer `w`, one writer frame per CSV frame. `name` is used in messages, which give the
 * line number. On failure the writer's current frame is abandoned. */
int llct_csv_import(FILE *in, const char *name, struct llct_writer *w, char *err, size_t err_size);

/* Writes records of a batch as CSV lines (addr in lower-case 0x-hex), with the site column
 * when with_site (LLCT_CSV_HEADER_SITES). */
int llct_csv_write_batch(FILE *out, const struct llct_batch *b, int with_site);

#endif

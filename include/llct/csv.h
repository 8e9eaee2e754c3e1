/* csv.h - the CSV interchange form of traces: frame,addr,stream,op,sm,kernel,tenant. */
#ifndef LLCT_CSV_H
#define LLCT_CSV_H

#include "trace.h"

#include <stdio.h>

#define LLCT_CSV_HEADER "frame,addr,stream,op,sm,kernel,tenant"

/* Parses one data line (no newline). addr is 0x-hex or decimal, stream a name from
 * the stream names of llct_stream_name (docs/FORMAT.md), op R or W; every field must fit its type.
 * On failure returns LLCT_ERR_PARSE with the reason in why. */
int llct_csv_parse_line(const char *line, size_t len, uint32_t *frame, struct llct_record *rec,
			char *why, size_t why_size);

/* Reads a whole CSV (header first, frames in non-decreasing order) from `in` into the open
 * writer `w`, one writer frame per CSV frame. `name` is used in messages, which give the line
 * number. On failure the writer's current frame is abandoned. */
int llct_csv_import(FILE *in, const char *name, struct llct_writer *w, char *err, size_t err_size);

/* Writes records of a batch as CSV lines (addr in lower-case 0x-hex). */
int llct_csv_write_batch(FILE *out, const struct llct_batch *b);

#endif

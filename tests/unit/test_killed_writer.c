/* test_killed_writer.c - a writer killed with SIGKILL mid-frame leaves every ended frame. */
#include "check.h"
#include "llct/trace.h"

#include <signal.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FRAME_RECORDS 100000u

static struct llct_record rec_of(uint32_t frame, uint32_t i)
{
	struct llct_record r = {.addr = ((uint64_t)frame << 32) + (uint64_t)i * 64,
				.kernel = frame * 10 + i / 10000,
				.sm = (uint16_t)(i % 80),
				.stream = (uint8_t)(i % LLCT_N_STREAMS),
				.op = (uint8_t)(i & 1)};
	return r;
}

/* Child: writes frames forever, telling the parent after each commit; in frame `stop_in`
 * it writes half the records, says "mid", and waits to be killed. */
static void child(const char *path, int fd, uint32_t stop_in)
{
	struct llct_writer *w;
	char err[600];
	struct llct_record *buf = malloc(FRAME_RECORDS * sizeof(*buf));
	if (llct_writer_open(path, NULL, &w, err, sizeof(err)))
		_exit(3);
	for (uint32_t f = 0;; f++) {
		for (uint32_t i = 0; i < FRAME_RECORDS; i++)
			buf[i] = rec_of(f, i);
		if (llct_writer_begin_frame(w, f))
			_exit(4);
		uint32_t n = f == stop_in ? FRAME_RECORDS / 2 : FRAME_RECORDS;
		if (llct_writer_append(w, buf, n))
			_exit(5);
		if (f == stop_in) {
			if (write(fd, "M", 1) != 1)
				_exit(6);
			for (;;)
				pause();
		}
		if (llct_writer_end_frame(w))
			_exit(7);
		if (write(fd, "F", 1) != 1)
			_exit(6);
	}
}

static int integrity_ok(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int ok = 0;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			ok = strcmp((const char *)sqlite3_column_text(st, 0), "ok") == 0;
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return ok;
}

int main(void)
{
	char dir[256], path[300], err[600];
	snprintf(dir, sizeof(dir), "/tmp/llct-test-kill-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/killed.llct", dir);
	for (uint32_t stop_in = 0; stop_in < 4; stop_in += 3) {
		int fds[2];
		if (pipe(fds))
			return 1;
		pid_t pid = fork();
		if (pid == 0) {
			close(fds[0]);
			child(path, fds[1], stop_in);
		}
		close(fds[1]);
		char c;
		uint32_t committed = 0;
		while (read(fds[0], &c, 1) == 1 && c == 'F')
			committed++;
		CHECK_EQ(c, 'M');
		kill(pid, SIGKILL);
		int status;
		waitpid(pid, &status, 0);
		close(fds[0]);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		CHECK_EQ(committed, stop_in);

		/* The reader recovers the hot journal and sees exactly the committed frames. */
		struct llct_reader *r;
		CHECK_EQ(llct_reader_open(path, &r, err, sizeof(err)), LLCT_OK);
		if (!r) {
			fprintf(stderr, "%s\n", err);
			continue;
		}
		const struct llct_frame_info *frames;
		size_t n;
		llct_reader_frames(r, &frames, &n);
		CHECK_EQ(n, committed);
		struct llct_cursor *cur;
		struct llct_batch b;
		uint64_t seen = 0, bad = 0;
		int got;
		llct_cursor_open(r, NULL, &cur);
		while ((got = llct_cursor_next(cur, &b)) > 0) {
			for (uint32_t i = 0; i < b.n; i++) {
				struct llct_record e =
				    rec_of(b.frame, (uint32_t)(seen % FRAME_RECORDS) + i);
				bad += b.addr[i] != e.addr || b.kernel[i] != e.kernel;
			}
			seen += b.n;
		}
		CHECK_EQ(got, 0);
		CHECK_EQ(bad, 0);
		CHECK_EQ(seen, (uint64_t)committed * FRAME_RECORDS);
		llct_cursor_close(cur);
		llct_reader_close(r);
		CHECK(integrity_ok(path));
	}
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return check_done("test_killed_writer");
}

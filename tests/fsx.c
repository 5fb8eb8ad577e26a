/*
 * fsx: a file system exerciser for one file (written for gamefs's tests,
 * after the idea of the classic fsx; no code of it).
 *
 *   fsx [-N OPS] [-S SEED] [-l MAXLEN] [-o MAXOPLEN] [-i INITIAL] [-w OUT] [-v] FILE
 *
 * Opens FILE read-write and runs OPS random operations on it: writes of
 * random lengths at random offsets (also past the end, leaving a hole of
 * zeros), reads compared byte for byte, truncates up and down, fsync,
 * close and reopen (which commits on gamefs) and whole-file checks.  An
 * in-memory model holds what the file must read; its size is also checked
 * with fstat after every operation.  The model starts as INITIAL's bytes
 * (a file read outside the file system under test) or, without -i, as FILE
 * reads at the start.  The run is a function of SEED (default 1): a failure
 * prints the seed, the operation, the first bytes that differ (and which
 * operation wrote what was expected) and the log of the operations before
 * it, and exits 1; with -w OUT it also writes OUT.good (the model) and
 * OUT.bad (the file as read).  On success -w OUT writes the model's final
 * bytes to OUT, for the caller to compare with the file read another way.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum fsx_kind { OP_READ, OP_WRITE, OP_TRUNC, OP_FSYNC, OP_REOPEN, OP_CHECK };
static const char *const fsx_names[] = { "read", "write", "truncate", "fsync", "reopen", "check" };

struct fsx_op {
	enum fsx_kind kind;
	uint64_t off, len;	/* read/write: the span; truncate: off is the new size */
	uint64_t size;		/* the model's size after the operation */
};

static const char *path;
static int fd = -1;
static uint64_t rng;
static uint8_t *model;		/* what the file must read */
static uint32_t *writer;	/* the operation that wrote each byte (0: initial or zero fill) */
static uint64_t size, maxlen = 256 * 1024, maxoplen = 64 * 1024;
static struct fsx_op *ops;
static unsigned long nops = 2000, cur;
static const char *out;
static int verbose;

/* splitmix64: the whole run follows from the seed */
static uint64_t fsx_rand(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t fsx_below(uint64_t n)
{
	return n ? fsx_rand() % n : 0;
}

/* a length for a read or write: one in four a small one */
static uint64_t fsx_len(void)
{
	uint64_t cap = fsx_below(4) ? maxoplen : (maxoplen < 512 ? maxoplen : 512);

	return 1 + fsx_below(cap);
}

static void fsx_log(FILE *f)
{
	unsigned long from = cur >= 40 && !verbose ? cur - 40 : 0;

	fprintf(f, "operations %lu to %lu (the last one failed):\n", from + 1, cur + 1);
	for (unsigned long i = from; i <= cur && i < nops; i++) {
		const struct fsx_op *o = &ops[i];

		switch (o->kind) {
		case OP_READ:
		case OP_WRITE:
			fprintf(f, "%6lu %-8s 0x%06" PRIx64 " .. 0x%06" PRIx64 " (%" PRIu64 " bytes)",
				i + 1, fsx_names[o->kind], o->off, o->off + o->len, o->len);
			break;
		case OP_TRUNC:
			fprintf(f, "%6lu %-8s to 0x%06" PRIx64, i + 1, fsx_names[o->kind], o->off);
			break;
		default:
			fprintf(f, "%6lu %-8s", i + 1, fsx_names[o->kind]);
		}
		fprintf(f, "  size 0x%" PRIx64 "\n", o->size);
	}
}

static int fsx_save(const char *name, const uint8_t *d, uint64_t len)
{
	FILE *f = fopen(name, "wb");
	int ok = f && fwrite(d, 1, (size_t)len, f) == len;

	if (f && fclose(f))
		ok = 0;
	if (!ok)
		fprintf(stderr, "fsx: %s: %s\n", name, strerror(errno));
	return ok ? 0 : -1;
}

/* read up to len bytes at off, as many as there are */
static int64_t fsx_pread(int f, uint8_t *buf, uint64_t len, uint64_t off)
{
	uint64_t got = 0;

	while (got < len) {
		ssize_t r = pread(f, buf + got, (size_t)(len - got), (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		got += (uint64_t)r;
	}
	return (int64_t)got;
}

static void fsx_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fsx_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fsx: %s: operation %lu of %lu: ", path, cur + 1, nops);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fsx_log(stderr);
	if (out) {
		char name[4096];
		int f = open(path, O_RDONLY);
		uint8_t *d = malloc((size_t)maxlen + 1);
		int64_t n = f >= 0 && d ? fsx_pread(f, d, maxlen + 1, 0) : -1;

		snprintf(name, sizeof(name), "%s.good", out);
		fsx_save(name, model, size);
		snprintf(name, sizeof(name), "%s.bad", out);
		if (n >= 0)
			fsx_save(name, d, (uint64_t)n);
		fprintf(stderr, "fsx: the model is in %s.good, the file as read in %s.bad\n", out, out);
		if (f >= 0)
			close(f);
		free(d);
	}
	exit(1);
}

/* what was read against the model: the first differing bytes, and who wrote them */
static void fsx_compare(const uint8_t *got, int64_t n, uint64_t off, uint64_t len)
{
	uint64_t want = off >= size ? 0 : (size - off < len ? size - off : len);
	int shown = 0;

	if (n < 0)
		fsx_fail("%s of %" PRIu64 " bytes at 0x%" PRIx64 ": %s", fsx_names[ops[cur].kind], len, off,
			 strerror((int)-n));
	if ((uint64_t)n != want)
		fsx_fail("read %" PRId64 " bytes at 0x%" PRIx64 ", want %" PRIu64 " (size 0x%" PRIx64 ")",
			 n, off, want, size);
	if (!want || !memcmp(got, model + off, (size_t)want))
		return;
	fprintf(stderr, "fsx: %s: operation %lu: bytes differ:\n", path, cur + 1);
	for (uint64_t i = 0; i < want && shown < 16; i++) {
		if (got[i] == model[off + i])
			continue;
		if (writer[off + i])
			fprintf(stderr, "  at 0x%06" PRIx64 ": got 0x%02x, want 0x%02x (written by operation %" PRIu32 ")\n",
				off + i, got[i], model[off + i], writer[off + i]);
		else
			fprintf(stderr, "  at 0x%06" PRIx64 ": got 0x%02x, want 0x%02x (initial or zero fill)\n",
				off + i, got[i], model[off + i]);
		shown++;
	}
	fsx_fail("%s at 0x%" PRIx64 " of %" PRIu64 " bytes read other bytes than written",
		 fsx_names[ops[cur].kind], off, len);
}

static void fsx_open(void)
{
	fd = open(path, O_RDWR);
	if (fd < 0)
		fsx_fail("open: %s", strerror(errno));
}

static void fsx_check_size(void)
{
	struct stat st;

	if (fstat(fd, &st))
		fsx_fail("fstat: %s", strerror(errno));
	if ((uint64_t)st.st_size != size)
		fsx_fail("fstat says size 0x%jx, want 0x%" PRIx64, (uintmax_t)st.st_size, size);
}

static void fsx_one(uint8_t *buf)
{
	struct fsx_op *o = &ops[cur];
	uint64_t r = fsx_below(100);

	/* the first checks the start; then reads and writes, some truncates, a commit now and then */
	if (cur == 0)
		o->kind = OP_CHECK;
	else if (r < 38)
		o->kind = OP_READ;
	else if (r < 76)
		o->kind = OP_WRITE;
	else if (r < 88)
		o->kind = OP_TRUNC;
	else if (r < 92)
		o->kind = OP_FSYNC;
	else if (r < 96)
		o->kind = OP_REOPEN;
	else
		o->kind = OP_CHECK;
	o->off = o->len = 0;

	switch (o->kind) {
	case OP_READ:
		/* sometimes past the end: a short read */
		o->len = fsx_len();
		o->off = fsx_below(size + size / 8 + 1);
		o->size = size;
		fsx_compare(buf, fsx_pread(fd, buf, o->len, o->off), o->off, o->len);
		break;
	case OP_WRITE:
		o->len = fsx_len();
		o->off = fsx_below(maxlen - o->len + 1);
		for (uint64_t i = 0; i < o->len; i++)
			buf[i] = (uint8_t)((cur + 1) * 0x9d ^ (o->off + i) * 13 ^ (o->off + i) >> 8);
		if (o->off > size) {	/* a hole reads zeros */
			memset(model + size, 0, (size_t)(o->off - size));
			memset(writer + size, 0, (size_t)(o->off - size) * sizeof(*writer));
		}
		memcpy(model + o->off, buf, (size_t)o->len);
		for (uint64_t i = 0; i < o->len; i++)
			writer[o->off + i] = (uint32_t)(cur + 1);
		if (o->off + o->len > size)
			size = o->off + o->len;
		o->size = size;
		for (uint64_t done = 0; done < o->len;) {
			ssize_t w = pwrite(fd, buf + done, (size_t)(o->len - done), (off_t)(o->off + done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				fsx_fail("write of %" PRIu64 " bytes at 0x%" PRIx64 ": %s", o->len - done,
					 o->off + done, w < 0 ? strerror(errno) : "wrote nothing");
			done += (uint64_t)w;
		}
		break;
	case OP_TRUNC:
		/* down as often as up */
		o->off = fsx_below(2) ? fsx_below(size + 1) : size + fsx_below(maxlen - size + 1);
		if (o->off > size) {
			memset(model + size, 0, (size_t)(o->off - size));
			memset(writer + size, 0, (size_t)(o->off - size) * sizeof(*writer));
		}
		size = o->off;
		o->size = size;
		if (ftruncate(fd, (off_t)o->off))
			fsx_fail("ftruncate to 0x%" PRIx64 ": %s", o->off, strerror(errno));
		break;
	case OP_FSYNC:
		o->size = size;
		if (fsync(fd))
			fsx_fail("fsync: %s", strerror(errno));
		break;
	case OP_REOPEN:
		o->size = size;
		if (close(fd))
			fsx_fail("close: %s", strerror(errno));
		fsx_open();
		/* the committed file reads the model whole */
		/* FALLTHROUGH */
	case OP_CHECK:
		o->size = size;
		fsx_compare(buf, fsx_pread(fd, buf, maxlen + 1, 0), 0, maxlen + 1);
		break;
	}
	fsx_check_size();
}

static uint64_t fsx_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "fsx: %s: not a number: %s\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *initial = NULL;
	uint64_t seed = 1;
	uint8_t *buf;
	int64_t n;
	int c;

	while ((c = getopt(argc, argv, "N:S:l:o:i:w:v")) != -1) {
		switch (c) {
		case 'N': nops = (unsigned long)fsx_num(optarg, "-N"); break;
		case 'S': seed = fsx_num(optarg, "-S"); break;
		case 'l': maxlen = fsx_num(optarg, "-l"); break;
		case 'o': maxoplen = fsx_num(optarg, "-o"); break;
		case 'i': initial = optarg; break;
		case 'w': out = optarg; break;
		case 'v': verbose = 1; break;
		default:
			fprintf(stderr, "usage: fsx [-N OPS] [-S SEED] [-l MAXLEN] [-o MAXOPLEN] [-i INITIAL] [-w OUT] [-v] FILE\n");
			return 2;
		}
	}
	if (optind + 1 != argc || !maxlen || !maxoplen || maxoplen > maxlen || maxlen > (1u << 30) || !nops) {
		fprintf(stderr, "usage: fsx [-N OPS] [-S SEED] [-l MAXLEN] [-o MAXOPLEN] [-i INITIAL] [-w OUT] [-v] FILE\n");
		return 2;
	}
	path = argv[optind];
	rng = seed;
	model = calloc((size_t)maxlen + 1, 1);
	writer = calloc((size_t)maxlen + 1, sizeof(*writer));
	buf = malloc((size_t)maxlen + 1);
	ops = calloc(nops, sizeof(*ops));
	if (!model || !writer || !buf || !ops) {
		fprintf(stderr, "fsx: out of memory\n");
		return 1;
	}

	/* the model's start: INITIAL, or what the file reads now */
	n = -1;
	if (initial) {
		int f = open(initial, O_RDONLY);

		if (f < 0 || (n = fsx_pread(f, model, maxlen + 1, 0)) < 0) {
			fprintf(stderr, "fsx: %s: %s\n", initial, strerror(errno));
			return 1;
		}
		close(f);
	}
	fsx_open();
	if (!initial && (n = fsx_pread(fd, model, maxlen + 1, 0)) < 0)
		fsx_fail("read at the start: %s", strerror((int)-n));
	if ((uint64_t)n > maxlen) {
		fprintf(stderr, "fsx: %s: longer than -l %" PRIu64 "\n", initial ? initial : path, maxlen);
		return 2;
	}
	size = (uint64_t)n;
	printf("fsx: %s: seed %" PRIu64 ", %lu operations, up to %" PRIu64 " bytes, %" PRIu64 " a write\n",
	       path, seed, nops, maxlen, maxoplen);
	fflush(stdout);
	for (cur = 0; cur < nops; cur++)
		fsx_one(buf);
	cur = nops - 1;
	if (close(fd))
		fsx_fail("the last close: %s", strerror(errno));
	if (out && fsx_save(out, model, size))
		return 1;
	printf("fsx: %lu operations passed, final size %" PRIu64 "\n", nops, size);
	free(model);
	free(writer);
	free(buf);
	free(ops);
	return 0;
}

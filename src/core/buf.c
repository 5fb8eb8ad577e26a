/* Growable byte buffers; see gfs_buf.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include "gfs_buf.h"

/* The most b may hold: staged buffers are memfds, and hold members past 2 GiB. */
static size_t gfs_buf_max(const struct gfs_buf *b)
{
	return b->stage ? GFS_BUF_STAGED_MAX : GFS_BUF_MAX;
}

/* The memfd of staged buffers; refs counts the buffers mapping it. */
struct gfs_stage {
	int fd;
	unsigned refs;
};

void gfs_buf_init(struct gfs_buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
	b->stage = NULL;
	b->holds = 0;
}

static void gfs_stage_unref(struct gfs_stage *s)
{
	if (s && !--s->refs) {
		close(s->fd);
		free(s);
	}
}

void gfs_buf_release(struct gfs_buf *b)
{
	if (b->stage) {
		munmap(b->data, b->cap);
		gfs_stage_unref(b->stage);
	} else {
		free(b->data);
	}
	gfs_buf_init(b);
}

struct gfs_buf *gfs_buf_new(void)
{
	return calloc(1, sizeof(struct gfs_buf));
}

struct gfs_buf *gfs_buf_hold(struct gfs_buf *b)
{
	b->holds++;
	return b;
}

void gfs_buf_free(struct gfs_buf *b)
{
	if (!b)
		return;
	if (b->holds) {
		b->holds--;
		return;
	}
	gfs_buf_release(b);
	free(b);
}

int gfs_fd_copy(int in, uint64_t inoff, int out, uint64_t outoff, uint64_t len)
{
	int sendfile_ok = 1, cfr_ok = 1;
	uint8_t *tmp = NULL;

	while (len) {
		size_t chunk = len > (1u << 30) ? 1u << 30 : (size_t)len;
		loff_t i = (loff_t)inoff, o = (loff_t)outoff;
		off_t si = (off_t)inoff;
		ssize_t n = -1;

		if (cfr_ok && (n = copy_file_range(in, &i, out, &o, chunk, 0)) <= 0)
			cfr_ok = 0;	/* EXDEV (memfd to disk), ENOSYS...: splice next */
		/* sendfile writes at out's position: pwrite is used nowhere else on it */
		if (n <= 0 && sendfile_ok && (lseek(out, (off_t)outoff, SEEK_SET) < 0 ||
					      (n = sendfile(out, in, &si, chunk)) <= 0))
			sendfile_ok = 0;
		if (n <= 0) {	/* by hand */
			if (!tmp && !(tmp = malloc(1 << 18)))
				return -ENOMEM;
			n = pread(in, tmp, chunk < (1u << 18) ? chunk : 1u << 18, (off_t)inoff);
			if (n > 0 && pwrite(out, tmp, (size_t)n, (off_t)outoff) != n)
				n = -1;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? -errno : -EIO;

			free(tmp);
			return e;
		}
		inoff += (uint64_t)n;
		outoff += (uint64_t)n;
		len -= (uint64_t)n;
	}
	free(tmp);
	return 0;
}

/* A staged buffer's bytes past len are zeros and its memfd is cap bytes long. */
static int gfs_stage_resize(struct gfs_buf *b, size_t cap)
{
	uint8_t *p;

	if (ftruncate(b->stage->fd, (off_t)cap))
		return -errno;
	p = mremap(b->data, b->cap, cap, MREMAP_MAYMOVE);
	if (p == MAP_FAILED)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
	return 0;
}

/* A memfd of cap bytes holding the len bytes of src (data, or fd when >= 0). */
static int gfs_stage_make(struct gfs_buf *b, size_t cap, const uint8_t *data, int fd)
{
	struct gfs_stage *s = malloc(sizeof(*s));
	uint8_t *p = MAP_FAILED;
	size_t done = 0;
	int r = -ENOMEM;

	if (!s)
		return -ENOMEM;
	s->refs = 1;
	s->fd = memfd_create("gamefs-edit", MFD_CLOEXEC);
	if (s->fd < 0) {
		r = -errno;
		free(s);
		return r;
	}
	if (ftruncate(s->fd, (off_t)cap)) {
		r = -errno;
		goto fail;
	}
	if (fd >= 0 && (r = gfs_fd_copy(fd, 0, s->fd, 0, b->len)))
		goto fail;
	while (fd < 0 && done < b->len) {
		ssize_t n = pwrite(s->fd, data + done, b->len - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			goto fail;
		}
		done += (size_t)n;
	}
	p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED) {
		r = -ENOMEM;
		goto fail;
	}
	b->data = p;
	b->cap = cap;
	b->stage = s;
	return 0;
fail:
	gfs_stage_unref(s);
	return r;
}

/* A staged cap for len bytes: whole 2 MiB steps, doubling, so growth is rare. */
static size_t gfs_stage_cap(size_t len)
{
	size_t cap = GFS_BUF_STAGE_MIN * 2;

	while (cap < len + 1)
		cap *= 2;
	return cap;
}

int gfs_buf_stage(struct gfs_buf *b)
{
	uint8_t *old = b->data;
	int r;

	if (b->stage)
		return 0;
	r = gfs_stage_make(b, gfs_stage_cap(b->len), old, -1);
	if (!r)
		free(old);
	return r;
}

int gfs_buf_fd(const struct gfs_buf *b)
{
	return b->stage ? b->stage->fd : -1;
}

/* Before a change: a memfd shared with another buffer is copied for b alone. */
static int gfs_stage_own(struct gfs_buf *b)
{
	struct gfs_buf nb = *b;
	int r;

	if (!b->stage || b->stage->refs == 1)
		return 0;
	r = gfs_stage_make(&nb, b->cap, NULL, b->stage->fd);
	if (r)
		return r;
	munmap(b->data, b->cap);
	gfs_stage_unref(b->stage);
	*b = nb;
	return 0;
}

struct gfs_buf *gfs_buf_share(struct gfs_buf *b)
{
	struct gfs_buf *nb = gfs_buf_new();
	uint8_t *p;

	if (!nb)
		return NULL;
	if (!b->stage) {
		if (gfs_buf_add(nb, b->data, b->len)) {
			gfs_buf_free(nb);
			return NULL;
		}
		return nb;
	}
	p = mmap(NULL, b->cap, PROT_READ | PROT_WRITE, MAP_SHARED, b->stage->fd, 0);
	if (p == MAP_FAILED) {
		free(nb);
		return NULL;
	}
	nb->data = p;
	nb->len = b->len;
	nb->cap = b->cap;
	nb->stage = b->stage;
	b->stage->refs++;
	return nb;
}

int gfs_buf_pwrite(struct gfs_buf *b, const void *data, size_t len, size_t off)
{
	const uint8_t *p = data;
	int r;

	if (off > gfs_buf_max(b) || len > gfs_buf_max(b) - off)
		return -EFBIG;
	if (!b->stage) {
		/* only a hole before off is zeroed: the bytes written are not filled twice */
		if (off > b->len && (r = gfs_buf_set_len(b, off)))
			return r;
		if (off + len > b->len && (r = gfs_buf_set_len_raw(b, off + len)))
			return r;
		if (len)
			memcpy(b->data + off, data, len);
		return 0;
	}
	if ((r = gfs_stage_own(b)))
		return r;
	if (off + len + 1 > b->cap && (r = gfs_stage_resize(b, gfs_stage_cap(off + len))))
		return r;
	/* through the file, not the mapping: no page of this process is touched */
	for (size_t done = 0; done < len;) {
		ssize_t n = pwrite(b->stage->fd, p + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	if (off + len > b->len)
		b->len = off + len;
	return 0;
}

size_t gfs_buf_pread(const struct gfs_buf *b, void *data, size_t len, size_t off)
{
	size_t done = 0;

	if (off >= b->len)
		return 0;
	if (len > b->len - off)
		len = b->len - off;
	if (!b->stage) {
		memcpy(data, b->data + off, len);
		return len;
	}
	while (done < len) {
		ssize_t n = pread(b->stage->fd, (uint8_t *)data + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)	/* cannot happen to a memfd: the mapping has them */
			break;
		done += (size_t)n;
	}
	if (done < len)
		memcpy((uint8_t *)data + done, b->data + off + done, len - done);
	return len;
}

int gfs_buf_grow(struct gfs_buf *b, size_t extra)
{
	size_t want, cap;
	uint8_t *p;
	int r;

	if (extra > gfs_buf_max(b) || b->len > gfs_buf_max(b) - extra)
		return -EFBIG;
	want = b->len + extra + 1;
	if (b->stage && extra && (r = gfs_stage_own(b)))	/* (grow(0) only wants data set) */
		return r;
	if (want <= b->cap)
		return 0;
	if (b->stage)
		return gfs_stage_resize(b, gfs_stage_cap(want));
	cap = b->cap ? b->cap : 64;
	while (cap < want)
		cap = cap < GFS_BUF_MAX ? cap * 2 : want;
	p = realloc(b->data, cap);
	if (!p)
		return -ENOMEM;
	b->data = p;
	b->cap = cap;
#ifdef MADV_HUGEPAGE
	if (cap >= GFS_BUF_HUGE) {
		/*
		 * A big buffer (an edited movie) is touched once per page as it
		 * fills: in 2 MiB pages that is 512 times fewer faults, which a
		 * virtual machine makes slow.  A hint: fine if refused.
		 */
		uintptr_t lo = ((uintptr_t)p + (GFS_BUF_HUGE - 1)) & ~(uintptr_t)(GFS_BUF_HUGE - 1);
		uintptr_t hi = ((uintptr_t)p + cap) & ~(uintptr_t)(GFS_BUF_HUGE - 1);

		if (hi > lo)
			madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	}
#endif
	return 0;
}

int gfs_buf_add(struct gfs_buf *b, const void *data, size_t len)
{
	int r = gfs_buf_grow(b, len);

	if (r)
		return r;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = 0;
	return 0;
}

int gfs_buf_addc(struct gfs_buf *b, uint8_t c)
{
	return gfs_buf_add(b, &c, 1);
}

int gfs_buf_adds(struct gfs_buf *b, const char *s)
{
	return gfs_buf_add(b, s, strlen(s));
}

int gfs_buf_printf(struct gfs_buf *b, const char *fmt, ...)
{
	size_t room = b->cap > b->len ? b->cap - b->len : 0;
	va_list ap;
	int n, r;

	/* one pass into the spare room; a second only when it did not fit */
	va_start(ap, fmt);
	n = vsnprintf(room ? (char *)b->data + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= room) {
		r = gfs_buf_grow(b, (size_t)n);
		if (r) {
			if (room)
				b->data[b->len] = 0;
			return r;
		}
		va_start(ap, fmt);
		vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
	return 0;
}

int gfs_buf_add_dec(struct gfs_buf *b, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do
		tmp[sizeof(tmp) - ++n] = (char)('0' + v % 10);
	while ((v /= 10));
	return gfs_buf_add(b, tmp + sizeof(tmp) - n, n);
}

/* A staged buffer cut shorter: the bytes past len become zeros (the file keeps holes). */
static int gfs_stage_cut(struct gfs_buf *b, size_t len)
{
	int r = gfs_stage_own(b);

	if (r)
		return r;
	if (ftruncate(b->stage->fd, (off_t)len) || ftruncate(b->stage->fd, (off_t)b->cap))
		return -errno;
	b->len = len;
	return 0;
}

int gfs_buf_set_len_raw(struct gfs_buf *b, size_t len)
{
	if (b->stage && len <= b->len)
		return len < b->len ? gfs_stage_cut(b, len) : 0;
	if (b->stage && len > b->len) {	/* the tail is zeros already */
		int r = gfs_buf_grow(b, len - b->len);

		if (!r)
			b->len = len;
		return r;
	}
	if (len > b->len) {
		int r = gfs_buf_grow(b, len - b->len);

		if (r)
			return r;
	}
	b->len = len;
	if (b->data)
		b->data[len] = 0;
	return 0;
}

int gfs_buf_set_len(struct gfs_buf *b, size_t len)
{
	if (b->stage)
		return gfs_buf_set_len_raw(b, len);
	if (len > b->len) {
		int r = gfs_buf_grow(b, len - b->len);

		if (r)
			return r;
		memset(b->data + b->len, 0, len - b->len);
	}
	b->len = len;
	if (b->data)
		b->data[len] = 0;
	return 0;
}

void gfs_put_u16le(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

void gfs_put_u24le(uint8_t *p, uint32_t v)
{
	gfs_put_u16le(p, (uint16_t)v);
	p[2] = (uint8_t)(v >> 16);
}

void gfs_put_u32le(uint8_t *p, uint32_t v)
{
	gfs_put_u16le(p, (uint16_t)v);
	gfs_put_u16le(p + 2, (uint16_t)(v >> 16));
}

void gfs_put_u64le(uint8_t *p, uint64_t v)
{
	gfs_put_u32le(p, (uint32_t)v);
	gfs_put_u32le(p + 4, (uint32_t)(v >> 32));
}

/* The width low bytes of v, least significant first. */
static int gfs_buf_add_le(struct gfs_buf *b, uint64_t v, size_t width)
{
	uint8_t p[8];

	gfs_put_u64le(p, v);
	return gfs_buf_add(b, p, width);
}

int gfs_buf_add_u16le(struct gfs_buf *b, uint16_t v) { return gfs_buf_add_le(b, v, 2); }
int gfs_buf_add_u24le(struct gfs_buf *b, uint32_t v) { return gfs_buf_add_le(b, v, 3); }
int gfs_buf_add_u32le(struct gfs_buf *b, uint32_t v) { return gfs_buf_add_le(b, v, 4); }
int gfs_buf_add_u64le(struct gfs_buf *b, uint64_t v) { return gfs_buf_add_le(b, v, 8); }

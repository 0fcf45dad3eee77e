/* gmview.h — a block's private view of GM, so that the blocks of a launch can run on threads and still
 * give exactly the result of running them one after another in block order.
 *
 * A block running on a view reads and writes a private copy of the device's GM image (gm.c: every buffer and
 * the gaps between them): a 4 KiB page is copied from the shared image the first time the block touches it
 * (under the launch's lock, shared). Every byte
 * range the block accesses is logged, and the ranges it writes separately. When all blocks before it have
 * been committed, the block is checked against the writes of the blocks that were committed after its view
 * opened (gmv_conflicts): if it touched none of their bytes, everything it read is what it would have read
 * in block order, and committing its written bytes (gmv_commit, under the lock, exclusive) gives the
 * block-order result. Otherwise the caller runs the block again. Write ranges reported as a whole
 * footprint (gaps included) are safe: the gaps are touched too, so no earlier block wrote them after the
 * page was copied, and copying them back restores what the shared image holds. Writes that leave their
 * buffer (W-GM-OOB, W-GM-CLOBBER) land in the private image like any other and are committed alike. */
#ifndef PTOSIM_GMVIEW_H
#define PTOSIM_GMVIEW_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "machine.h"

/* Byte ranges [lo, hi) of GM, as offsets in the image (device address - SIM_GM_BASE). */
typedef struct GmRange { uint64_t lo, hi; } GmRange;
typedef struct GmSet {
    GmRange *r;
    size_t n, cap;
    size_t norm;               /* r[0, norm) is sorted and disjoint */
} GmSet;

typedef struct GmView GmView;

GmView *gmv_new(pthread_rwlock_t *lock);
void gmv_free(GmView *v);
/* Opens the view on the launch's GM image (`size` bytes at `image`) for a new block: no page copied yet,
   nothing logged. 0, or -1 out of memory. */
int gmv_open(GmView *v, uint8_t *image, uint64_t size);
/* Host pointer to [off, off+len) of the image in the view (copying the pages not yet copied), or NULL
   when out of memory. The range lies inside the image. */
uint8_t *gmv_map(GmView *v, uint64_t off, uint64_t len);
/* The block accessed [off, off+len) of the image (clipped to it): mode ACC_READ, ACC_WRITE or ACC_ATOMIC. */
void gmv_log(GmView *v, uint64_t off, uint64_t len, int mode);
/* Did the block touch a byte of `writes` (another block's committed writes)? */
int gmv_conflicts(GmView *v, GmSet *writes);
/* Copies the block's written bytes into the shared image (the caller holds the lock exclusively) and
   moves its write set into *out (sorted, disjoint; the caller frees out->r). 0, or -1 out of memory (the
   view's accounting failed: the caller runs the block again without a view). */
int gmv_commit(GmView *v, GmSet *out);
/* The view ran out of memory while logging (its sets are incomplete). */
int gmv_failed(const GmView *v);

void gmset_free(GmSet *s);
#endif

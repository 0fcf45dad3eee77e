/* diag.h — collected diagnostics with stable IDs and source locations; the library never prints. */
#ifndef PTOSIM_DIAG_H
#define PTOSIM_DIAG_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
#define DIAG(e, id, s) DIAG_##e,
#include "diag.def"
#undef DIAG
    DIAG__COUNT
} DiagId;

typedef enum { SEV_NOTE, SEV_WARNING, SEV_ERROR, SEV_TRAP } DiagSeverity;

typedef struct SrcLoc {
    const char *file;          /* interned or static; NULL = no location */
    uint32_t line, col;        /* 1-based; 0 = unknown */
} SrcLoc;

/* The quoted source line of a diagnostic whose source was removed (diag_remove_source): the line as shown
   (cut around the caret when long) and the caret's column in it. */
typedef struct DiagQuote {
    char *text;
    uint32_t caret;
} DiagQuote;

typedef struct DiagNote {
    SrcLoc loc;
    char *msg;
    DiagQuote q;
} DiagNote;

typedef struct Diag {
    DiagSeverity sev;
    DiagId id;
    SrcLoc loc;
    char *msg;
    DiagNote *notes;
    size_t nnotes;
    DiagQuote q;
    uint8_t promoted;          /* a warning reported as an error (-Werror) */
} Diag;

typedef struct DiagSource {
    const char *file;
    const char *text;
    size_t len;
    uint32_t *lines;           /* offset of each line start, built on the first rendering (NULL before) */
    size_t nlines;
} DiagSource;

/* What happens to a warning: reported as such, dropped, or reported as an error (-Wno-..., -Werror);
   WARN_ENABLE reports one that is off by default (the checker that makes it asks diag_warn_enabled). */
typedef enum { WARN_DEFAULT, WARN_IGNORE, WARN_ERROR, WARN_ENABLE } WarnAction;
struct DiagList;
/* Whether warning `id` is on: -Wno-ID (or -w) off, -WID or -Werror=ID on, else `dflt` (a -WID given for
   every warning, warn_all ENABLE, turns the default-off ones on too). */
int diag_warn_enabled(const struct DiagList *d, DiagId id, int dflt);

typedef struct DiagList {
    Diag *items;
    size_t n, cap;
    size_t nerrors, nwarnings;
    size_t max_errors;         /* parser stops adding after this many errors */
    uint8_t warn[DIAG__COUNT]; /* per warning ID: WarnAction (WARN_DEFAULT: warn_all decides) */
    uint8_t warn_all;          /* WarnAction for every warning without its own */
    size_t npromoted;          /* warnings reported as errors */
    DiagSource *srcs;          /* registered buffers, for caret rendering */
    size_t nsrcs, capsrcs;
    /* Out of memory, sticky until diag_clear: the list holds its one E-OOM / T-OOM diagnostic. The item
       array always keeps a spare slot (diag_reserve), so that diagnostic needs no allocation: it goes in
       the spare, with no message of its own (diag_msg gives the static text of diag.def). */
    uint8_t oom;
} DiagList;

void diag_init(DiagList *d);
/* Allocates the item array with its spare slot: call once after diag_init; -1 when out of memory (the list
   is then unusable for diag_oom, and its owner must fail to be created). */
int diag_reserve(DiagList *d);
void diag_free(DiagList *d);
/* Moves src's diagnostics to the end of dst, as if added there in the same order (dst's error cap
   applies; an out-of-memory diagnostic stays one); src is left empty. */
void diag_append(DiagList *dst, DiagList *src);
/* Records that memory ran out (run != 0: while running, T-OOM; else E-OOM): adds the list's one
   out-of-memory diagnostic, without allocating, unless one is there already. Every allocation failure that
   cannot add a diagnostic of its own ends here (an allocation failure never passes silently). */
void diag_oom(DiagList *d, int run);
/* The message of g: its own, or the static description of its ID (the allocation-free OOM diagnostic). */
const char *diag_msg(const Diag *g);
/* Adds a diagnostic and returns its index (or -1 when capped or out of memory: diag_oom then ran). */
long diag_add(DiagList *d, DiagSeverity sev, DiagId id, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
long diag_addv(DiagList *d, DiagSeverity sev, DiagId id, SrcLoc loc, const char *fmt, va_list ap);
void diag_note(DiagList *d, long idx, SrcLoc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_add_source(DiagList *d, const char *file, const char *text, size_t len);
/* Before `text` is freed: the diagnostics that quote it keep their lines (DiagQuote), so they render the same
   afterwards. */
void diag_remove_source(DiagList *d, const char *text);
/* Drops every diagnostic; keeps the registered sources and the error cap. */
void diag_clear(DiagList *d);
const char *diag_id_str(DiagId id);
/* The ID of a stable spelling ("W-RACE", or the short lower-case form "race"); -1 if none. */
int diag_id_lookup(const char *name);
/* Renders one diagnostic as "FILE:LINE:COL: error: msg [ID]" + source line + caret + notes.
   Returns a malloc'd string the caller frees (NULL when out of memory). The source line is found in O(log lines) through a
   line index built once per source; a long line is shown as a window around the caret. */
char *diag_render(const DiagList *d, size_t i, int color);
#endif

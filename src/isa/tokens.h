/* tokens.h — enum token sets (pipes, events, distributions, modes ...) generated from tokens.def. */
#ifndef PTOSIM_TOKENS_H
#define PTOSIM_TOKENS_H
#include <stdint.h>

typedef enum {
#define TOKSET(set, name) TS_##set,
#define TOK(set, id, spell)
#define TOKA(set, alias, id)
#include "tokens.def"
#undef TOKSET
#undef TOK
#undef TOKA
    TS__COUNT
} TokSet;

typedef enum {
#define TOKSET(set, name)
#define TOK(set, id, spell) T_##set##_##id,
#define TOKA(set, alias, id)
#include "tokens.def"
#undef TOKSET
#undef TOK
#undef TOKA
    T__COUNT
} TokId;

const char *tokset_name(int set);
int tok_lookup(int set, const char *s, unsigned n);       /* token id (aliases resolved) or -1 */
const char *tok_spelling(int tok);
int tok_set(int tok);
/* Index of a token inside its set (e.g. EVENT_ID3 -> 3, PIPE_V -> 1). */
int tok_ordinal(int tok);
int tokset_first(int set);
/* Alias spelling i (0, 1, ...): its token id, set and spelling; -1 past the last alias. */
int tok_alias(unsigned i, int *set, const char **spell);
int tokset_size(int set);
#endif

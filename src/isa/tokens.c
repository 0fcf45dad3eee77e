/* tokens.c — lookup tables for tokens.def. */
#include "tokens.h"
#include <string.h>

static const char *const set_names[] = {
#define TOKSET(set, name) name,
#define TOK(set, id, spell)
#define TOKA(set, alias, id)
#include "tokens.def"
#undef TOKSET
#undef TOK
#undef TOKA
};

static const struct { int set; const char *spell; } toks[] = {
#define TOKSET(set, name)
#define TOK(set, id, spell) {TS_##set, spell},
#define TOKA(set, alias, id)
#include "tokens.def"
#undef TOKSET
#undef TOK
#undef TOKA
};

static const struct { int set; const char *spell; int tok; } aliases[] = {
#define TOKSET(set, name)
#define TOK(set, id, spell)
#define TOKA(set, alias, id) {TS_##set, alias, T_##set##_##id},
#include "tokens.def"
#undef TOKSET
#undef TOK
#undef TOKA
    {-1, "", -1}
};

const char *tokset_name(int set) { return set >= 0 && set < TS__COUNT ? set_names[set] : "?"; }

static int eqn(const char *a, const char *s, unsigned n) { return strlen(a) == n && memcmp(a, s, n) == 0; }

int tok_lookup(int set, const char *s, unsigned n)
{
    for (int i = 0; i < T__COUNT; i++)
        if (toks[i].set == set && eqn(toks[i].spell, s, n)) return i;
    for (int i = 0; aliases[i].set >= 0; i++)
        if (aliases[i].set == set && eqn(aliases[i].spell, s, n)) return aliases[i].tok;
    return -1;
}

int tok_alias(unsigned i, int *set, const char **spell)
{
    if (i >= sizeof aliases / sizeof aliases[0] || aliases[i].set < 0) return -1;
    *set = aliases[i].set;
    *spell = aliases[i].spell;
    return aliases[i].tok;
}

const char *tok_spelling(int tok) { return tok >= 0 && tok < T__COUNT ? toks[tok].spell : "?"; }
int tok_set(int tok) { return tok >= 0 && tok < T__COUNT ? toks[tok].set : -1; }

int tokset_first(int set)
{
    for (int i = 0; i < T__COUNT; i++)
        if (toks[i].set == set) return i;
    return -1;
}
int tokset_size(int set)
{
    int n = 0;
    for (int i = 0; i < T__COUNT; i++) n += toks[i].set == set;
    return n;
}
int tok_ordinal(int tok) { return tok - tokset_first(tok_set(tok)); }

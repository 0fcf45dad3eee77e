#!/usr/bin/env python3
"""test_ops_roundtrip.py [--build BUILD] — every OP row of src/isa/ops.def, instantiated from the table and
round-tripped through the printer: parse -> print -> parse is a fixed point, and the generic form prints back
to the same text.

The instances are built here in Python from ops.def itself (its macros expanded, each signature string read
by the grammar documented at the top of src/isa/sig.c): every value operand is a function argument of a type
of its slot's type class, tokens take the first spelling of their set (tokens.def) in the slot's style, integer
attributes 0 (bool false), clauses are written with their keyword. Two instances per row:
  minimal   only what the signature requires;
  full      every optional slot, clause, dictionary token and result written too (variadic slots twice).
Rows whose syntax is not signature-driven (SYN_* other than SYN_SIG: modules, functions, scf, arith, SIMT
launch, llvm) get one instance each from TEMPLATES below, keyed by syntax kind (arith casts by op). A row
that cannot be instantiated generically must be listed in EXCEPTIONS with the reason.

For each instance file X (one function per row, all rows of one variant in one module; on a failure each row
is tried alone to name it): a = fmt --no-verify X must succeed and name every op, fmt a == a, and
fmt (fmt --generic a) == a. The instances need not verify (operand types are only of the right class), so
--no-verify is used throughout."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from testlib import BUILD, ROOT, check, finish  # noqa: E402

PTOSIM = os.path.join(BUILD, "ptosim")

# Rows not instantiated by this test, each with the reason (variant "minimal", "full" or "both").
EXCEPTIONS = {
}

# ---------------------------------------------------------------- reading ops.def


def c_tokens(text):
    """string literals, identifiers, parentheses and commas of a C macro expression"""
    return re.findall(r'"(?:[^"\\]|\\.)*"|[A-Za-z_]\w*|[(),]', text)


def read_macros(src):
    """#define NAME body and #define NAME(params) body, joined across continuation lines"""
    macros = {}
    lines = src.replace("\\\n", " ").splitlines()
    for line in lines:
        m = re.match(r"#define (\w+)(\(([^)]*)\))?\s+(.*)$", line)
        if m:
            params = [p.strip() for p in m.group(3).split(",")] if m.group(2) else None
            body = re.sub(r"/\*.*?\*/", "", m.group(4))
            macros[m.group(1)] = (params, c_tokens(body))
    return macros


def expand(toks, macros):
    """token list with macros expanded (object-like and function-like, recursively)"""
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t in macros:
            params, body = macros[t]
            if params is None:
                out += expand(body, macros)
                i += 1
                continue
            assert toks[i + 1] == "(", t
            args, cur, depth, i = [], [], 0, i + 2
            while True:
                u = toks[i]
                if u == "(" and True:
                    depth += 1
                elif u == ")":
                    if depth == 0:
                        break
                    depth -= 1
                if u == "," and depth == 0:
                    args.append(cur)
                    cur = []
                else:
                    cur.append(u)
                i += 1
            args.append(cur)
            sub = dict(zip(params, args))
            out += expand([x for b in body for x in (sub[b] if b in sub else [b])], macros)
            i += 1
        else:
            out.append(t)
            i += 1
    return out


def literal(toks):
    """the concatenation of adjacent string literals"""
    assert all(t.startswith('"') for t in toks), toks
    return "".join(bytes(t[1:-1], "utf-8").decode("unicode_escape") for t in toks)


def read_def(path):
    """a .def file with the .def files it includes put in place of their #include lines"""
    text = open(path).read()
    return re.sub(r'^#include "(\w+\.def)"\s*$', lambda m: read_def(os.path.join(os.path.dirname(path), m.group(1))),
                  text, flags=re.M)


def read_rows(path):
    """(id, name, family, pipe, syntax, flags, signature) of every OP row, in table order (the .def files
    ops.def includes too)"""
    src = read_def(path)
    macros = read_macros(src)
    rows, cur = [], None
    for line in src.splitlines():
        if cur is None and not line.startswith("OP("):
            continue
        cur = line if cur is None else cur + " " + line.strip()
        depth, instr = 0, False
        for ch in cur:
            if ch == '"':
                instr = not instr
            elif not instr and ch == "(":
                depth += 1
            elif not instr and ch == ")":
                depth -= 1
        if depth:
            continue
        toks = c_tokens(re.sub(r"/\*.*?\*/", "", cur))
        assert toks[0] == "OP" and toks[1] == "(" and toks[-1] == ")", cur
        args, part, depth = [], [], 0
        for t in toks[2:-1]:
            if t == "(":
                depth += 1
            elif t == ")":
                depth -= 1
            if t == "," and depth == 0:
                args.append(part)
                part = []
            else:
                part.append(t)
        args.append(part)
        sig = literal(expand(args[6], macros)) if args[6] else ""
        rows.append((args[0][0], literal(args[1]), args[2][0], args[3][0], args[4][0],
                     " ".join(expand(args[5], macros)), sig))
        cur = None
    return rows


def read_tokens(path):
    """{SET: [spellings in table order]} and {SET: the set's name in #pto.NAME<...>}"""
    sets, names = {}, {}
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    for m in re.finditer(r'\bTOKSET\((\w+), "([^"]+)"\)', text):
        names[m.group(1)] = m.group(2)
    for m in re.finditer(r'\bTOK\((\w+), \w+, "([^"]+)"\)', text):
        sets.setdefault(m.group(1), []).append(m.group(2))
    return sets, names


# ---------------------------------------------------------------- the signature language (src/isa/sig.c)


class Slot:
    def __init__(self):
        self.kind = None          # value, mem, token, int
        self.name = self.tc = self.tokset = self.off_name = self.key = None
        self.spaces = []
        self.optional = self.variadic = self.untyped = self.off_typed = self.off_path = False
        self.style = "q"
        self.is_bool = False
        self.has_def = False
        self.list = self.out = self.in_bracket = False
        self.after_paren = False  # KEY = TOKEN after the parenthesised operands: name(%a : T) mode = #pto.x<y>


class Clause:
    def __init__(self):
        self.kw, self.mult, self.prefix, self.unit, self.slots = None, "one", False, False, []


class Sig:
    def __init__(self):
        self.pos, self.dict, self.res, self.cl = [], [], [], []
        self.bracket = self.outs = self.bracket_plain = self.ins_only = False
        self.type_order = []


class SigReader:
    def __init__(self, text):
        self.s, self.i = text, 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in " \t\n":
            self.i += 1

    def peek(self):
        self.ws()
        return self.s[self.i] if self.i < len(self.s) else ""

    def eat(self, c):
        if self.peek() == c:
            self.i += 1
            return True
        return False

    def ch(self):
        return self.s[self.i] if self.i < len(self.s) else ""

    def name(self):
        self.ws()
        m = re.compile(r"\w+").match(self.s, self.i)
        assert m, "expected a name at %r" % self.s[self.i:]
        self.i = m.end()
        return m.group(0)

    def mods(self, sl):
        while self.ch() in ("?", "*", "~", ">") and self.ch():
            c = self.ch()
            sl.optional |= c == "?"
            sl.variadic |= c == "*"
            sl.untyped |= c == "~"
            self.i += 1

    def type_class(self, sl):
        sl.tc = self.name()
        if sl.tc == "ptr" and self.ch() == ".":
            while self.ch() in (".", "|") and self.ch():
                self.i += 1
                sl.spaces.append(self.name())

    def token_slot(self, sl):
        sl.kind = "token"
        sl.name = self.name()
        assert self.eat(":")
        sl.tokset = self.name()
        if self.ch() == "/":
            sl.style = self.s[self.i + 1]
            self.i += 2
        if self.ch() == "=":
            self.i += 1
            self.name()
            sl.has_def = sl.optional = True
        self.mods(sl)

    def int_slot(self, sl):
        sl.kind = "int"
        sl.name = self.name()
        assert self.eat(":")
        sl.is_bool = self.name() == "bool"
        if self.ch() == "=":
            self.i += 1
            m = re.compile(r"-?\d+").match(self.s, self.i)
            self.i = m.end()
            sl.has_def = sl.optional = True
        self.mods(sl)

    def value_slot(self, sl, n):
        sl.kind, sl.name = "value", n
        assert self.eat(":")
        self.type_class(sl)
        if self.ch() == "[":
            self.i += 1
            sl.kind = "mem"
            if self.ch() == "#":
                self.i += 1
                sl.off_path = True
            sl.off_name = self.name()
            if self.s[self.i:self.i + 2] in (":T", ":V"):
                sl.off_typed = True
                sl.off_vec = self.s[self.i + 1] == "V"
                self.i += 2
            assert self.eat("]")
        self.mods(sl)
        if self.ch() == "=":
            while self.ch() in ("=", "|") and self.ch():
                self.i += 1
                if self.ch() not in ("|", ",", " ", ""):
                    self.name()

    def any_slot(self, sl):
        if self.eat("@"):
            self.token_slot(sl)
        elif self.eat("#"):
            self.int_slot(sl)
        elif self.eat("$"):                        # a string literal attribute (pto.print's format)
            sl.kind, sl.name = "str", self.name()
            self.mods(sl)
        else:
            self.value_slot(sl, self.name())
        return sl

    def at_clause(self):
        self.ws()
        m = re.compile(r"[A-Za-z]\w*").match(self.s, self.i)
        return bool(m) and self.s[m.end():m.end() + 1] not in (":", "=")

    def read(self):
        sig = Sig()
        paren = self.eat("(")                          # (pos-list): also written NAME(%a : T, ...)
        if self.peek() and not self.at_clause() and self.peek() != "{" and self.s[self.i:self.i + 2] != "->":
            outs = False
            while True:
                self.ws()
                m = re.compile(r"(\w+)=").match(self.s, self.i)
                if m:                                  # KEY = %v or KEY = [%a, ...]
                    self.i = m.end()
                    lst = self.eat("[")
                    sl = self.any_slot(Slot())
                    sl.key, sl.list, sl.out = m.group(1), lst, outs
                    if lst:
                        assert self.eat("]")
                    sig.pos.append(sl)
                elif self.eat("["):
                    sig.bracket = True
                    sig.bracket_plain = self.eat("?")   # '[?': printed without the brackets
                    while True:
                        sl = self.any_slot(Slot())
                        sl.in_bracket = True
                        sig.pos.append(sl)
                        if not self.eat(","):
                            break
                    assert self.eat("]")
                else:
                    sl = self.any_slot(Slot())
                    sl.out = outs
                    sig.pos.append(sl)
                if self.eat("|"):
                    outs = sig.outs = True
                    if self.peek() in ("", "{", "-", ")"):   # 'a, b |': written ins(...) alone
                        sig.ins_only = True
                        break
                elif not self.eat(","):
                    break
        if paren:
            assert self.eat(")")
            while True:                                # keyed slots after the parentheses, comma-separated
                self.ws()
                m = re.compile(r"(\w+)=").match(self.s, self.i)
                if not m:
                    break
                self.i = m.end()
                sl = self.any_slot(Slot())
                sl.key, sl.after_paren = m.group(1), True
                sig.pos.append(sl)
                self.eat(",")
        while self.peek():
            if self.eat(":"):
                assert self.eat("(")
                while True:
                    sig.type_order.append(self.name())
                    if not self.eat(","):
                        break
                assert self.eat(")")
            elif self.eat("{"):
                while True:
                    self.ws()
                    sig.dict.append(self.any_slot(Slot()))
                    if not self.eat(","):
                        break
                assert self.eat("}")
            elif self.s[self.i:self.i + 2] == "->":
                self.i += 2
                while True:
                    sl = Slot()
                    sl.kind, sl.name = "value", self.name()
                    assert self.eat(":")
                    self.type_class(sl)
                    self.mods(sl)
                    sig.res.append(sl)
                    if not self.eat(","):
                        break
            elif self.at_clause():
                c = Clause()
                c.kw = self.name()
                while self.ch() == "|":
                    self.i += 1
                    self.name()
                if self.ch() in ("?", "*", "!"):
                    c.mult = {"?": "opt", "*": "many", "!": "one"}[self.ch()]
                    self.i += 1
                if self.ch() == "^":
                    c.prefix = True
                    self.i += 1
                if self.ch() != "(":
                    c.unit = True
                    sig.cl.append(c)
                    continue
                self.i += 1
                while True:
                    self.ws()
                    m = re.compile(r"(\w+)=").match(self.s, self.i)
                    key = None
                    if m:
                        key = m.group(1)
                        self.i = m.end()
                    sl = self.any_slot(Slot())
                    sl.key = key
                    if c.mult == "many" and sl.kind == "value":
                        sl.variadic = True
                    c.slots.append(sl)
                    if not self.eat(","):
                        break
                assert self.eat(")")
                sig.cl.append(c)
            else:
                raise AssertionError("unexpected text %r" % self.s[self.i:])
        return sig


# ---------------------------------------------------------------- instances

TYPES = {"any": "i64", "i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "index": "index",
         "int": "i64", "float": "f32", "scalar": "i64", "sval": "i64", "vreg": "!pto.vreg<64xf32>",
         "mask": "!pto.mask<b32>", "align": "!pto.align", "struct": "!pto.struct<f32, i32>",
         "vvreg": "!pto.vmi.vreg<128xf32>", "vmask": "!pto.vmi.mask<128xpred>", "vval": "!pto.vmi.vreg<128xf32>",
         "tile": "!pto.tile_buf<vec, 4x64xf32>", "view": "!pto.partition_tensor_view<4x64xf32>",
         "mtile": "!pto.multi_tile_buf<!pto.tile_buf<vec, 4x64xf32>, count=2>",
         "larr": "!pto.local_array<4x8xf32>",
         "tview": "!pto.tensor_view<4x64xf32>", "pview": "!pto.partition_tensor_view<4x64xf32>",
         "asess": "!pto.async_session", "aevent": "!pto.async_event", "actx": "!pto.prefetch_async_context",
         "pipe": "!pto.pipe"}


def type_of(sl):
    if sl.tc == "ptr":
        return "!pto.ptr<f32, %s>" % (sl.spaces[0] if sl.spaces else "gm")
    return TYPES[sl.tc]


class Instance:
    """one op instance: its function arguments and its text"""

    def __init__(self, tokens, toknames):
        self.tokens, self.toknames = tokens, toknames
        self.args = []            # (name, type)

    def value(self, ty):
        n = "%%v%d" % len(self.args)
        self.args.append((n, ty))
        return n

    def token(self, sl):
        sp = self.tokens[sl.tokset][0]
        return {"q": '"%s"' % sp, "a": "<%s>" % sp, "h": "#pto.%s<%s>" % (self.toknames[sl.tokset], sp),
                "b": sp, "m": "#pto<%s %s>" % (self.toknames[sl.tokset], sp)}[sl.style]

    def intval(self, sl):
        return "false" if sl.is_bool else "0"


def build(row, full, tokens, toknames):
    """(args, text) of an instance of a SYN_SIG row"""
    oid, name, fam, pipe, syn, flags, sigtext = row
    sig = SigReader(sigtext).read()
    I = Instance(tokens, toknames)
    types = {}                # group name -> [types in order]
    order = []                # default type list: (type, clause keyword prefix or None)

    def want(sl):
        return full or not (sl.optional or sl.variadic) or (sl.kind == "token" and not sl.has_def and not sl.optional)

    def slot_text(sl, typelist=True):
        if sl.kind == "token":
            return I.token(sl)
        if sl.kind == "int":
            return I.intval(sl)
        if sl.kind == "str":
            return '"v = %d\\n"'
        ty = type_of(sl)
        v = I.value(ty)
        types.setdefault(sl.name, []).append(ty)
        if sl.kind == "mem":
            if sl.off_path:
                txt = "%s[0]" % v
            else:
                oty = "!pto.vmi.vreg<64xi32>" if getattr(sl, "off_vec", False) else "i64" if sl.off_typed else "index"
                o = I.value(oty)
                types.setdefault(sl.off_name, []).append(oty)
                txt = "%s[%s]" % (v, o)
            if typelist and not sl.untyped:
                order.append((ty, None))
            if typelist and sl.off_typed:
                order.append((oty, None))
            return txt
        if typelist and not sl.untyped:
            order.append((ty, None))
        return v

    dict_items = ["%s = %s" % (sl.name, I.token(sl) if sl.kind == "token" and sl.style == "m" else
                               '"%s"' % tokens[sl.tokset][0] if sl.kind == "token" else I.intval(sl))
                  for sl in sig.dict if want(sl)]
    if sig.outs:               # ins(values {dict} : types) outs(values : types)
        sides = []
        for out in (False,) if sig.ins_only else (False, True):
            vals, tys = [], []
            for sl in sig.pos:
                if sl.out != out or not want(sl):
                    continue
                for _ in range(2 if (sl.variadic and full) else 1):
                    vals.append(("%s = " % sl.key if sl.key else "") + slot_text(sl, False))
                    if sl.kind in ("value", "mem") and not sl.untyped:
                        tys.append(type_of(sl))
            inner = ", ".join(vals)
            if not out and dict_items:
                inner += " {" + ", ".join(dict_items) + "}"
            if tys:
                inner += " : " + ", ".join(tys)
            sides.append(("outs(" if out else "ins(") + inner + ")")
        assert not sig.res and not sig.cl, "results or clauses in the ins/outs form"
        return I.args, name + " " + " ".join(sides)
    if any(sl.after_paren for sl in sig.pos):   # name(values : types) key = TOKEN, key = TOKEN (the compiler's form)
        vals = [slot_text(sl) for sl in sig.pos if not sl.after_paren and want(sl)]
        keyed = ["%s = %s" % (sl.key, slot_text(sl)) for sl in sig.pos if sl.after_paren and want(sl)]
        inner = ", ".join(vals) + (" : " + ", ".join(t for t, _ in order) if order else "")
        return I.args, name + "(" + inner + ") " + ", ".join(keyed)
    text = name
    if sig.bracket and not sig.bracket_plain:
        text += "[" + ", ".join(slot_text(sl) for sl in sig.pos if sl.in_bracket and want(sl)) + "]"
    first = True
    for sl in sig.pos:
        if (sl.in_bracket and not sig.bracket_plain) or not want(sl):
            continue
        n = 2 if (sl.variadic and full) else 1
        if sl.key and sl.kind == "value":      # KEY = %v (after a space), KEY = [%a, ...] (after a comma)
            vals = [slot_text(sl) for _ in range(n)]
            if sl.list:
                text += (" " if first else ", ") + "%s = [%s]" % (sl.key, ", ".join(vals))
            else:
                text += " %s = %s" % (sl.key, vals[0])
            first = False
            continue
        for _ in range(n):
            text += (" " if first else ", ") + slot_text(sl)
            first = False
    comma = "F_COMMA" in flags
    clauses = []
    for c in sig.cl:
        if c.mult in ("opt", "many") and not full:
            continue
        for _ in range(2 if c.mult == "many" else 1):
            if c.unit:
                clauses.append(c.kw)
                continue
            inner = []
            first_typed = True
            for sl in c.slots:
                if not want(sl):
                    continue
                before = len(order)
                t = slot_text(sl)
                if c.prefix and len(order) > before and first_typed:
                    order[before] = (order[before][0], c.kw)
                    first_typed = False
                inner.append(("%s = " % sl.key if sl.key else "") + t)
            clauses.append(c.kw + ("(" + ", ".join(inner) + ")" if inner else ""))
    for c in clauses:
        text += (", " if comma and not first else " ") + c
        first = False
    if dict_items:
        text += " {" + ", ".join(dict_items) + "}"
    if sig.type_order:
        tl = ", ".join(types[g][0] for g in sig.type_order if g in types)
    else:
        tl = ", ".join(("%s %s" % (kw, t)) if kw else t for t, kw in order)
    res = []
    for sl in sig.res:
        if not want(sl):
            continue
        res += [type_of(sl)] * (2 if sl.variadic and full else 1)
    if tl:
        text += " : " + tl
    if res:
        text += (" -> " if tl or (sig.res and ">" in sigtext.split("->")[-1].split(",")[0]) else " : ") + ", ".join(res)
        text = ", ".join("%%r%d" % k for k in range(len(res))) + " = " + text
    return I.args, text


# Non-signature syntax: one instance per syntax kind, (args, text). %a/%b i64, %x/%y f32, %c i1, %p gm ptr.
ARGS = [("%a", "i64"), ("%b", "i64"), ("%x", "f32"), ("%y", "f32"), ("%c", "i1"), ("%w", "i32"),
        ("%vec", "vector<2xf32>"), ("%n", "i32")]
CASTS = {"arith.index_cast": "%a : i64 to index", "arith.index_castui": "%a : i64 to index",
         "arith.extsi": "%w : i32 to i64", "arith.extui": "%w : i32 to i64", "arith.trunci": "%a : i64 to i32",
         "arith.sitofp": "%a : i64 to f32", "arith.uitofp": "%a : i64 to f32", "arith.fptosi": "%x : f32 to i64",
         "arith.fptoui": "%x : f32 to i64", "arith.extf": "%x : f32 to f64", "arith.truncf": "%x : f32 to f16",
         "arith.bitcast": "%x : f32 to i32", "builtin.unrealized_conversion_cast": "%w : i32 to si32",
         "llvm.inttoptr": "%a : i64 to !llvm.ptr<1>", "llvm.bitcast": "%x : f32 to i32"}
TEMPLATES = {
    "SYN_MODULE": "module {\n    }",
    "SYN_FUNC": None,                    # every instance is inside a func.func
    "SYN_RETURN": None,                  # every instance function ends with a return
    "SYN_CALL": "%r = func.call @callee(%a) : (i64) -> i64",
    "SYN_SCF_FOR": "%r = scf.for %i = %a to %b step %a iter_args(%s = %a) -> (i64) {\n      scf.yield %s : i64\n    }",
    "SYN_SCF_IF": "%r = scf.if %c -> (i64) {\n      scf.yield %a : i64\n    } else {\n      scf.yield %b : i64\n    }",
    "SYN_SCF_WHILE": "%r = scf.while (%s = %a) : (i64) -> i64 {\n      scf.condition(%c) %s : i64\n    } do {\n"
                     "    ^bb0(%t: i64):\n      scf.yield %t : i64\n    }",
    "SYN_SCF_YIELD": None,               # in the scf.for / scf.if / scf.while instances
    "SYN_SCF_CONDITION": None,           # in the scf.while instance
    "SYN_REGION": "NAME {\n    }",
    "SYN_STRICT_VECSCOPE": "pto.strict_vecscope(%a) {\n    ^bb0(%s: i64):\n    } : (i64) -> ()",
    "SYN_ARITH_CONST": "%r = arith.constant 7 : i64",
    "SYN_ARITH_UN": "%r = NAME %x : f32",
    "SYN_ARITH_SELECT": "%r = arith.select %c, %a, %b : i64",
    "SYN_CF": None,                      # cf.br / cf.cond_br never survive parsing: the parser makes scf.if of them
}
COVERED_BY = {"SYN_FUNC": "the function around every instance", "SYN_RETURN": "the return ending every instance",
              "SYN_SCF_YIELD": "the scf.for, scf.if and scf.while instances",
              "SYN_SCF_CONDITION": "the scf.while instance",
              "SYN_CF": "tests/syntax/cf_blocks.pto (the parser turns them into scf.if)"}
OTHER = {
    "pto.simt_launch": "pto.simt_launch @callee<<<%n, %n, %n>>>(%a) : (i64) -> ()",
    "pto.section.simt": "pto.section.simt<<<1, 1, 1>>> {\n    }",
    "llvm.alloca": "%r = llvm.alloca %n x f32 : (i32) -> !llvm.ptr",
    "llvm.getelementptr": "%r = llvm.getelementptr %q[%a] : (!llvm.ptr, i64) -> !llvm.ptr, f32",
    "llvm.extractelement": "%r = llvm.extractelement %vec[%n : i32] : vector<2xf32>",
    "pto.subview": "%r = pto.subview %tl[%i, %i] sizes [2, 64] valid [%i, %i] : !pto.tile_buf<vec, 4x64xf32> -> "
                   "!pto.tile_buf<vec, 2x64xf32, valid=?x?>",
    "pto.multi_tile_get": "%r = pto.multi_tile_get %mt[%i] : !pto.multi_tile_buf<!pto.tile_buf<vec, 4x64xf32>, count=2> -> "
                          "!pto.tile_buf<vec, 4x64xf32>",
    "pto.local_array_get": "%r = pto.local_array_get %la[%i, %i] : !pto.local_array<4x8xf32> -> f32",
    "pto.local_array_set": "pto.local_array_set %la[%i, %i], %x : !pto.local_array<4x8xf32>, f32",
}


def template(row):
    oid, name, fam, pipe, syn, flags, sig = row
    if syn == "SYN_ARITH_BIN":
        ty = "f32" if name.endswith("f") else "i64"
        ops = "%x, %y" if ty == "f32" else "%a, %b"
        return "%%r = %s %s : %s" % (name, ops, ty)
    if syn == "SYN_ARITH_CMP":
        return "%r = arith.cmpi slt, %a, %b : i64" if name == "arith.cmpi" else "%r = arith.cmpf olt, %x, %y : f32"
    if syn == "SYN_ARITH_CAST":
        return "%%r = %s %s" % (name, CASTS[name])
    if syn in ("SYN_SIMT", "SYN_LLVM", "SYN_SUBVIEW"):
        return OTHER[name]
    t = TEMPLATES[syn]
    return t.replace("NAME", name) if t else None


def module(funcs):
    body = ["module attributes {pto.target_arch = \"a5\"} {",
            "  func.func private @callee(%a: i64) -> i64 {\n    return %a : i64\n  }"]
    for fname, args, text in funcs:
        body.append("  func.func @%s(%s) {" % (fname, ", ".join("%s: %s" % a for a in args)))
        body.append("    " + text)
        body.append("    return\n  }")
    body.append("}")
    return "\n".join(body) + "\n"


def fmt(path, *extra):
    p = subprocess.run([PTOSIM, "fmt", "--no-verify"] + list(extra) + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def roundtrip(tmp, tag, funcs):
    """'' if the module of `funcs` round-trips, else what went wrong"""
    x = os.path.join(tmp, tag + ".pto")
    open(x, "w").write(module(funcs))
    c, a, e = fmt(x)
    if c != 0:
        return "fmt exit %d: %s" % (c, e.strip()[:600])
    bodies = dict(re.findall(r"(?ms)^  func\.func @(\w+)\(.*?\) \{\n(.*?)^  \}", a))
    for n, _, t in funcs:
        if n not in bodies:
            return "function %s lost" % n
        # nothing written is dropped: every value, keyword, token and type word of the instance is printed
        lost = sorted(set(re.findall(r"%\w+|[A-Za-z_][\w.]*", t)) - set(re.findall(r"%\w+|[A-Za-z_][\w.]*", bodies[n])))
        if lost:
            return "%s: the printed form lacks %s\n    printed: %s" % (n, lost, bodies[n].strip()[:300])
    fa = os.path.join(tmp, tag + ".a.pto")
    open(fa, "w").write(a)
    c, b, e = fmt(fa)
    if c != 0 or b != a:
        return "not a fixed point (exit %d) %s" % (c, first_diff(a, b) if c == 0 else e[:400])
    c, g, e = fmt(fa, "--generic")
    if c != 0:
        return "--generic exit %d: %s" % (c, e[:400])
    fg = os.path.join(tmp, tag + ".g.pto")
    open(fg, "w").write(g)
    c, b2, e = fmt(fg)
    if c != 0 or b2 != a:
        return "generic form does not print back (exit %d) %s" % (c, first_diff(a, b2) if c == 0 else e[:400])
    return ""


def first_diff(a, b):
    al, bl = a.splitlines(), b.splitlines()
    for i in range(max(len(al), len(bl))):
        x = al[i] if i < len(al) else "<end>"
        y = bl[i] if i < len(bl) else "<end>"
        if x != y:
            return "\n  first:  %s\n  second: %s" % (x.strip(), y.strip())
    return ""


def main():
    rows = read_rows(os.path.join(ROOT, "src", "isa", "ops.def"))
    tokens, toknames = read_tokens(os.path.join(ROOT, "src", "isa", "tokens.def"))
    check(len(rows) > 300, "ops.def read: %d OP rows" % len(rows))
    classes = re.findall(r'^TCLASS\(\w+, "(\w+)"', open(os.path.join(ROOT, "src", "isa", "tclass.def")).read(), re.M)
    check(classes and all(c in TYPES or c == "ptr" for c in classes), "every type class of tclass.def has an instance type",
          "missing: %s (add them to TYPES)" % [c for c in classes if c not in TYPES and c != "ptr"])
    tmp = tempfile.mkdtemp(prefix="ptosim-roundtrip-")
    try:
        run(rows, tokens, toknames, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish()


def run(rows, tokens, toknames, tmp):
    per_variant = {"minimal": [], "full": []}
    op_of_func = {}
    covered = set()
    for k, row in enumerate(rows):
        oid, name, fam, pipe, syn, flags, sig = row
        for variant in ("minimal", "full"):
            reason = EXCEPTIONS.get((oid, variant)) or EXCEPTIONS.get((oid, "both"))
            if reason:
                covered.add(oid)
                continue
            if syn == "SYN_SIG":
                try:
                    args, text = build(row, variant == "full", tokens, toknames)
                except Exception as e:        # a signature this reader does not understand
                    check(False, "%s: instance (%s)" % (oid, variant), repr(e))
                    continue
            else:
                if variant == "full":
                    continue
                if syn in COVERED_BY:
                    covered.add(oid)
                    continue
                text = template(row)
                args = list(ARGS)
                if name in ("llvm.getelementptr",):
                    args.append(("%q", "!llvm.ptr"))
                if name == "pto.subview":
                    args += [("%tl", "!pto.tile_buf<vec, 4x64xf32>"), ("%i", "index")]
                if name in ("pto.local_array_get", "pto.local_array_set"):
                    args += [("%la", "!pto.local_array<4x8xf32>"), ("%i", "index")]
                if name == "pto.multi_tile_get":
                    args += [("%mt", "!pto.multi_tile_buf<!pto.tile_buf<vec, 4x64xf32>, count=2>"), ("%i", "index")]
            fname = "%s_%s" % (oid.lower(), variant)
            per_variant[variant].append((fname, args, text))
            op_of_func[fname] = oid
            covered.add(oid)
    check(len(covered) == len(rows), "every OP row has an instance, an exception or a covering instance",
          sorted(set(r[0] for r in rows) - covered))
    for variant, funcs in per_variant.items():
        why = roundtrip(tmp, variant, funcs)
        if not why:
            check(True, variant)
            continue
        # name the rows that fail on their own
        bad = []
        for f in funcs:
            w = roundtrip(tmp, f[0], [f])
            if w:
                bad.append("%s (%s): %s\n    %s" % (op_of_func[f[0]], variant, w, f[2]))
        check(not bad, "%s instances of %d rows round-trip" % (variant, len(funcs)), "\n".join(bad) or why)


if __name__ == "__main__":
    main()

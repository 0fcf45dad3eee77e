/* _standin.c — the numpy element types of the `ml_dtypes` stand-in (python/ptosim/ml_dtypes_standin/README.md):
 * bfloat16, float8_e4m3fn, float8_e5m2, float8_e8m0fnu, float4_e2m1fn and (for the `en_dtypes` stand-in next to it)
 * float4_e1m2 as numpy user dtypes, so that the compiler's test data scripts (`x.astype(bfloat16)`, `np.fromfile(f, dtype=bfloat16)`, `.view(...)`) run where
 * Debian has no ml_dtypes package. A numpy element type needs the C API (numpy cannot cast to a type defined in
 * Python), so this small module is compiled by `ptosim case` against the scripts' Python and numpy.
 *
 * Each type is a small float format: sign bit (except e8m0fnu), E exponent bits with bias B, M mantissa bits.
 * Conversions from other types go through a double and round once, to nearest even; a value past the largest
 * finite one becomes inf (formats with inf), NaN (formats with NaN only) or the largest finite value (float4,
 * which has neither). NaN becomes the format's NaN (float4: 0). Arithmetic is not defined on the types
 * themselves: they cast safely to float32 and float64, so numpy's ufuncs compute in float32 (a product of two
 * bfloat16 values rounded back with .astype(bfloat16) is what ml_dtypes computes). This file is test
 * infrastructure: it never links into ptosim and shares no code with it (its conversions are written
 * independently of src/base/num.c). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct Fmt {
    const char *name;       /* the Python name */
    int bytes, sign, ebits, mbits, bias;
    int inf;                /* has +-inf (all-ones exponent, zero mantissa) */
    uint32_t nan;           /* the NaN code, or 0xFFFFFFFF: none */
    uint32_t maxcode;       /* the largest finite magnitude code */
} Fmt;

enum { T_BF16, T_E4M3FN, T_E5M2, T_E8M0FNU, T_E2M1FN, T_E1M2, T_N };
static const Fmt fmts[T_N] = {
    {"bfloat16", 2, 1, 8, 7, 127, 1, 0x7FC0, 0x7F7F},
    {"float8_e4m3fn", 1, 1, 4, 3, 7, 0, 0x7F, 0x7E},
    {"float8_e5m2", 1, 1, 5, 2, 15, 1, 0x7E, 0x7B},
    {"float8_e8m0fnu", 1, 0, 8, 0, 127, 0, 0xFF, 0xFE},
    {"float4_e2m1fn", 1, 1, 2, 1, 1, 0, 0xFFFFFFFF, 0x7},
    {"float4_e1m2", 1, 1, 1, 2, 1, 0, 0xFFFFFFFF, 0x7},   /* en_dtypes: values k/4 below 1, 1 + k/4 up to 1.75 */
};
static const Fmt f16fmt = {"float16", 2, 1, 5, 10, 15, 1, 0x7E00, 0x7BFF};

/* ------------------------------------------------------------------ exact conversions */

static double decode(const Fmt *f, uint32_t c)
{
    const uint32_t magmask = (1u << (f->ebits + f->mbits)) - 1, mag = c & magmask;
    const int neg = f->sign && (c >> (f->ebits + f->mbits)) & 1;
    const uint32_t e = mag >> f->mbits, m = mag & ((1u << f->mbits) - 1), emax = (1u << f->ebits) - 1;
    double v;
    if (f->inf && e == emax) return m ? NAN : neg ? -INFINITY : INFINITY;
    if (mag > f->maxcode) return NAN;                                                    /* the NaN codes */
    if (f->mbits == 0) v = ldexp(1.0, (int)e - f->bias);                                  /* e8m0: no zero */
    else if (e == 0) v = ldexp((double)m, 1 - f->bias - f->mbits);                        /* subnormal */
    else v = ldexp((double)((1u << f->mbits) | m), (int)e - f->bias - f->mbits);
    return neg ? -v : v;
}

/* n >= 0 rounded to an integer, ties to even (n < 2^53; no host rounding mode involved) */
static double rne(double n)
{
    double fl = floor(n), d = n - fl;
    if (d > 0.5 || (d == 0.5 && fmod(fl, 2.0) != 0.0)) fl += 1.0;
    return fl;
}

static uint32_t encode(const Fmt *f, double x)
{
    uint32_t sbit = f->sign ? 1u << (f->ebits + f->mbits) : 0;
    if (isnan(x)) return f->nan == 0xFFFFFFFFu ? 0 : f->nan;
    int neg = signbit(x) != 0;
    if (neg && !f->sign) return x == 0 ? 0 : f->nan;   /* e8m0fnu: unsigned */
    double a = fabs(x);
    uint32_t s = neg ? sbit : 0, over = f->inf ? ((1u << f->ebits) - 1) << f->mbits
                                     : f->nan != 0xFFFFFFFFu ? f->nan & ~sbit : f->maxcode;
    if (isinf(a)) return s | over;
    if (a == 0) return s;
    int ex;
    frexp(a, &ex);
    int E = ex - 1, emin = f->mbits ? 1 - f->bias : -f->bias;
    uint32_t code;
    if (E < emin) {   /* subnormal (or, for e8m0, below its smallest power) */
        double n = rne(ldexp(a, f->bias - 1 + f->mbits));
        /* e8m0 has no zero: 2^-127 (code 0) is its smallest value; otherwise n == 2^M carries into the first
           normal exponent */
        code = f->mbits == 0 ? 0 : (uint32_t)n;
    } else {
        double n = rne(ldexp(a, f->mbits - E));      /* in [2^M, 2^(M+1)] */
        code = ((uint32_t)(E + f->bias) << f->mbits) + (uint32_t)n - (1u << f->mbits);
    }
    if (code > f->maxcode) return s | over;
    return s | code;
}

static uint32_t load_code(const Fmt *f, const char *p)
{
    if (f->bytes == 1) return (uint8_t)p[0];
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}
static void store_code(const Fmt *f, char *p, uint32_t c)
{
    if (f->bytes == 1) p[0] = (char)c;
    else {
        uint16_t v = (uint16_t)c;
        memcpy(p, &v, 2);
    }
}

/* ------------------------------------------------------------------ scalar types */

typedef struct { PyObject_HEAD uint32_t code; } Scalar;
static PyTypeObject scalar_types[T_N];
static int typenums[T_N];

static int fmt_of_type(PyTypeObject *t)
{
    for (int i = 0; i < T_N; i++)
        if (t == &scalar_types[i]) return i;
    return -1;
}

static PyObject *scalar_new_code(int k, uint32_t code)
{
    Scalar *s = (Scalar *)scalar_types[k].tp_alloc(&scalar_types[k], 0);
    if (s) s->code = code;
    return (PyObject *)s;
}

static PyObject *scalar_tp_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    PyObject *v = NULL;
    int k = fmt_of_type(type);
    if (k < 0 || !PyArg_ParseTuple(args, "|O", &v)) return NULL;
    (void)kw;
    if (!v) return scalar_new_code(k, 0);
    int vk = fmt_of_type(Py_TYPE(v));
    double d = vk >= 0 ? decode(&fmts[vk], ((Scalar *)v)->code) : PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return NULL;
    return scalar_new_code(k, encode(&fmts[k], d));
}

static PyObject *scalar_float(PyObject *o)
{
    return PyFloat_FromDouble(decode(&fmts[fmt_of_type(Py_TYPE(o))], ((Scalar *)o)->code));
}

static PyObject *scalar_repr(PyObject *o)
{
    PyObject *f = scalar_float(o);
    if (!f) return NULL;
    PyObject *r = PyObject_Repr(f);
    Py_DECREF(f);
    return r;
}

static PyObject *scalar_richcompare(PyObject *a, PyObject *b, int op)
{
    PyObject *fa = PyNumber_Float(a), *fb = fa ? PyNumber_Float(b) : NULL;
    PyObject *r = fb ? PyObject_RichCompare(fa, fb, op) : NULL;
    Py_XDECREF(fa);
    Py_XDECREF(fb);
    return r;
}

static Py_hash_t scalar_hash(PyObject *o)
{
    double d = decode(&fmts[fmt_of_type(Py_TYPE(o))], ((Scalar *)o)->code);
    return _Py_HashDouble(o, d);
}

static PyNumberMethods scalar_number = {0};

/* ------------------------------------------------------------------ array functions */

#define DEFINE_ARRFUNCS(K)                                                                                            \
    static PyObject *getitem_##K(void *data, void *arr)                                                             \
    {                                                                                                               \
        (void)arr;                                                                                                  \
        return scalar_new_code(K, load_code(&fmts[K], (const char *)data));                                        \
    }                                                                                                               \
    static int setitem_##K(PyObject *item, void *data, void *arr)                                                   \
    {                                                                                                               \
        (void)arr;                                                                                                  \
        int vk = fmt_of_type(Py_TYPE(item));                                                                        \
        double d = vk >= 0 ? decode(&fmts[vk], ((Scalar *)item)->code) : PyFloat_AsDouble(item);                    \
        if (d == -1.0 && PyErr_Occurred()) return -1;                                                               \
        store_code(&fmts[K], (char *)data, vk == K ? ((Scalar *)item)->code : encode(&fmts[K], d));                 \
        return 0;                                                                                                   \
    }                                                                                                               \
    static npy_bool nonzero_##K(void *data, void *arr)                                                              \
    {                                                                                                               \
        (void)arr;                                                                                                  \
        return decode(&fmts[K], load_code(&fmts[K], (const char *)data)) != 0.0;                                  \
    }                                                                                                               \
    static int compare_##K(const void *a, const void *b, void *arr)                                                 \
    {                                                                                                               \
        (void)arr;                                                                                                  \
        double x = decode(&fmts[K], load_code(&fmts[K], a)), y = decode(&fmts[K], load_code(&fmts[K], b));        \
        return x < y ? -1 : x > y ? 1 : 0;                                                                          \
    }
DEFINE_ARRFUNCS(0)
DEFINE_ARRFUNCS(1)
DEFINE_ARRFUNCS(2)
DEFINE_ARRFUNCS(3)
DEFINE_ARRFUNCS(4)
DEFINE_ARRFUNCS(5)

static void copyswapn(void *dst, npy_intp dstride, void *src, npy_intp sstride, npy_intp n, int swap, void *arr)
{
    int e = PyArray_DESCR((PyArrayObject *)arr)->elsize;
    if (!src) return;
    for (npy_intp i = 0; i < n; i++) {
        char *d = (char *)dst + i * dstride, *s = (char *)src + i * sstride;
        memmove(d, s, (size_t)e);
        if (swap && e == 2) {
            char t = d[0];
            d[0] = d[1];
            d[1] = t;
        }
    }
}
static void copyswap(void *dst, void *src, int swap, void *arr) { copyswapn(dst, 0, src, 0, 1, swap, arr); }

/* ------------------------------------------------------------------ casts */

/* builtin element types, read and written through a double */
#define BUILTINS(X)                                                                                                 \
    X(NPY_BOOL, npy_bool, bool) X(NPY_BYTE, npy_byte, i8) X(NPY_UBYTE, npy_ubyte, u8) X(NPY_SHORT, npy_short, i16)  \
    X(NPY_USHORT, npy_ushort, u16) X(NPY_INT, npy_int, i32) X(NPY_UINT, npy_uint, u32) X(NPY_LONG, npy_long, l)     \
    X(NPY_ULONG, npy_ulong, ul) X(NPY_LONGLONG, npy_longlong, i64) X(NPY_ULONGLONG, npy_ulonglong, u64)            \
    X(NPY_FLOAT, npy_float, f32) X(NPY_DOUBLE, npy_double, f64)

/* a double to an integer type without undefined behaviour: NaN -> 0, clamped to the type's range */
#define TO_INT(T, lo, hi, d) ((d) != (d) ? (T)0 : (d) <= (double)(lo) ? (T)(lo) : (d) >= (double)(hi) ? (T)(hi) : (T)(d))

static double from_builtin(int tn, const char *p)
{
    switch (tn) {
#define RD(N, T, S)                                                                                                 \
    case N: {                                                                                                       \
        T v;                                                                                                        \
        memcpy(&v, p, sizeof v);                                                                                    \
        return (double)v;                                                                                           \
    }
        BUILTINS(RD)
#undef RD
    case NPY_HALF: {
        uint16_t v;
        memcpy(&v, p, 2);
        return decode(&f16fmt, v);
    }
    default: return 0;
    }
}

static void to_builtin(int tn, char *p, double d)
{
    switch (tn) {
    case NPY_BOOL: { npy_bool v = d != 0; memcpy(p, &v, sizeof v); return; }
    case NPY_FLOAT: { npy_float v = (npy_float)d; memcpy(p, &v, sizeof v); return; }
    case NPY_DOUBLE: memcpy(p, &d, sizeof d); return;
    case NPY_HALF: { uint16_t v = (uint16_t)encode(&f16fmt, d); memcpy(p, &v, 2); return; }
#define WR(N, T, lo, hi) case N: { T v = TO_INT(T, lo, hi, d); memcpy(p, &v, sizeof v); return; }
    WR(NPY_BYTE, npy_byte, NPY_MIN_BYTE, NPY_MAX_BYTE)
    WR(NPY_UBYTE, npy_ubyte, 0, NPY_MAX_UBYTE)
    WR(NPY_SHORT, npy_short, NPY_MIN_SHORT, NPY_MAX_SHORT)
    WR(NPY_USHORT, npy_ushort, 0, NPY_MAX_USHORT)
    WR(NPY_INT, npy_int, NPY_MIN_INT, NPY_MAX_INT)
    WR(NPY_UINT, npy_uint, 0, NPY_MAX_UINT)
    WR(NPY_LONG, npy_long, NPY_MIN_LONG, NPY_MAX_LONG)
    WR(NPY_ULONG, npy_ulong, 0, NPY_MAX_ULONG)
    WR(NPY_LONGLONG, npy_longlong, NPY_MIN_LONGLONG, NPY_MAX_LONGLONG)
    WR(NPY_ULONGLONG, npy_ulonglong, 0, NPY_MAX_ULONGLONG)
#undef WR
    default: return;
    }
}

static const int builtin_tns[] = {
#define TN(N, T, S) N,
    BUILTINS(TN)
#undef TN
    NPY_HALF,
};
enum { N_BUILTIN = sizeof builtin_tns / sizeof builtin_tns[0] };

/* One cast function per (direction, custom type); the builtin side's type number comes from the array. */
static int arr_typenum(void *arr) { return PyArray_DESCR((PyArrayObject *)arr)->type_num; }
static npy_intp arr_elsize(void *arr) { return PyArray_DESCR((PyArrayObject *)arr)->elsize; }

#define DEFINE_CASTS(K)                                                                                             \
    static void cast_to_##K(void *from, void *to, npy_intp n, void *farr, void *tarr)                             \
    {                                                                                                               \
        (void)tarr;                                                                                                 \
        int tn = arr_typenum(farr);                                                                                 \
        npy_intp es = arr_elsize(farr);                                                                             \
        int fk = tn == typenums[0] ? 0 : tn == typenums[1] ? 1 : tn == typenums[2] ? 2 : tn == typenums[3] ? 3    \
               : tn == typenums[4] ? 4 : tn == typenums[5] ? 5 : -1;                                                                        \
        for (npy_intp i = 0; i < n; i++) {                                                                          \
            const char *p = (const char *)from + i * es;                                                            \
            double d = fk >= 0 ? decode(&fmts[fk], load_code(&fmts[fk], p)) : from_builtin(tn, p);                \
            store_code(&fmts[K], (char *)to + i * fmts[K].bytes, encode(&fmts[K], d));                            \
        }                                                                                                           \
    }                                                                                                               \
    static void cast_from_##K(void *from, void *to, npy_intp n, void *farr, void *tarr)                           \
    {                                                                                                               \
        (void)farr;                                                                                                 \
        int tn = arr_typenum(tarr);                                                                                 \
        npy_intp es = arr_elsize(tarr);                                                                             \
        for (npy_intp i = 0; i < n; i++) {                                                                          \
            double d = decode(&fmts[K], load_code(&fmts[K], (const char *)from + i * fmts[K].bytes));             \
            to_builtin(tn, (char *)to + i * es, d);                                                                 \
        }                                                                                                           \
    }
DEFINE_CASTS(0)
DEFINE_CASTS(1)
DEFINE_CASTS(2)
DEFINE_CASTS(3)
DEFINE_CASTS(4)
DEFINE_CASTS(5)

typedef PyObject *(*GetItemFn)(void *, void *);
typedef int (*SetItemFn)(PyObject *, void *, void *);
typedef npy_bool (*NonzeroFn)(void *, void *);
typedef int (*CompareFn)(const void *, const void *, void *);
static const struct {
    GetItemFn get;
    SetItemFn set;
    NonzeroFn nz;
    CompareFn cmp;
    PyArray_VectorUnaryFunc *to, *from;
} fns[T_N] = {
    {getitem_0, setitem_0, nonzero_0, compare_0, cast_to_0, cast_from_0},
    {getitem_1, setitem_1, nonzero_1, compare_1, cast_to_1, cast_from_1},
    {getitem_2, setitem_2, nonzero_2, compare_2, cast_to_2, cast_from_2},
    {getitem_3, setitem_3, nonzero_3, compare_3, cast_to_3, cast_from_3},
    {getitem_4, setitem_4, nonzero_4, compare_4, cast_to_4, cast_from_4},
    {getitem_5, setitem_5, nonzero_5, compare_5, cast_to_5, cast_from_5},
};

/* ------------------------------------------------------------------ module */

static PyArray_ArrFuncs arrfuncs[T_N];
#if NPY_ABI_VERSION >= 0x02000000
typedef PyArray_DescrProto DescrProto;
#else
typedef PyArray_Descr DescrProto;
#endif
static DescrProto protos[T_N];

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_standin", "ml_dtypes stand-in element types", -1, NULL,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__standin(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    scalar_number.nb_float = scalar_float;
    for (int k = 0; k < T_N; k++) {
        PyTypeObject *t = &scalar_types[k];
        memset(t, 0, sizeof *t);
        Py_SET_REFCNT(t, 1);
        t->tp_name = fmts[k].name;
        t->tp_basicsize = sizeof(Scalar);
        t->tp_flags = Py_TPFLAGS_DEFAULT;
        t->tp_base = &PyGenericArrType_Type;
        t->tp_new = scalar_tp_new;
        t->tp_repr = scalar_repr;
        t->tp_str = scalar_repr;
        t->tp_richcompare = scalar_richcompare;
        t->tp_hash = scalar_hash;
        t->tp_as_number = &scalar_number;
        if (PyType_Ready(t) < 0) return NULL;

        PyArray_ArrFuncs *f = &arrfuncs[k];
        PyArray_InitArrFuncs(f);
        f->getitem = fns[k].get;
        f->setitem = fns[k].set;
        f->copyswapn = copyswapn;
        f->copyswap = copyswap;
        f->nonzero = fns[k].nz;
        f->compare = fns[k].cmp;

        DescrProto *d = &protos[k];
        memset(d, 0, sizeof *d);
        Py_SET_TYPE(d, &PyArrayDescr_Type);
        Py_SET_REFCNT(d, 1);
        d->typeobj = t;
        d->kind = 'V';
        d->type = k == T_BF16 ? 'E' : (char)('a' + k);
        d->byteorder = '=';
        d->flags = NPY_NEEDS_PYAPI | NPY_USE_GETITEM | NPY_USE_SETITEM;
        d->type_num = 0;
        d->elsize = fmts[k].bytes;
        d->alignment = fmts[k].bytes;
        d->f = f;
        int tn = PyArray_RegisterDataType(d);
        if (tn < 0) return NULL;
        typenums[k] = tn;
        Py_INCREF(t);
        if (PyModule_AddObject(m, fmts[k].name, (PyObject *)t) < 0) return NULL;
    }
    for (int k = 0; k < T_N; k++) {
        PyArray_Descr *me = PyArray_DescrFromType(typenums[k]);
        for (int b = 0; b < N_BUILTIN; b++) {
            PyArray_Descr *bd = PyArray_DescrFromType(builtin_tns[b]);
            if (PyArray_RegisterCastFunc(bd, typenums[k], fns[k].to) < 0 ||
                PyArray_RegisterCastFunc(me, builtin_tns[b], fns[k].from) < 0)
                return NULL;
            Py_DECREF(bd);
        }
        for (int o = 0; o < T_N; o++) {
            if (o == k) continue;
            PyArray_Descr *od = PyArray_DescrFromType(typenums[o]);
            if (PyArray_RegisterCastFunc(od, typenums[k], fns[k].to) < 0) return NULL;
            Py_DECREF(od);
        }
        /* every value is exact in float32 and float64: numpy's ufuncs compute in float32 */
        if (PyArray_RegisterCanCast(me, NPY_FLOAT, NPY_NOSCALAR) < 0 ||
            PyArray_RegisterCanCast(me, NPY_DOUBLE, NPY_NOSCALAR) < 0)
            return NULL;
        Py_DECREF(me);
    }
    return m;
}

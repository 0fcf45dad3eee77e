/* ref_num.h — an oracle for src/num.c written without it: small formats are decoded by their
 * definitions into doubles and encoded by searching a sorted table of every code's value, so the
 * tests compare two different methods. Only num.h's enums are shared. */
#ifndef PTOSIM_REF_NUM_H
#define PTOSIM_REF_NUM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/num.h"

/* Builds the value tables; returns false if a format's codes are not distinct values. */
bool ref_init(void);

/* The sorted non-negative finite values of a table format: i in 0..ref_count(f)-1, and
 * i == ref_count(f) gives the value the next code would have past the largest finite one. */
int ref_count(NumFormat f);
double ref_value_at(NumFormat f, int i);

/* Value of a code as a double (NaN for NaN codes). Every format but f64. */
double ref_decode(NumFormat f, uint64_t code);

/* Code of the exact double x rounded to f32 or a table format (f16, bf16, fp8, hif8, fp4, e8m0). */
uint64_t ref_encode(NumFormat f, double x, NumRound rm, bool sat);
/* The same for the exact value x + tail * (something tiny), tail in {-1, 0, 1}: a value just off x
 * toward tail, nearer to x than any other double. Lets inexact double results stand for exact ones. */
uint64_t ref_encode_tail(NumFormat f, double x, int tail, NumRound rm, bool sat);

/* x rounded to an integral double; zero results keep x's sign; inf and NaN unchanged. */
double ref_round_integral(double x, NumRound rm);

uint64_t ref_to_int(double x, NumRound rm, unsigned width, bool is_signed, bool sat);

/* Integer -> f32 (by host conversion and neighbour search) or -> any table format. */
uint64_t ref_from_int(uint64_t value, unsigned width, bool is_signed, NumFormat to, NumRound rm);

#endif

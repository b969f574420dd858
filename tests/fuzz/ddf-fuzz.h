/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The libFuzzer entry point of the DDF fuzz target (ddf-fuzz.c), shared
 * with the corpus replayer (ddf-replay.c).
 */
#ifndef DDF_FUZZ_H
#define DDF_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
